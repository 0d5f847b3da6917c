-- @answers The kWh a meter is expected to use in each Europe/London wall-clock half-hour of a weekday and of a weekend day, from its last 28 days.
-- @arg meter | VARCHAR |  | 'MPAN' (every serial summed) or 'MPAN:SERIAL'
-- @arg as_of | TIMESTAMPTZ | UTC | the instant answered from: only readings ending by it count
-- @column day_type | VARCHAR |  | 'weekday' (Monday-Friday) or 'weekend' (Saturday, Sunday)
-- @column local_time | TIME |  | Europe/London wall-clock start of the half-hour, 00:00 … 23:30
-- @column kwh | DOUBLE | kWh | mean of the readings starting at that wall-clock time (null: no complete day of the type)
-- @column readings | BIGINT |  | how many readings the mean is over
-- @column days | BIGINT | days | complete local days of the type in the window
-- @column asked_day | DATE |  | the day asked about: the first local day starting at or after as_of
-- @column window_from | DATE |  | first local day of the 28-day window (it ends before asked_day)
-- @example SELECT * FROM expected_use('2000000000011', TIMESTAMPTZ '2023-10-28 17:00:00+01')
--
-- expected_use(meter, as_of): the kWh a meter is expected to use in each Europe/London wall-clock
-- half-hour of a day, by day type; the rule of docs/decisions/expected-use.md, the one place it lives.
-- meter: 'MPAN' (its serials summed) or 'MPAN:SERIAL'. as_of: the instant answered from; only
-- readings ending by it count. The day asked about is the first local day starting at or after as_of.
-- History: the complete local days (every one of their 46/48/50 half-hours read) among the 28 local
-- days before the day asked about, of the same day type. Fewer than 28 such days: those there are
-- (days says how many); none of a day type: kwh NULL for it (compare --ahead refuses, naming why).
-- Columns:
--   day_type     VARCHAR    'weekday' (Monday-Friday) or 'weekend' (Saturday, Sunday)
--   local_time   TIME       wall-clock start, 00:00 … 23:30 (48 rows per day type)
--   kwh          DOUBLE     mean kWh of every reading starting at that wall-clock time on those
--                           days (a fall-back day's repeated half-hours both count; a spring-forward
--                           day has no 01:00 and 01:30)
--   readings     BIGINT     how many readings the mean is over
--   days         BIGINT     complete days of the type in the window
--   asked_day    DATE       the day asked about
--   window_from  DATE       first local day of the 28 (window_to = asked_day, exclusive)
CREATE OR REPLACE MACRO expected_use(meter, as_of) AS TABLE
WITH asked AS (
    SELECT min(local_date) AS asked_day
    FROM london_days
    WHERE day_start >= CAST(as_of AS TIMESTAMPTZ)
),
read_half_hours AS (
    -- one reading per half-hour: the meter's serials summed (or the one serial named)
    SELECT c.interval_start, c.local_date, sum(c.kwh) AS kwh
    FROM consumption AS c, asked AS a
    WHERE c.meter_point = split_part(meter, ':', 1)
      AND (nullif(split_part(meter, ':', 2), '') IS NULL OR c.serial = split_part(meter, ':', 2))
      AND c.local_date >= a.asked_day - 28 AND c.local_date < a.asked_day
      AND c.interval_end <= CAST(as_of AS TIMESTAMPTZ)
    GROUP BY c.interval_start, c.local_date
),
complete_days AS (
    SELECT r.local_date,
           CASE WHEN isodow(r.local_date) >= 6 THEN 'weekend' ELSE 'weekday' END AS day_type
    FROM read_half_hours AS r
    JOIN london_days AS d ON d.local_date = r.local_date
    GROUP BY r.local_date, d.slots
    HAVING count(*) = d.slots
),
history AS (
    SELECT cd.day_type, CAST(london_wall(r.interval_start) AS TIME) AS local_time, r.kwh
    FROM read_half_hours AS r
    JOIN complete_days AS cd ON cd.local_date = r.local_date
),
grid AS (
    SELECT day_type, CAST(TIME '00:00' + INTERVAL (n * 30) MINUTE AS TIME) AS local_time
    FROM (VALUES ('weekday'), ('weekend')) AS t(day_type), range(48) AS s(n)
),
final AS (
    SELECT g.day_type, g.local_time,
           avg(h.kwh) AS kwh,
           count(h.kwh) AS readings,
           (SELECT count(*) FROM complete_days AS cd WHERE cd.day_type = g.day_type) AS days
    FROM grid AS g
    LEFT JOIN history AS h ON h.day_type = g.day_type AND h.local_time = g.local_time
    GROUP BY g.day_type, g.local_time
)
SELECT f.day_type, f.local_time, f.kwh, f.readings, f.days,
       a.asked_day, a.asked_day - 28 AS window_from
FROM final AS f, asked AS a
ORDER BY f.day_type, f.local_time;
