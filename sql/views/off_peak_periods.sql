-- off_peak_periods: the off-peak periods of two- and three-rate tariffs (Go, Intelligent Go,
-- Cosy-like, four-rate EV): per series and Europe/London local day whose half-hours carry two or
-- three distinct prices inc VAT, each run of contiguous half-hours at that day's lowest price.
-- A run is cut at local midnight (Intelligent Go's 23:30-05:30 is 23:30-00:00 of one day and
-- 00:00-05:30 of the next); Agile days, with dozens of prices, never qualify.
-- days (distinct prices per series and day) → lowest (the day's half-hours at its lowest price)
-- → numbered (gaps and islands) → runs → final.
CREATE OR REPLACE VIEW off_peak_periods AS
WITH days AS (
    SELECT tariff_code, payment_method, rate_type, local_date,
           count(DISTINCT value_inc_vat) AS day_rates,
           min(value_inc_vat) AS low
    FROM rate_slots
    GROUP BY tariff_code, payment_method, rate_type, local_date
    HAVING count(DISTINCT value_inc_vat) BETWEEN 2 AND 3
),
lowest AS (
    SELECT s.tariff_code, s.payment_method, s.rate_type, s.local_date, s.slot_start,
           s.value_inc_vat, s.value_exc_vat, d.day_rates
    FROM rate_slots AS s
    JOIN days AS d
      ON d.tariff_code = s.tariff_code AND d.local_date = s.local_date AND d.rate_type = s.rate_type
     AND d.payment_method IS NOT DISTINCT FROM s.payment_method
    WHERE s.value_inc_vat = d.low
),
numbered AS (
    SELECT *,
           epoch_us(slot_start) // 1800000000
           - row_number() OVER (PARTITION BY tariff_code, payment_method, rate_type, local_date ORDER BY slot_start) AS run_key
    FROM lowest
),
runs AS (
    SELECT tariff_code, payment_method, rate_type, local_date,
           min(slot_start) AS start,
           max(slot_start) + INTERVAL 30 MINUTE AS "end",
           count(*) AS slots,
           any_value(value_inc_vat) AS value_inc_vat,
           any_value(value_exc_vat) AS value_exc_vat,
           any_value(day_rates) AS day_rates
    FROM numbered
    GROUP BY tariff_code, payment_method, rate_type, local_date, run_key
)
SELECT
    -- series and local day
    tariff_code,
    payment_method,
    rate_type,
    local_date,
    -- the period: UTC instants, then Europe/London wall time with offset
    start,
    "end",
    london_iso(start) AS local_start,
    london_iso("end") AS local_end,
    slots,
    -- the off-peak price, p/kWh, and how many distinct prices the day has (2 or 3)
    value_inc_vat,
    value_exc_vat,
    day_rates
FROM runs;
