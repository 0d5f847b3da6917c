-- london_local(utc): the Europe/London view of an instant, the one place these fields are derived
-- (unit_rates, standing_charges and consumption store them at ingest; rate_slots derives them for
-- the half-hours of long rates). A struct:
--   local_date          DATE       the Europe/London calendar date
--   local_start         TIMESTAMP  the wall-clock time (01:30 appears twice on a fall-back day)
--   utc_offset_minutes  SMALLINT   wall clock minus UTC: 0 in GMT, 60 in BST
--   settlement_period   SMALLINT   1-based half-hour of the local day, counted as time elapsed
--                                  since local midnight (1..46/48/50): on a fall-back day 01:30
--                                  BST is period 4 and 01:30 GMT period 6
-- The UK rule comes from the time zone database (ICU's timezone()), not from this file. The answer
-- does not depend on the session's TimeZone: timezone('Europe/London', …) names its zone both ways
-- (instant → wall time, and local midnight → instant), and the period is a difference of epoch
-- microseconds (subtracting two TIMESTAMPTZ would count days in the session's zone).
-- Cost: two ICU conversions a row (~1.3 µs more than the former arithmetic on london_days: 1M
-- half-hours in 1.7-2.5 s against 0.5-1.0 s, one thread, CREATE TEMP TABLE AS over the macro).
-- Use:  SELECT l.local_date, l.settlement_period FROM (SELECT london_local(valid_from) AS l FROM unit_rates)
--       or london_local(valid_from).local_date
CREATE OR REPLACE MACRO london_local(utc) AS {
    'local_date': CAST(timezone('Europe/London', utc) AS DATE),
    'local_start': timezone('Europe/London', utc),
    'utc_offset_minutes': CAST((epoch_us(timezone('Europe/London', utc)) - epoch_us(utc)) // 60000000 AS SMALLINT),
    'settlement_period': CAST(
        (epoch_us(utc) - epoch_us(timezone('Europe/London', CAST(CAST(timezone('Europe/London', utc) AS DATE) AS TIMESTAMP))))
        // 1800000000 + 1 AS SMALLINT)
};
