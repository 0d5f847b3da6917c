-- @answers What a meter is expected to pay (exporting: be paid) over a horizon from as_of on each tariff it could be on, ranked.
-- @arg meter | VARCHAR |  | 'MPAN' (every serial summed) or 'MPAN:SERIAL'
-- @arg as_of | TIMESTAMPTZ | UTC | the instant the answer is as of: prices and readings known by then
-- @arg horizon | VARCHAR |  | 'tomorrow', '7d', '30d' or '12m', from the first local day starting at or after as_of
-- @arg tariffs := NULL | VARCHAR[] |  | tariff codes to price (NULL: tariffs_on_sale); the agreement in force is always priced
-- @arg region := NULL | VARCHAR |  | region letter for tariffs_on_sale (NULL: the agreements' region)
-- @arg payment := 'DIRECT_DEBIT' | VARCHAR |  | 'DIRECT_DEBIT' or 'NON_DIRECT_DEBIT' rates
-- @column meter_point | VARCHAR |  | MPAN or MPRN
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column is_current | BOOLEAN |  | the agreement in force at as_of
-- @column horizon | VARCHAR |  | as asked
-- @column horizon_from | DATE |  | first Europe/London local day of the horizon
-- @column horizon_to | DATE |  | Europe/London local day after the horizon (exclusive)
-- @column half_hours | BIGINT | half-hours | in the horizon (46/48/50 a day)
-- @column expected_kwh | DOUBLE | kWh | the expected use summed over the horizon
-- @column energy_inc_vat | DOUBLE | p | Σ expected kWh × price inc VAT, unrounded
-- @column standing_charge_inc_vat | DOUBLE | p | standing charges inc VAT, one a local day (null: none stored)
-- @column total_inc_vat | DOUBLE | p | energy plus standing charges inc VAT, unrounded (null: a half-hour lacks a price or an expected kWh)
-- @column published_share | DOUBLE |  | 0-1: the share of the cost from published prices, the rest estimated
-- @column rank | BIGINT |  | 1 = cheapest (an export meter: pays most); null when total_inc_vat is
-- @column missing_half_hours | BIGINT | half-hours | without a price or an expected kWh
-- @column standing_charge_days_missing | BIGINT | days | with no standing charge stored at all
-- @column weekdays | BIGINT | days | complete weekdays of history the expected use rests on
-- @column weekend_days | BIGINT | days | complete weekend days of history the expected use rests on
-- @example SELECT * FROM compare_ahead('2000000000011', TIMESTAMPTZ '2023-10-28 17:00:00+01', 'tomorrow')
--
-- compare_ahead(meter, as_of, horizon, tariffs := NULL, region := NULL, payment := 'DIRECT_DEBIT'):
-- what a meter is expected to pay (or, exporting, be paid) from here, on each tariff it could be on:
-- the local days of the horizon ('tomorrow': the first local day starting at or after as_of; '7d',
-- '30d': that many days from it; '12m': twelve calendar months from it), each half-hour's expected
-- kWh (expected_use, docs/decisions/expected-use.md) at its price. tariffs: the codes to price, or
-- NULL for tariffs_on_sale(meter, as_of, region); the agreement in force at as_of is always priced
-- (is_current). 12m: past the first 30 days, each day's expected use is scaled by its calendar
-- month's (seasonal_scale: where a year of history exists, else flat). Prices as of as_of: a half-hourly price once published (16:00 Europe/London the day
-- before its day), other unit rates and standing charges once stored. A half-hour without one: the
-- tariff's mean price at that wall-clock time over its last 28 local days of prices; a day without
-- a standing charge in force: the last one stored. An open-ended rate of a variable product (or of
-- a product not stored) is its current rate, an estimate; of a fixed product, published.
-- payment: DIRECT_DEBIT or NON_DIRECT_DEBIT rates (or those without a payment method).
-- Columns (pence inc VAT, unrounded):
--   meter_point, tariff_code  VARCHAR
--   is_current                BOOLEAN  the agreement in force at as_of
--   horizon                   VARCHAR  as asked
--   horizon_from, horizon_to  DATE     local days [from, to)
--   half_hours                BIGINT   in the horizon (46/48/50 a day)
--   expected_kwh              DOUBLE   the profile summed over the horizon
--   energy_inc_vat            DOUBLE   expected kWh × price, summed
--   standing_charge_inc_vat   DOUBLE   one a local day (NULL: none stored)
--   total_inc_vat             DOUBLE   energy + standing charges; NULL while a half-hour lacks a
--                                      price or an expected kWh (missing_half_hours)
--   published_share           DOUBLE   0-1: the share of the cost (in absolute pence) from
--                                      published prices, the rest from the estimates above
--   rank                      BIGINT   1 = cheapest; for an export meter 1 = pays most
--   missing_half_hours        BIGINT   half-hours with no price or no expected kWh
--   standing_charge_days_missing BIGINT days with no standing charge stored at all
--   weekdays, weekend_days    BIGINT   complete days of history the profile rests on
CREATE OR REPLACE MACRO compare_ahead(meter, as_of, horizon, tariffs := NULL, region := NULL,
                                      payment := 'DIRECT_DEBIT') AS TABLE
WITH asked AS (
    SELECT min(local_date) AS first_day
    FROM london_days
    WHERE day_start >= CAST(as_of AS TIMESTAMPTZ)
),
bounds AS (
    SELECT first_day,
           CASE horizon WHEN 'tomorrow' THEN first_day + 1
                        WHEN '7d' THEN first_day + 7
                        WHEN '30d' THEN first_day + 30
                        WHEN '12m' THEN CAST(first_day + INTERVAL 12 MONTH AS DATE)
                        ELSE CAST(error('compare_ahead: horizon is tomorrow, 7d, 30d or 12m, not ' || horizon) AS DATE) END AS last_day
    FROM asked
),
meter_point AS (
    SELECT split_part(meter, ':', 1) AS meter_point,
           coalesce((SELECT any_value(is_export) FROM meter_points WHERE meter_point = split_part(meter, ':', 1)), false) AS is_export
),
-- the days priced (in_horizon) and the 28 before them, for the price estimate
grid_days AS (
    SELECT d.local_date, d.day_start, d.day_end, d.local_date >= b.first_day AS in_horizon
    FROM london_days AS d, bounds AS b
    WHERE d.local_date >= b.first_day - 28 AND d.local_date < b.last_day
),
slots AS (
    SELECT local_date, in_horizon, slot_start,
           CAST(london_wall(slot_start) AS TIME) AS local_time,
           CASE WHEN isodow(local_date) >= 6 THEN 'weekend' ELSE 'weekday' END AS day_type
    FROM (SELECT local_date, in_horizon,
                 to_timestamp(unnest(range(CAST(epoch(day_start) AS BIGINT), CAST(epoch(day_end) AS BIGINT), 1800))) AS slot_start
          FROM grid_days)
),
current_agreement AS (
    SELECT arg_max(a.tariff_code, a.valid_from) AS tariff_code
    FROM agreements AS a
    WHERE a.meter_point = split_part(meter, ':', 1)
      AND a.valid_from <= CAST(as_of AS TIMESTAMPTZ)
      AND (a.valid_to IS NULL OR a.valid_to > CAST(as_of AS TIMESTAMPTZ))
),
scenarios AS (
    SELECT s.tariff_code, coalesce(p.is_variable, true) AS is_variable,
           s.tariff_code = (SELECT tariff_code FROM current_agreement) AS is_current
    FROM (SELECT DISTINCT tariff_code FROM (
              SELECT unnest(CAST(tariffs AS VARCHAR[])) AS tariff_code
              UNION ALL
              SELECT tariff_code FROM tariffs_on_sale(meter, as_of, region := region) WHERE tariffs IS NULL
              UNION ALL
              SELECT tariff_code FROM current_agreement WHERE tariff_code IS NOT NULL)) AS s
    LEFT JOIN tariffs AS t ON t.tariff_code = s.tariff_code
    LEFT JOIN products AS p ON p.code = t.product_code
),
-- unit rates known as of as_of
rates AS (
    SELECT u.tariff_code, u.valid_from, coalesce(u.valid_to, TIMESTAMPTZ 'infinity') AS valid_to,
           u.valid_to IS NULL AS open_ended, coalesce(u.duration_us = 1800000000, false) AS half_hourly,
           u.value_inc_vat
    FROM unit_rates AS u
    WHERE u.tariff_code IN (SELECT tariff_code FROM scenarios)
      AND u.rate_type = 'standard'
      AND (u.payment_method IS NULL OR u.payment_method = payment)
      AND u.valid_from < (SELECT max(day_end) FROM grid_days)
      AND (u.valid_to IS NULL OR u.valid_to > (SELECT min(day_start) FROM grid_days))
      AND (u.duration_us IS DISTINCT FROM 1800000000
           OR timezone('Europe/London', CAST(u.local_date - 1 AS TIMESTAMP) + INTERVAL 16 HOUR) <= CAST(as_of AS TIMESTAMPTZ))
),
covering AS (
    SELECT r.tariff_code, s.slot_start, r.valid_from, r.value_inc_vat, r.open_ended
    FROM rates AS r JOIN slots AS s ON s.slot_start = r.valid_from
    WHERE r.half_hourly
    UNION ALL
    SELECT r.tariff_code, s.slot_start, r.valid_from, r.value_inc_vat, r.open_ended
    FROM rates AS r JOIN slots AS s ON s.slot_start >= r.valid_from AND s.slot_start < r.valid_to
    WHERE NOT r.half_hourly
),
covered AS (
    SELECT c.tariff_code, c.slot_start, s.local_date, s.local_time,
           arg_max(c.value_inc_vat, c.valid_from) AS value_inc_vat,
           arg_max(c.open_ended, c.valid_from) AS open_ended
    FROM covering AS c JOIN slots AS s ON s.slot_start = c.slot_start
    GROUP BY c.tariff_code, c.slot_start, s.local_date, s.local_time
),
-- the estimate: each tariff's mean price per wall-clock half-hour over its last 28 local days of prices
typical AS (
    SELECT c.tariff_code, c.local_time, avg(c.value_inc_vat) AS value_inc_vat
    FROM covered AS c
    JOIN (SELECT tariff_code, max(local_date) AS last_priced FROM covered GROUP BY tariff_code) AS l
      ON l.tariff_code = c.tariff_code
    WHERE c.local_date > l.last_priced - 28
    GROUP BY c.tariff_code, c.local_time
),
profile AS (
    SELECT * FROM expected_use(meter, as_of)
),
-- 12m: past its first 30 days, the profile scaled by the meter's seasonal shape (flat without a year)
seasons AS (
    SELECT month, scale FROM seasonal_scale(meter, as_of) WHERE horizon = '12m'
),
priced AS (
    SELECT sc.tariff_code, s.slot_start,
           e.kwh * CASE WHEN s.local_date >= (SELECT first_day FROM bounds) + 30 THEN coalesce(ss.scale, 1) ELSE 1 END AS kwh,
           coalesce(c.value_inc_vat, ty.value_inc_vat) AS price,
           c.value_inc_vat IS NOT NULL AND NOT (c.open_ended AND sc.is_variable) AS published
    FROM scenarios AS sc
    CROSS JOIN slots AS s
    LEFT JOIN covered AS c ON c.tariff_code = sc.tariff_code AND c.slot_start = s.slot_start
    LEFT JOIN typical AS ty ON ty.tariff_code = sc.tariff_code AND ty.local_time = s.local_time
    LEFT JOIN profile AS e ON e.day_type = s.day_type AND e.local_time = s.local_time
    LEFT JOIN seasons AS ss ON ss.month = month(s.local_date)
    WHERE s.in_horizon
),
energy AS (
    SELECT tariff_code,
           count(*) AS half_hours,
           sum(kwh) AS expected_kwh,
           sum(kwh * price) AS energy_inc_vat,
           sum(abs(kwh * price)) FILTER (WHERE published) AS published_abs,
           sum(abs(kwh * price)) AS all_abs,
           count(*) FILTER (WHERE kwh IS NULL OR price IS NULL) AS missing_half_hours
    FROM priced
    GROUP BY tariff_code
),
standing_days AS (
    SELECT sc.tariff_code, d.local_date,
           arg_max(c.value_inc_vat, c.valid_from) AS value_inc_vat,
           arg_max(coalesce(c.valid_to, TIMESTAMPTZ 'infinity'), c.valid_from) > d.day_start
               AND NOT (arg_max(c.valid_to IS NULL, c.valid_from) AND any_value(sc.is_variable)) AS published
    FROM scenarios AS sc
    CROSS JOIN (SELECT * FROM grid_days WHERE in_horizon) AS d
    LEFT JOIN standing_charges AS c
      ON c.tariff_code = sc.tariff_code AND c.valid_from <= d.day_start
     AND (c.payment_method IS NULL OR c.payment_method = payment)
    GROUP BY sc.tariff_code, d.local_date, d.day_start
),
standing AS (
    SELECT tariff_code,
           sum(value_inc_vat) AS standing_charge_inc_vat,
           sum(abs(value_inc_vat)) FILTER (WHERE published) AS published_abs,
           sum(abs(value_inc_vat)) AS all_abs,
           count(*) FILTER (WHERE value_inc_vat IS NULL) AS standing_charge_days_missing
    FROM standing_days
    GROUP BY tariff_code
),
totals AS (
    SELECT sc.tariff_code, sc.is_current, e.half_hours, e.expected_kwh, e.energy_inc_vat,
           st.standing_charge_inc_vat,
           CASE WHEN e.missing_half_hours = 0 THEN e.energy_inc_vat + coalesce(st.standing_charge_inc_vat, 0) END AS total_inc_vat,
           CASE WHEN e.missing_half_hours = 0 AND coalesce(e.all_abs, 0) + coalesce(st.all_abs, 0) > 0
                THEN (coalesce(e.published_abs, 0) + coalesce(st.published_abs, 0)) / (coalesce(e.all_abs, 0) + coalesce(st.all_abs, 0)) END AS published_share,
           e.missing_half_hours, st.standing_charge_days_missing
    FROM scenarios AS sc
    JOIN energy AS e ON e.tariff_code = sc.tariff_code
    JOIN standing AS st ON st.tariff_code = sc.tariff_code
),
final AS (
    SELECT m.meter_point, t.tariff_code, t.is_current, CAST(horizon AS VARCHAR) AS horizon,
           b.first_day AS horizon_from, b.last_day AS horizon_to, t.half_hours,
           t.expected_kwh, t.energy_inc_vat, t.standing_charge_inc_vat, t.total_inc_vat, t.published_share,
           CASE WHEN t.total_inc_vat IS NOT NULL
                THEN rank() OVER (PARTITION BY t.total_inc_vat IS NULL
                                  ORDER BY CASE WHEN m.is_export THEN -t.total_inc_vat ELSE t.total_inc_vat END) END AS rank,
           t.missing_half_hours, t.standing_charge_days_missing,
           (SELECT any_value(days) FROM profile WHERE day_type = 'weekday') AS weekdays,
           (SELECT any_value(days) FROM profile WHERE day_type = 'weekend') AS weekend_days
    FROM totals AS t, meter_point AS m, bounds AS b
)
SELECT * FROM final
ORDER BY rank NULLS LAST, tariff_code;
