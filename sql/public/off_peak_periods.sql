-- @answers The off-peak periods of two- and three-rate tariffs (Go, Intelligent Go, Cosy-like, four-rate EV): each run at a fully priced local day's lowest price.
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column local_date | DATE |  | Europe/London local date
-- @column start | TIMESTAMPTZ | UTC | start
-- @column end | TIMESTAMPTZ | UTC | exclusive end
-- @column local_start | VARCHAR |  | start as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column local_end | VARCHAR |  | end as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column slots | BIGINT | half-hours | in the period
-- @column value_inc_vat | DOUBLE | p/kWh | price inc VAT
-- @column value_exc_vat | DOUBLE | p/kWh | price exc VAT
-- @column day_rates | BIGINT |  | distinct prices of the local day: 2 or 3
--
-- off_peak_periods: the off-peak periods of two- and three-rate tariffs (Go, Intelligent Go,
-- Cosy-like, four-rate EV): per series and Europe/London local day whose half-hours carry two or
-- three distinct prices inc VAT, each run of contiguous half-hours at that day's lowest price.
-- A run is cut at local midnight (Intelligent Go's 23:30-05:30 is 23:30-00:00 of one day and
-- 00:00-05:30 of the next); Agile days, with dozens of prices, never qualify.
-- Only fully priced local days count (every one of their 46, 48 or 50 half-hours, london_days):
-- a day's lowest price says nothing when part of the day is missing. The two half-hours of a
-- local day after the last UTC midnight of a series (00:00-01:00 BST) carry two prices of an
-- Agile-like day, and the half-hours of the open-ended rates' horizon end mid-day: neither is an
-- off-peak day (as the peers decide it: off-peak needs the whole day's rates).
-- days (distinct prices per series and fully priced day) → lowest (the day's half-hours at its
-- lowest price) → numbered (gaps and islands) → runs → final.
CREATE OR REPLACE VIEW off_peak_periods AS
WITH days AS (
    SELECT s.tariff_code, s.payment_method, s.rate_type, s.local_date,
           count(DISTINCT s.value_inc_vat) AS day_rates,
           min(s.value_inc_vat) AS low
    FROM rate_slots AS s
    JOIN london_days AS l ON l.local_date = s.local_date
    GROUP BY s.tariff_code, s.payment_method, s.rate_type, s.local_date, l.slots
    HAVING count(DISTINCT s.value_inc_vat) BETWEEN 2 AND 3
       AND count(*) = l.slots
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
