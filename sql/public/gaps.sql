-- @answers Half-hours missing from half-hourly series, per series and Europe/London local day (zero rows: no gaps).
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column local_date | DATE |  | Europe/London local date
-- @column day_slots | INTEGER | half-hours | in the local day: 46, 48 or 50
-- @column expected_slots | INTEGER | half-hours | of the day inside the series' span
-- @column slots | INTEGER | half-hours | stored
-- @column missing_slots | INTEGER | half-hours | missing: expected_slots - slots
--
-- gaps: half-hours missing from half-hourly series (Agile-style rates valid for exactly 30
-- minutes), per series and Europe/London local day, between the series' first stored half-hour
-- and the end of its last one (so a series that starts or stops mid-day is not a gap there).
-- Longer rates (fixed, day/night) are left out: rate_slots expands them, they have no half-hours
-- of their own to miss. Zero rows = no gaps.
-- source → per_day, spans → expected (each day of the span, clipped to it) → final.
CREATE OR REPLACE VIEW gaps AS
WITH source AS (
    SELECT tariff_code, payment_method, rate_type, local_date, valid_from
    FROM unit_rates
    WHERE duration_us = 1800000000
),
per_day AS (
    SELECT tariff_code, payment_method, rate_type, local_date, count(*) AS slots
    FROM source
    GROUP BY tariff_code, payment_method, rate_type, local_date
),
spans AS (
    SELECT tariff_code, payment_method, rate_type,
           min(valid_from) AS first_start,
           max(valid_from) + INTERVAL 30 MINUTE AS last_end
    FROM source
    GROUP BY tariff_code, payment_method, rate_type
),
expected AS (
    SELECT s.tariff_code, s.payment_method, s.rate_type, d.local_date, d.slots AS day_slots,
           -- microseconds between two instants: TIMESTAMPTZ - TIMESTAMPTZ counts days in the
           -- session's time zone, so a 23- or 25-hour day came out as 24 hours outside UTC
           CAST((epoch_us(least(d.day_end, s.last_end)) - epoch_us(greatest(d.day_start, s.first_start))) // 1800000000 AS INTEGER) AS expected_slots
    FROM spans AS s
    JOIN london_days AS d ON d.day_end > s.first_start AND d.day_start < s.last_end
)
SELECT
    -- series and day
    e.tariff_code,
    e.payment_method,
    e.rate_type,
    e.local_date,
    -- half-hours: the day's (46/48/50), expected within the series' span, stored, missing
    e.day_slots,
    e.expected_slots,
    CAST(coalesce(p.slots, 0) AS INTEGER) AS slots,
    e.expected_slots - CAST(coalesce(p.slots, 0) AS INTEGER) AS missing_slots
FROM expected AS e
LEFT JOIN per_day AS p
       ON p.tariff_code = e.tariff_code
      AND p.payment_method IS NOT DISTINCT FROM e.payment_method
      AND p.rate_type = e.rate_type
      AND p.local_date = e.local_date
WHERE e.expected_slots > coalesce(p.slots, 0);
