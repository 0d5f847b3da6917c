-- @answers What each Europe/London local day looked like per series: half-hours stored against expected, the spread of prices, negative half-hours, the 16:00-19:00 peak.
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column local_date | DATE |  | Europe/London local date
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
-- daily_stats: what each Europe/London local day looked like, per series: how many half-hours
-- are stored against how many the day has (46, 48 or 50), the spread of prices inc VAT, negative
-- half-hours, and the 16:00-19:00 local peak against the rest of the day.
-- source → daily → final (joined to london_days for the day's length).
CREATE OR REPLACE VIEW daily_stats AS
WITH source AS (
    SELECT tariff_code, payment_method, rate_type, local_date, value_inc_vat, value_exc_vat,
           -- the peak is wall-clock 16:00-19:00, whatever the offset
           hour(local_start) BETWEEN 16 AND 18 AS is_peak
    FROM rate_slots
),
daily AS (
    SELECT tariff_code, payment_method, rate_type, local_date,
           count(*) AS slots,
           min(value_inc_vat) AS min_inc_vat,
           max(value_inc_vat) AS max_inc_vat,
           avg(value_inc_vat) AS mean_inc_vat,
           -- continuous quantiles: the median of an even count is the mean of the middle two
           quantile_cont(value_inc_vat, [0.5, 0.1, 0.9]) AS quantiles,
           count(*) FILTER (WHERE value_inc_vat < 0) AS negative_slots,
           avg(value_inc_vat) FILTER (WHERE is_peak) AS peak_mean_inc_vat,
           avg(value_inc_vat) FILTER (WHERE NOT is_peak) AS off_peak_mean_inc_vat,
           avg(value_exc_vat) AS mean_exc_vat
    FROM source
    GROUP BY tariff_code, payment_method, rate_type, local_date
)
SELECT
    -- series and day
    d.tariff_code,
    d.payment_method,
    d.rate_type,
    d.local_date,
    -- coverage
    CAST(d.slots AS INTEGER) AS slots,
    l.slots AS expected_slots,
    -- prices inc VAT, p/kWh
    d.min_inc_vat,
    d.max_inc_vat,
    d.mean_inc_vat,
    d.quantiles[1] AS median_inc_vat,
    d.quantiles[2] AS p10_inc_vat,
    d.quantiles[3] AS p90_inc_vat,
    CAST(d.negative_slots AS INTEGER) AS negative_slots,
    d.peak_mean_inc_vat,
    d.off_peak_mean_inc_vat,
    -- prices exc VAT, p/kWh
    d.mean_exc_vat
FROM daily AS d
LEFT JOIN london_days AS l ON l.local_date = d.local_date;
