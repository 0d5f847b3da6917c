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
