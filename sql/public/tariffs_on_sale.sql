-- @answers The stored tariffs a meter could switch to at as_of: its fuel, direction and region, on sale then, not for business, single-register.
-- @arg meter | VARCHAR |  | 'MPAN' or 'MPAN:SERIAL'
-- @arg as_of | TIMESTAMPTZ | UTC | the instant the answer is as of
-- @arg region := NULL | VARCHAR |  | region letter, A … P (NULL: that of the meter's latest agreement)
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column product_code | VARCHAR |  | the product, e.g. AGILE-18-02-21
-- @column display_name | VARCHAR |  | the product's display name
-- @column is_variable | BOOLEAN |  | the product's price may change (null: unknown)
-- @column region | VARCHAR |  | the region letter, A … P
-- @example SELECT * FROM tariffs_on_sale('2000000000011', TIMESTAMPTZ '2023-10-28 16:00:00Z')
--
-- tariffs_on_sale(meter, as_of, region := NULL): the stored tariffs a meter could switch to at the
-- instant as_of, from the products already stored (no request): its fuel and direction (import or
-- export), its region (the region letter of its agreements' tariff codes, the latest first; or the
-- region given), its product available then (available_from <= as_of < available_to, open ends
-- open) and not for business, single-register (what a half-hourly meter is priced on; Economy 7's
-- two registers are not read half-hourly). meter: 'MPAN' or 'MPAN:SERIAL'.
-- Columns:
--   tariff_code   VARCHAR
--   product_code  VARCHAR
--   display_name  VARCHAR   the product's
--   is_variable   BOOLEAN   the product's (NULL when unknown)
--   region        VARCHAR   the region letter (A … P)
CREATE OR REPLACE MACRO tariffs_on_sale(meter, as_of, region := NULL) AS TABLE
WITH meter_point AS (
    SELECT mp.meter_point, mp.fuel, CASE WHEN mp.is_export THEN 'EXPORT' ELSE 'IMPORT' END AS direction
    FROM meter_points AS mp
    WHERE mp.meter_point = split_part(meter, ':', 1)
),
meter_region AS (
    SELECT coalesce(CAST(region AS VARCHAR),
                    (SELECT arg_max(regexp_extract(a.tariff_code, '-([A-P])$', 1), a.valid_from)
                     FROM agreements AS a
                     WHERE a.meter_point = split_part(meter, ':', 1)
                       AND regexp_extract(a.tariff_code, '-([A-P])$', 1) <> '')) AS region
),
final AS (
    SELECT t.tariff_code, t.product_code, p.display_name, p.is_variable,
           regexp_extract(t.tariff_code, '-([A-P])$', 1) AS region
    FROM tariffs AS t
    JOIN products AS p ON p.code = t.product_code
    JOIN meter_point AS m ON m.fuel = t.fuel AND upper(p.direction) = m.direction
    CROSS JOIN meter_region AS r
    WHERE regexp_extract(t.tariff_code, '-([A-P])$', 1) = r.region
      AND t.register = 'single'
      AND (p.available_from IS NULL OR p.available_from <= CAST(as_of AS TIMESTAMPTZ))
      AND (p.available_to IS NULL OR p.available_to > CAST(as_of AS TIMESTAMPTZ))
      AND NOT coalesce(p.is_business, false)
)
SELECT * FROM final
ORDER BY tariff_code;
