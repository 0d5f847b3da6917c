-- net_costs(import_meter, export_meter, range_from, range_to, payment := 'DIRECT_DEBIT'): per
-- Europe/London calendar month, what the import meter cost at its agreements (energy and standing
-- charges), what the export meter earned at its export agreements, and net = cost - earnings
-- (pence unrounded; net_gbp rounded once). complete only when both sides are.
CREATE OR REPLACE MACRO net_costs(import_meter, export_meter, range_from, range_to, payment := 'DIRECT_DEBIT') AS TABLE
WITH both_sides AS (
    SELECT * FROM portfolio_monthly_costs(['actual'], range_from, range_to, meters := [import_meter, export_meter],
                                          payment := payment)
),
imp AS (
    SELECT * FROM both_sides WHERE meter_point = split_part(import_meter, ':', 1)
),
exp AS (
    SELECT * FROM both_sides WHERE meter_point = split_part(export_meter, ':', 1)
)
SELECT
    month,
    -- import: energy bought and its cost (with standing charges)
    i.kwh AS import_kwh,
    i.total_inc_vat AS import_cost_inc_vat,
    -- export: energy sold and what it earned
    e.kwh AS export_kwh,
    e.energy_cost_inc_vat AS export_earnings_inc_vat,
    -- net, pence unrounded; net_gbp rounded once
    -- (NULL when either side has nothing priced that month: unpriced is never zero)
    i.total_inc_vat - e.energy_cost_inc_vat AS net_inc_vat,
    CAST(CAST(i.total_inc_vat - e.energy_cost_inc_vat AS DECIMAL(18, 9)) * 0.01 AS DECIMAL(18, 2)) AS net_gbp,
    CAST(coalesce(i.missing_half_hours, 0) + coalesce(e.missing_half_hours, 0) AS INTEGER) AS missing_half_hours,
    coalesce(i.complete, false) AND coalesce(e.complete, false) AS complete
FROM imp AS i
FULL OUTER JOIN exp AS e USING (month)
ORDER BY month;
