-- seasonal_scale(meter, as_of): how a meter's use in each calendar month compares with its use in
-- the 28 local days expected_use rests on, for compare_ahead's 12m horizon past its first 30 days.
-- Where a year of history exists (the 12 months before the first day asked about, each calendar
-- month with at least 7 complete local days read by as_of): per month, the mean kWh a complete day
-- of that month against the mean kWh a complete day of the 28-day window. Otherwise no rows (flat).
-- Columns: month INTEGER (1-12), days BIGINT (complete days of that month), scale DOUBLE.
CREATE OR REPLACE MACRO seasonal_scale(meter, as_of) AS TABLE
WITH asked AS (
    SELECT min(local_date) AS first_day
    FROM london_days
    WHERE day_start >= CAST(as_of AS TIMESTAMPTZ)
),
read_half_hours AS (
    SELECT c.local_date, c.interval_start, sum(c.kwh) AS kwh
    FROM consumption AS c, asked AS a
    WHERE c.meter_point = split_part(meter, ':', 1)
      AND (nullif(split_part(meter, ':', 2), '') IS NULL OR c.serial = split_part(meter, ':', 2))
      AND c.local_date >= CAST(a.first_day - INTERVAL 12 MONTH AS DATE) AND c.local_date < a.first_day
      AND c.interval_end <= CAST(as_of AS TIMESTAMPTZ)
    GROUP BY c.local_date, c.interval_start
),
complete_days AS (
    SELECT r.local_date, sum(r.kwh) AS kwh
    FROM read_half_hours AS r
    JOIN london_days AS d ON d.local_date = r.local_date
    GROUP BY r.local_date, d.slots
    HAVING count(*) = d.slots
),
months AS (
    SELECT CAST(month(local_date) AS INTEGER) AS month, count(*) AS days, avg(kwh) AS kwh
    FROM complete_days
    GROUP BY month(local_date)
),
recent AS (
    SELECT avg(cd.kwh) AS kwh
    FROM complete_days AS cd, asked AS a
    WHERE cd.local_date >= a.first_day - 28
)
SELECT m.month, m.days, m.kwh / r.kwh AS scale
FROM months AS m, recent AS r
WHERE (SELECT count(*) FROM months WHERE days >= 7) = 12 AND r.kwh > 0
ORDER BY m.month;
