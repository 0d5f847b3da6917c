-- @answers Every stored price series (a tariff's unit rates of one payment method and rate type), named, with its direction, fuel, product and region.
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column series_label | VARCHAR |  | the series' name (series_label)
-- @column direction | VARCHAR |  | IMPORT or EXPORT (tariff_direction)
-- @column fuel | VARCHAR |  | electricity or gas (null: the tariff is not in tariffs)
-- @column product_code | VARCHAR |  | the product, e.g. AGILE-18-02-21
-- @column product_name | VARCHAR |  | the product's display name (null: the product is not stored)
-- @column region | VARCHAR |  | the region letter, e.g. J (null: the tariff has none)
--
-- price_series: every price series stored (a tariff's unit rates of one payment method and rate
-- type), named: its series_label, its direction, fuel, product and region, as the HTML page heads
-- and orders its price sections. Ordered by tariff_code, payment_method (NULLS FIRST), rate_type.
-- Columns: tariff_code, payment_method (VARCHAR; NULL: one price for both), rate_type ('standard',
-- 'day' or 'night'); series_label (VARCHAR, see series_label); direction ('IMPORT' or 'EXPORT',
-- tariff_direction); fuel ('electricity' or 'gas'; NULL: the tariff is not in `tariffs`);
-- product_code, product_name (the product's display name; NULL when the product is not stored),
-- region (VARCHAR: the region letter, e.g. 'J'; NULL when the tariff has none).
CREATE OR REPLACE VIEW price_series AS
WITH series AS (
    -- as rate_slots names them: a four-rate EV tariff's day and night rates are one series
    -- (rate_type 'standard', see rate_slots_for)
    SELECT DISTINCT u.tariff_code, u.payment_method,
           CASE WHEN t.night_start_minutes IS NOT NULL AND u.rate_type IN ('day', 'night') AND u.duration_us IS DISTINCT FROM 1800000000
                THEN 'standard' ELSE u.rate_type END AS rate_type
    FROM unit_rates AS u
    LEFT JOIN tariffs AS t ON t.tariff_code = u.tariff_code
)
SELECT
    -- the series
    s.tariff_code,
    s.payment_method,
    s.rate_type,
    series_label(s.tariff_code, s.payment_method, s.rate_type) AS series_label,
    -- what it is
    tariff_direction(s.tariff_code) AS direction,
    t.fuel,
    t.product_code,
    p.display_name AS product_name,
    t.region
FROM series AS s
LEFT JOIN tariffs AS t USING (tariff_code)
LEFT JOIN products AS p ON p.code = t.product_code
ORDER BY s.tariff_code, s.payment_method NULLS FIRST, s.rate_type;
