-- @answers Every half-hour's price of the last n_days Europe/London local days in a range, per series of the listed tariffs.
-- @arg tariffs | VARCHAR[] |  | tariff codes
-- @arg n_days | INTEGER | days | how many of each series' latest local days
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column series_label | VARCHAR |  | the series' name (series_label)
-- @column local_date | DATE |  | Europe/London local date
-- @column settlement_period | SMALLINT |  | 1..46/48/50: the half-hour's number in its local day
-- @column slot_start | TIMESTAMPTZ | UTC | the half-hour's start
-- @column value_inc_vat | DECIMAL(10,4) | p/kWh | price inc VAT, rounded as the exported files round it
-- @column negative | BOOLEAN |  | priced below zero (a row of negative_slots)
-- @example SELECT * FROM recent_day_prices(['E-1R-AGILE-18-02-21-J', 'E-1R-AGILE-OUTGOING-19-05-13-C'], 3, TIMESTAMPTZ '2023-06-01 00:00:00+01', TIMESTAMPTZ '2023-12-01 00:00:00Z')
--
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
