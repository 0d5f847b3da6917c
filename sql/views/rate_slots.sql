-- rate_slots: one row per half-hour per tariff (and rate type and payment method), in UTC with its
-- Europe/London day, wall time, offset and settlement period (1..46/48/50).
-- Half-hourly rates are a projection of unit_rates; longer rates (fixed, day/night; kept also in
-- the small long_unit_rates, so unit_rates is scanned once) are expanded to their half-hours,
-- open-ended ones up to three days past today (the bounded horizon). Durations are compared as
-- epoch microseconds: adding an INTERVAL to every row costs as much as the scan itself.
CREATE OR REPLACE VIEW rate_slots AS
WITH half_hourly AS (
    SELECT tariff_code, rate_type, payment_method,
           valid_from AS slot_start,
           local_date, local_start, utc_offset_minutes, settlement_period,
           value_exc_vat, value_inc_vat
    FROM unit_rates
    WHERE epoch_us(valid_to) - epoch_us(valid_from) = 1800000000
),
long_rates AS (
    SELECT tariff_code, rate_type, payment_method, value_exc_vat, value_inc_vat,
           unnest(generate_series(
               valid_from,
               coalesce(valid_to, greatest(valid_from + INTERVAL 30 MINUTE,
                                           date_trunc('day', now()) + INTERVAL 3 DAY)) - INTERVAL 30 MINUTE,
               INTERVAL 30 MINUTE)) AS slot_start
    FROM long_unit_rates
),
long_local AS (
    SELECT *, timezone('Europe/London', slot_start) AS local_start
    FROM long_rates
),
expanded AS (
    SELECT l.tariff_code, l.rate_type, l.payment_method, l.slot_start,
           d.local_date, l.local_start,
           CAST(epoch(l.local_start - timezone('UTC', l.slot_start)) / 60 AS SMALLINT) AS utc_offset_minutes,
           CAST(epoch(l.slot_start - d.day_start) / 1800 + 1 AS SMALLINT) AS settlement_period,
           l.value_exc_vat, l.value_inc_vat
    FROM long_local AS l
    JOIN london_days AS d ON d.local_date = CAST(l.local_start AS DATE)
),
final AS (
    SELECT * FROM half_hourly
    UNION ALL
    SELECT * FROM expanded
)
SELECT
    -- identity
    tariff_code,
    -- time (UTC)
    slot_start,
    slot_start + INTERVAL 30 MINUTE AS slot_end,
    -- time (Europe/London)
    local_date,
    local_start,
    utc_offset_minutes,
    settlement_period,
    -- price
    value_exc_vat,
    value_inc_vat,
    payment_method,
    rate_type
FROM final;
