-- recent_day_prices(tariffs, n_days, range_from, range_to): every half-hour of the last n_days
-- Europe/London local days of each series of the listed tariffs (VARCHAR[]), the days whose
-- midnight lies in [range_from, range_to) (TIMESTAMPTZ; NULL: open), each half-hour inside the range: what the
-- HTML page's day charts draw. Ordered by series_label, local_date, settlement_period.
-- Columns: tariff_code, payment_method, rate_type, series_label (VARCHAR, see price_series);
-- local_date (DATE); settlement_period (SMALLINT: 1 at midnight, up to 46, 48 or 50);
-- slot_start (TIMESTAMPTZ); value_inc_vat (DECIMAL(10,4), pence per kWh inc VAT, rounded as the
-- exported files round them); negative (BOOLEAN: priced below zero, a row of negative_slots).
CREATE OR REPLACE MACRO recent_day_prices(tariffs, n_days, range_from, range_to) AS TABLE
WITH slots AS (
    SELECT tariff_code, payment_method, rate_type, local_date, settlement_period, slot_start, value_inc_vat
    FROM rate_slots_for(CAST(tariffs AS VARCHAR[]), CAST(range_from AS TIMESTAMPTZ), CAST(range_to AS TIMESTAMPTZ))
),
days AS (
    -- each series' latest local days whose midnight lies in the range
    SELECT tariff_code, payment_method, rate_type, local_date
    FROM (SELECT DISTINCT s.tariff_code, s.payment_method, s.rate_type, s.local_date
          FROM slots AS s
          JOIN london_days AS d ON d.local_date = s.local_date
          WHERE (range_from IS NULL OR d.day_start >= CAST(range_from AS TIMESTAMPTZ))
            AND (range_to IS NULL OR d.day_start < CAST(range_to AS TIMESTAMPTZ)))
    QUALIFY row_number() OVER (PARTITION BY tariff_code, payment_method, rate_type ORDER BY local_date DESC) <= n_days
)
SELECT
    -- the series and the half-hour
    s.tariff_code,
    s.payment_method,
    s.rate_type,
    series_label(s.tariff_code, s.payment_method, s.rate_type) AS series_label,
    s.local_date,
    s.settlement_period,
    s.slot_start,
    -- its price, p/kWh inc VAT
    CAST(round_price(s.value_inc_vat) AS DECIMAL(10, 4)) AS value_inc_vat,
    s.value_inc_vat < 0 AS negative
FROM slots AS s
JOIN days AS d
  ON d.tariff_code = s.tariff_code AND d.payment_method IS NOT DISTINCT FROM s.payment_method
 AND d.rate_type = s.rate_type AND d.local_date = s.local_date
ORDER BY series_label, s.local_date, s.settlement_period;
