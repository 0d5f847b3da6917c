-- @answers meter_freshness as of any instant.
-- @arg as_of | TIMESTAMPTZ | UTC | the instant the answer is as of
-- @column meter_point | VARCHAR |  | MPAN or MPRN
-- @column serial | VARCHAR |  | the meter's serial number
-- @column fuel | VARCHAR |  | electricity or gas
-- @column is_export | BOOLEAN |  | an export meter
-- @column account_number | VARCHAR |  | the account (null: the meter is known only from an imported file)
-- @column latest_reading | TIMESTAMPTZ | UTC | the end of the newest half-hour read
-- @column latest_local_date | DATE |  | the Europe/London day of the newest reading
-- @column age_days | INTEGER | days | Europe/London days from the newest reading's day to as_of's (1: yesterday is in)
-- @column holes_7d | INTEGER | half-hours | without a reading in the 7 Europe/London days before as_of's
-- @example SELECT * FROM meter_freshness_at(TIMESTAMPTZ '2024-03-01 12:00:00Z')
--
-- meter_freshness_at(as_of): per meter with readings (meter point and serial), as of the instant
-- `as_of`: its newest reading (latest_reading: the end of its last half-hour), that reading's
-- Europe/London day, age_days (as_of's London day minus that day: 1 when yesterday's last half-hour
-- is in, as the supplier usually delivers by the morning) and holes_7d (half-hours without a
-- reading in the 7 London days before as_of's). With the meter point's fuel, direction and account
-- (null for a meter known only from an imported file). `tariffs status --check` names an account
-- meter whose age_days is above --max-meter-age. The view meter_freshness is this as of now().
-- Session-TimeZone-free: London days come from london_local, their bounds from timezone().
-- source → meters, days → holes → final.
CREATE OR REPLACE MACRO meter_freshness_at(as_of) AS TABLE
WITH source AS (
    SELECT london_local(CAST(as_of AS TIMESTAMPTZ)).local_date AS today
),
meters AS (
    SELECT meter_point, serial, max(interval_end) AS latest_reading, max(interval_start) AS latest_start
    FROM consumption
    GROUP BY meter_point, serial
),
days AS (
    SELECT today,
           timezone('Europe/London', CAST(CAST(today - INTERVAL 7 DAY AS DATE) AS TIMESTAMP)) AS w_from,
           timezone('Europe/London', CAST(today AS TIMESTAMP)) AS w_to
    FROM source
),
holes AS (
    SELECT c.meter_point, c.serial, count(DISTINCT c.interval_start) AS readings
    FROM consumption AS c, days AS w
    WHERE c.interval_start >= w.w_from AND c.interval_start < w.w_to
    GROUP BY c.meter_point, c.serial
)
SELECT
    m.meter_point,
    m.serial,
    p.fuel,
    p.is_export,
    p.account_number,
    m.latest_reading,
    london_local(m.latest_start).local_date AS latest_local_date,
    CAST(w.today - london_local(m.latest_start).local_date AS INTEGER) AS age_days,
    CAST((epoch_us(w.w_to) - epoch_us(w.w_from)) // 1800000000 - coalesce(h.readings, 0) AS INTEGER) AS holes_7d
FROM meters AS m
CROSS JOIN days AS w
LEFT JOIN meter_points AS p ON p.meter_point = m.meter_point
LEFT JOIN holes AS h ON h.meter_point = m.meter_point AND h.serial = m.serial
ORDER BY m.meter_point, m.serial;
