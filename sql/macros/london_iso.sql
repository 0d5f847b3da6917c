-- london_iso(ts): an instant as Europe/London wall time with its UTC offset, ISO 8601
-- (2024-03-31T02:00:00+01:00, 2024-10-27T01:30:00+00:00), whatever the session's TimeZone.
-- The offset is the wall time minus the instant (0 or +1 h since 1972); DuckDB evaluates the
-- repeated timezone() call once.
CREATE OR REPLACE MACRO london_iso(ts) AS (
    strftime(timezone('Europe/London', ts), '%Y-%m-%dT%H:%M:%S')
    || CASE WHEN epoch_us(timezone('Europe/London', ts)) - epoch_us(ts) = 3600000000 THEN '+01:00' ELSE '+00:00' END
);
