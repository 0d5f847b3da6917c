-- london_iso(ts): an instant as Europe/London wall time with its UTC offset, ISO 8601
-- (2024-03-31T02:00:00+01:00, 2024-10-27T01:30:00+00:00), whatever the session's TimeZone; both
-- parts are london_local's (london_wall, london_offset_minutes).
CREATE OR REPLACE MACRO london_iso(ts) AS (
    strftime(london_wall(ts), '%Y-%m-%dT%H:%M:%S')
    || printf('%+03d:%02d', london_offset_minutes(ts) // 60, london_offset_minutes(ts) % 60)
);
