-- @answers Per Europe/London calendar month: what the import meter cost, what the export meter earned, and the net.
-- @arg import_meter | VARCHAR |  | the import meter: MPAN or MPAN:SERIAL
-- @arg export_meter | VARCHAR |  | the export meter: MPAN or MPAN:SERIAL
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @arg payment := 'DIRECT_DEBIT' | VARCHAR |  | 'DIRECT_DEBIT' or 'NON_DIRECT_DEBIT' standing charges
-- @column month | DATE |  | first day of the Europe/London calendar month
-- @column import_kwh | DOUBLE | kWh | imported
-- @column import_cost_inc_vat | DOUBLE | p | what the import meter cost (energy and standing charges), inc VAT
-- @column export_kwh | DOUBLE | kWh | exported
-- @column export_earnings_inc_vat | DOUBLE | p | what the export meter earned, inc VAT
-- @column net_inc_vat | DOUBLE | p | import cost minus export earnings
-- @column net_gbp | DECIMAL(18,2) | £ | net_inc_vat in pounds, rounded once
-- @column missing_half_hours | INTEGER | half-hours | without a reading or without a price
-- @column complete | BOOLEAN |  | nothing missing: every half-hour has a reading and a price, every day its standing charge
-- @example SELECT * FROM net_costs('2000000000011', '2000000000012', TIMESTAMPTZ '2023-06-01 00:00:00+01', TIMESTAMPTZ '2023-09-01 00:00:00+01')
--
-- net_costs(import_meter, export_meter, range_from, range_to, payment := 'DIRECT_DEBIT'): per
-- Europe/London calendar month, what the import meter cost at its agreements (energy and standing
-- charges), what the export meter earned at its export agreements, and net = cost - earnings
-- (pence unrounded; net_gbp rounded once). complete only when both sides are.
CREATE OR REPLACE MACRO net_costs(import_meter, export_meter, range_from, range_to, payment := 'DIRECT_DEBIT') AS TABLE
WITH both_sides AS (
    SELECT *, meter_point = split_part(import_meter, ':', 1) AS is_import, meter_point = split_part(export_meter, ':', 1) AS is_export_side
    FROM portfolio_monthly_costs(['actual'], range_from, range_to, meters := [import_meter, export_meter],
                                 payment := payment)
),
sides AS (
    -- each month's import and export side (one row each, or none), named once
    SELECT month,
           max(kwh) FILTER (WHERE is_import) AS import_kwh,
           max(total_inc_vat) FILTER (WHERE is_import) AS import_total,
           max(missing_half_hours) FILTER (WHERE is_import) AS import_missing,
           bool_and(complete) FILTER (WHERE is_import) AS import_complete,
           max(kwh) FILTER (WHERE is_export_side) AS export_kwh,
           max(energy_cost_inc_vat) FILTER (WHERE is_export_side) AS export_earnings,
           max(missing_half_hours) FILTER (WHERE is_export_side) AS export_missing,
           bool_and(complete) FILTER (WHERE is_export_side) AS export_complete
    FROM both_sides
    GROUP BY month
)
SELECT
    month,
    -- import: energy bought and its cost (with standing charges)
    import_kwh,
    import_total AS import_cost_inc_vat,
    -- export: energy sold and what it earned
    export_kwh,
    export_earnings AS export_earnings_inc_vat,
    -- net, pence unrounded; net_gbp rounded once
    -- (NULL when either side has nothing priced that month: unpriced is never zero)
    import_total - export_earnings AS net_inc_vat,
    round_gbp(import_total - export_earnings) AS net_gbp,
    CAST(coalesce(import_missing, 0) + coalesce(export_missing, 0) AS INTEGER) AS missing_half_hours,
    coalesce(import_complete, false) AND coalesce(export_complete, false) AS complete
FROM sides
ORDER BY month;
