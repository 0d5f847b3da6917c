-- @answers The rows of an export's tariff_comparison file: per meter and scenario, what its readings cost in all and the difference from 'actual'.
-- @arg meter_scope | STRUCT(meter_point VARCHAR, is_export BOOLEAN, tariffs VARCHAR[])[] |  | the meters priced: list(cost_meters row)
-- @arg comparison_rows | STRUCT(meter_point VARCHAR, scenario VARCHAR, tariff_code VARCHAR, first_date DATE, last_date DATE,
--   days INTEGER, kwh DOUBLE, energy_cost_inc_vat DOUBLE, standing_charge_inc_vat DOUBLE, total_inc_vat DOUBLE,
--   total_gbp DECIMAL(18,2), difference_gbp DECIMAL(18,2), missing_prices INTEGER, missing_readings INTEGER,
--   missing_half_hours INTEGER, standing_charge_missing_days INTEGER, complete BOOLEAN)[] |  | their costs: list(scope_comparison row), of which these fields are read
-- @column meter_point | VARCHAR |  | MPAN or MPRN (keep it text)
-- @column is_export | BOOLEAN |  | an export meter
-- @column scenario | VARCHAR |  | 'actual' (the agreements) or a tariff code
-- @column tariff_code | VARCHAR |  | the tariffs used, ' + ' between several
-- @column first_date | DATE |  | first Europe/London local day priced
-- @column last_date | DATE |  | last Europe/London local day priced
-- @column days | INTEGER | days | Europe/London local days counted
-- @column kwh | DECIMAL(18,4) | kWh | consumption
-- @column energy_cost_inc_vat | DECIMAL(18,4) | p | Σ kWh × price inc VAT
-- @column standing_charge_inc_vat | DECIMAL(18,4) | p | standing charges inc VAT (one a local day)
-- @column total_inc_vat | DECIMAL(18,4) | p | energy plus standing charges inc VAT (null: nothing priced)
-- @column total_gbp | DECIMAL(18,2) | £ | total inc VAT in pounds, rounded once (null: nothing priced)
-- @column difference_gbp | DECIMAL(18,2) | £ | total_gbp of the scenario minus that of 'actual'
-- @column missing_prices | INTEGER | half-hours | with a reading but no price
-- @column missing_readings | INTEGER | half-hours | with a price but no reading
-- @column missing_half_hours | INTEGER | half-hours | without a reading or without a price
-- @column standing_charge_missing_days | INTEGER | days | without a stored standing charge
-- @column complete | BOOLEAN |  | nothing missing: every half-hour has a reading and a price, every day its standing charge
-- @example WITH m AS (FROM cost_meters(['E-1R-AGILE-18-02-21-J'], NULL, NULL))
--   SELECT * FROM report_tariff_comparison((SELECT list(m) FROM m),
--   (SELECT list(c) FROM scope_comparison((SELECT list(m) FROM m), ['E-1R-AGILE-18-02-21-J'],
--   (SELECT list(meter_point) FROM m), NULL, NULL, 'DIRECT_DEBIT') AS c))
--
-- report_tariff_comparison(meter_scope, comparison_rows): the rows of an export's
-- tariff_comparison file, per meter and scenario ('actual', then each compared tariff): what its
-- readings cost in all and the difference from 'actual', from meter_scope (list(cost_meters row))
-- and comparison_rows (list(scope_comparison row)), as report_monthly_costs takes its rows.
-- Ordered by meter_point, 'actual' first, then scenario.
-- Columns: meter_point (VARCHAR: an MPAN or MPRN, keep it text); is_export (BOOLEAN); scenario;
-- tariff_code (the tariffs used, ' + ' between them); first_date, last_date (DATE, Europe/London
-- days); days (INTEGER); kwh, energy_cost_inc_vat, standing_charge_inc_vat, total_inc_vat
-- (DECIMAL(18,4): kWh, pence); total_gbp, difference_gbp (DECIMAL(18,2), pounds; difference:
-- scenario minus actual); missing_prices, missing_readings, missing_half_hours,
-- standing_charge_missing_days (INTEGER); complete (BOOLEAN).
CREATE OR REPLACE MACRO report_tariff_comparison(meter_scope, comparison_rows) AS TABLE
WITH priced AS (
    SELECT unnest(comparison_rows) AS c
),
scope AS (
    SELECT unnest(CAST(meter_scope AS STRUCT(meter_point VARCHAR, is_export BOOLEAN, tariffs VARCHAR[])[])) AS m
)
SELECT scope.m.meter_point AS meter_point, scope.m.is_export AS is_export, c.scenario, c.tariff_code,
       c.first_date, c.last_date, c.days,
       round_price(c.kwh) AS kwh,
       round_price(c.energy_cost_inc_vat) AS energy_cost_inc_vat,
       round_price(c.standing_charge_inc_vat) AS standing_charge_inc_vat,
       round_price(c.total_inc_vat) AS total_inc_vat,
       c.total_gbp, c.difference_gbp,
       c.missing_prices, c.missing_readings, c.missing_half_hours, c.standing_charge_missing_days, c.complete
FROM scope
JOIN priced ON priced.c.meter_point = scope.m.meter_point
ORDER BY meter_point, c.scenario <> 'actual', c.scenario;
