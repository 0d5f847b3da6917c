-- london_iso(ts): an instant as Europe/London wall time with its UTC offset, ISO 8601
-- (2024-03-31T02:00:00+01:00, 2024-10-27T01:30:00+00:00), whatever the session's TimeZone; both
-- parts are london_local's.
CREATE OR REPLACE MACRO london_iso(ts) AS (
    strftime(london_local(ts).local_start, '%Y-%m-%dT%H:%M:%S')
    || printf('%+03d:%02d', london_local(ts).utc_offset_minutes // 60, london_local(ts).utc_offset_minutes % 60)
);
