-- @answers The rows of an export's monthly_costs file: per meter, scenario and Europe/London month, from costs the export computed once.
-- @arg meter_scope | STRUCT(meter_point VARCHAR, is_export BOOLEAN, tariffs VARCHAR[])[] |  | the meters priced: list(cost_meters row)
-- @arg monthly_rows | STRUCT(meter_point VARCHAR, scenario VARCHAR, tariff_code VARCHAR, month DATE, days INTEGER,
--   half_hours INTEGER, kwh DOUBLE, energy_cost_inc_vat DOUBLE, standing_charge_inc_vat DOUBLE, total_inc_vat DOUBLE,
--   total_gbp DECIMAL(18,2), missing_prices INTEGER, missing_readings INTEGER, missing_half_hours INTEGER,
--   standing_charge_missing_days INTEGER, complete BOOLEAN)[] |  | their monthly costs: list(scope_monthly_costs row), of which these fields are read
-- @column meter_point | VARCHAR |  | MPAN or MPRN (keep it text)
-- @column is_export | BOOLEAN |  | an export meter
-- @column scenario | VARCHAR |  | 'actual' (the agreements) or a tariff code
-- @column tariff_code | VARCHAR |  | the tariffs used, ' + ' between several
-- @column month | VARCHAR |  | the Europe/London calendar month, YYYY-MM
-- @column days | INTEGER | days | Europe/London local days counted
-- @column half_hours | INTEGER | half-hours | counted
-- @column kwh | DECIMAL(18,4) | kWh | consumption
-- @column energy_cost_inc_vat | DECIMAL(18,4) | p | Σ kWh × price inc VAT
-- @column standing_charge_inc_vat | DECIMAL(18,4) | p | standing charges inc VAT (one a local day)
-- @column total_inc_vat | DECIMAL(18,4) | p | energy plus standing charges inc VAT (null: nothing priced)
-- @column total_gbp | DECIMAL(18,2) | £ | total inc VAT in pounds, rounded once (null: nothing priced)
-- @column missing_prices | INTEGER | half-hours | with a reading but no price
-- @column missing_readings | INTEGER | half-hours | with a price but no reading
-- @column missing_half_hours | INTEGER | half-hours | without a reading or without a price
-- @column standing_charge_missing_days | INTEGER | days | without a stored standing charge
-- @column complete | BOOLEAN |  | nothing missing: every half-hour has a reading and a price, every day its standing charge
-- @example WITH m AS (FROM cost_meters(['E-1R-AGILE-18-02-21-J'], NULL, NULL))
--   SELECT * FROM report_monthly_costs((SELECT list(m) FROM m),
--   (SELECT list(c) FROM scope_monthly_costs((SELECT list(m) FROM m), ['actual', 'E-1R-AGILE-18-02-21-J'],
--   (SELECT list(meter_point) FROM m), NULL, NULL, 'DIRECT_DEBIT') AS c))
--
-- report_monthly_costs(meter_scope, monthly_rows): the rows of an export's monthly_costs file, per
-- meter, scenario ('actual', then each compared tariff) and Europe/London month, from
-- meter_scope (list(cost_meters row): STRUCT(meter_point, is_export, tariffs)[]) and monthly_rows
-- (list(scope_monthly_costs row)): the export computes the costs once (for the files and the
-- page) and passes them here. The same rows from a shell:
--   WITH m AS (FROM cost_meters(['E-1R-AGILE-18-02-21-J'], NULL, NULL))
--   FROM report_monthly_costs((SELECT list(m) FROM m),
--        (SELECT list(c) FROM scope_monthly_costs((SELECT list(m) FROM m), ['actual', 'E-1R-AGILE-18-02-21-J'],
--                                                 (SELECT list(meter_point) FROM m), NULL, NULL, 'DIRECT_DEBIT') AS c))
-- Ordered by meter_point, 'actual' first, scenario, month.
-- Columns: meter_point (VARCHAR: an MPAN or MPRN, keep it text); is_export (BOOLEAN); scenario;
-- tariff_code (the tariffs used, ' + ' between them); month (VARCHAR, YYYY-MM); days, half_hours
-- (INTEGER); kwh, energy_cost_inc_vat, standing_charge_inc_vat, total_inc_vat (DECIMAL(18,4): kWh,
-- pence); total_gbp (DECIMAL(18,2), pounds); missing_prices, missing_readings, missing_half_hours,
-- standing_charge_missing_days (INTEGER); complete (BOOLEAN).
CREATE OR REPLACE MACRO report_monthly_costs(meter_scope, monthly_rows) AS TABLE
WITH priced AS (
    SELECT unnest(monthly_rows) AS c
),
scope AS (
    SELECT unnest(CAST(meter_scope AS STRUCT(meter_point VARCHAR, is_export BOOLEAN, tariffs VARCHAR[])[])) AS m
)
SELECT scope.m.meter_point AS meter_point, scope.m.is_export AS is_export, c.scenario, c.tariff_code,
       strftime(c.month, '%Y-%m') AS month,
       c.days, c.half_hours,
       round_price(c.kwh) AS kwh,
       round_price(c.energy_cost_inc_vat) AS energy_cost_inc_vat,
       round_price(c.standing_charge_inc_vat) AS standing_charge_inc_vat,
       round_price(c.total_inc_vat) AS total_inc_vat,
       c.total_gbp,
       c.missing_prices, c.missing_readings, c.missing_half_hours, c.standing_charge_missing_days, c.complete
FROM scope
JOIN priced ON priced.c.meter_point = scope.m.meter_point
ORDER BY meter_point, c.scenario <> 'actual', c.scenario, month;
