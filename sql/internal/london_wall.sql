-- london_wall(utc): an instant's Europe/London wall-clock time (TIMESTAMP), whatever the session's
-- TimeZone; london_local's local_start.
CREATE OR REPLACE MACRO london_wall(utc) AS timezone('Europe/London', utc);
