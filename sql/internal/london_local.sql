-- london_local(utc): the Europe/London view of an instant, the one place SQL derives it. A struct:
--   local_date DATE, local_start TIMESTAMP (wall clock; 01:30 twice on a fall-back day),
--   utc_offset_minutes SMALLINT (wall clock minus UTC: 0 in GMT, 60 in BST),
--   settlement_period SMALLINT (1-based half-hour of the local day, counted as time elapsed since
--   local midnight: 1..46/48/50; on a fall-back day 01:30 BST is period 4, 01:30 GMT period 6).
-- The UK rule is the time zone database's (ICU's timezone()). The answer does not depend on the
-- session's TimeZone: timezone('Europe/London', …) names its zone both ways, and the period is a
-- difference of epoch microseconds (subtracting two TIMESTAMPTZ counts days in the session's zone).
-- The calendar of whole days (bounds, 46/48/50 half-hours) is the table london_days.
-- Its wall time and offset are london_wall and london_offset_minutes, which london_iso formats.
-- Use: london_local(valid_from).local_date, or SELECT l.* FROM (SELECT london_local(x) AS l FROM t)
CREATE OR REPLACE MACRO london_local(utc) AS {
    'local_date': CAST(london_wall(utc) AS DATE),
    'local_start': london_wall(utc),
    'utc_offset_minutes': london_offset_minutes(utc),
    'settlement_period': CAST(
        (epoch_us(utc) - epoch_us(timezone('Europe/London', CAST(CAST(london_wall(utc) AS DATE) AS TIMESTAMP))))
        // 1800000000 + 1 AS SMALLINT)
};
