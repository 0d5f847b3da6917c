-- @answers Each Europe/London calendar month per series: days and half-hours stored, the spread of prices, negative half-hours, the peak.
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column month | DATE |  | first day of the Europe/London calendar month
-- @column days | INTEGER | days | Europe/London local days counted
-- @column slots | INTEGER | half-hours | stored
-- @column expected_slots | INTEGER | half-hours | the period should have
-- @column min_inc_vat | DOUBLE | p/kWh | lowest price inc VAT
-- @column max_inc_vat | DOUBLE | p/kWh | highest price inc VAT
-- @column mean_inc_vat | DOUBLE | p/kWh | mean price inc VAT
-- @column median_inc_vat | DOUBLE | p/kWh | median price inc VAT
-- @column p10_inc_vat | DOUBLE | p/kWh | 10th percentile price inc VAT
-- @column p90_inc_vat | DOUBLE | p/kWh | 90th percentile price inc VAT
-- @column negative_slots | INTEGER | half-hours | priced below zero inc VAT
-- @column peak_mean_inc_vat | DOUBLE | p/kWh | mean over 16:00-19:00 local wall time (null: no half-hour there)
-- @column off_peak_mean_inc_vat | DOUBLE | p/kWh | mean outside 16:00-19:00 local wall time
-- @column mean_exc_vat | DOUBLE | p/kWh | mean price exc VAT
--
-- monthly_stats: each Europe/London calendar month per series: days and half-hours stored against
-- the month's half-hours, the spread of prices inc VAT, negative half-hours, and the 16:00-19:00
-- local peak against the rest.
-- source → monthly → final (joined to the month's length from london_days).
CREATE OR REPLACE VIEW monthly_stats AS
WITH source AS (
    SELECT tariff_code, payment_method, rate_type, local_date,
           CAST(date_trunc('month', local_date) AS DATE) AS month_start,
           value_inc_vat, value_exc_vat,
           hour(local_start) BETWEEN 16 AND 18 AS is_peak
    FROM rate_slots
),
monthly AS (
    SELECT tariff_code, payment_method, rate_type, month_start,
           count(DISTINCT local_date) AS days,
           count(*) AS slots,
           min(value_inc_vat) AS min_inc_vat,
           max(value_inc_vat) AS max_inc_vat,
           avg(value_inc_vat) AS mean_inc_vat,
           quantile_cont(value_inc_vat, [0.5, 0.1, 0.9]) AS quantiles,
           count(*) FILTER (WHERE value_inc_vat < 0) AS negative_slots,
           avg(value_inc_vat) FILTER (WHERE is_peak) AS peak_mean_inc_vat,
           avg(value_inc_vat) FILTER (WHERE NOT is_peak) AS off_peak_mean_inc_vat,
           avg(value_exc_vat) AS mean_exc_vat
    FROM source
    GROUP BY tariff_code, payment_method, rate_type, month_start
),
month_lengths AS (
    SELECT CAST(date_trunc('month', local_date) AS DATE) AS month_start, sum(slots) AS slots
    FROM london_days
    GROUP BY ALL
)
SELECT
    -- series and month (its first day, Europe/London calendar)
    m.tariff_code,
    m.payment_method,
    m.rate_type,
    m.month_start AS month,
    -- coverage
    CAST(m.days AS INTEGER) AS days,
    CAST(m.slots AS INTEGER) AS slots,
    CAST(l.slots AS INTEGER) AS expected_slots,
    -- prices inc VAT, p/kWh
    m.min_inc_vat,
    m.max_inc_vat,
    m.mean_inc_vat,
    m.quantiles[1] AS median_inc_vat,
    m.quantiles[2] AS p10_inc_vat,
    m.quantiles[3] AS p90_inc_vat,
    CAST(m.negative_slots AS INTEGER) AS negative_slots,
    m.peak_mean_inc_vat,
    m.off_peak_mean_inc_vat,
    -- prices exc VAT, p/kWh
    m.mean_exc_vat
FROM monthly AS m
LEFT JOIN month_lengths AS l ON l.month_start = m.month_start;
