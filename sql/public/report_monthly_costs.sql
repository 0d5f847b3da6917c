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
