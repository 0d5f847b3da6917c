-- @answers What one meter paid (exporting: earned) at its agreements and would have paid at each listed tariff, by month, last month and last year, ranked.
-- @arg meter | VARCHAR |  | 'MPAN' (every serial summed) or 'MPAN:SERIAL'
-- @arg tariffs | VARCHAR[] |  | tariff codes to compare with the agreements (another fuel or direction is left out)
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @arg payment := 'DIRECT_DEBIT' | VARCHAR |  | 'DIRECT_DEBIT' or 'NON_DIRECT_DEBIT' standing charges
-- @arg dispatches := 'default' | VARCHAR |  | Intelligent Octopus Go: 'default', 'completed', 'planned' or 'none'
-- @column meter_point | VARCHAR |  | MPAN or MPRN
-- @column fuel | VARCHAR |  | electricity or gas (null: not in meter_points)
-- @column is_export | BOOLEAN |  | an export meter
-- @column scenario | VARCHAR |  | 'actual' (the agreements) or a tariff code
-- @column tariff_code | VARCHAR |  | the tariffs priced, ' + ' between several
-- @column period | VARCHAR |  | 'month', 'last_month' or 'last_year'
-- @column first_month | DATE |  | first day of the period's first Europe/London calendar month
-- @column last_month | DATE |  | first day of the period's last Europe/London calendar month
-- @column months | INTEGER | months | in the period
-- @column days | INTEGER | days | Europe/London local days with readings
-- @column calendar_days | INTEGER | days | the days of the period's calendar months
-- @column kwh | DOUBLE | kWh | consumption
-- @column energy_cost_inc_vat | DOUBLE | p | Σ kWh × price inc VAT, unrounded
-- @column standing_charge_inc_vat | DOUBLE | p | standing charges inc VAT (one a local day)
-- @column total_inc_vat | DOUBLE | p | energy plus standing charges inc VAT, unrounded (null: nothing priced)
-- @column total_gbp | DECIMAL(18,2) | £ | total_inc_vat in pounds, rounded once (null: nothing priced)
-- @column missing_prices | INTEGER | half-hours | with a reading but no price
-- @column missing_readings | INTEGER | half-hours | with a price but no reading
-- @column missing_half_hours | INTEGER | half-hours | without a reading or without a price
-- @column standing_charge_missing_days | INTEGER | days | without a stored standing charge
-- @column carried_half_hours | INTEGER | half-hours | priced by a carried rate (valid_to null), not a price published for them
-- @column carried_from | DATE |  | the first day priced by a carried rate (null: none)
-- @column complete | BOOLEAN |  | nothing missing: every half-hour has a reading and a price, every day its standing charge
-- @column energy_only | BOOLEAN |  | no standing charge known in the period at any scenario
-- @column same_as_agreements | BOOLEAN |  | a tariff the agreements were on throughout the period (not ranked)
-- @column comparable | BOOLEAN |  | nothing missing or carried, so the figure can be ranked
-- @column rank | INTEGER |  | 1 = cheapest (an export meter: earns most) among the period's comparable figures (null: not ranked)
-- @column ranked | INTEGER |  | how many of the period's figures are ranked
-- @example SELECT * FROM household_costs('2000000000011', ['E-1R-AGILE-18-02-21-J', 'E-1R-VAR-17-01-11-A'], TIMESTAMPTZ '2023-06-01 00:00:00+01', TIMESTAMPTZ '2023-12-01 00:00:00Z')
--
-- household_costs(meter, tariffs, range_from, range_to, payment := 'DIRECT_DEBIT',
-- dispatches := 'default'): what one meter point paid (an export meter: earned) at its agreements
-- ('actual') and would have paid at each tariff of the list (VARCHAR[]), month by month, in its last month
-- and over its last year, with each figure's gaps said and the comparable figures ranked: what the
-- HTML page's household section shows. The months are portfolio_monthly_costs' (Europe/London
-- calendar months of the local days whose midnight lies in [range_from, range_to)); a tariff of
-- another fuel or direction than the meter's is left out (mismatches := 'skip').
--   last month: the latest month with readings on every day (else the latest month with any);
--   last year: the twelve months ending with it (fewer when the readings begin later);
--   comparable: no half-hour without a reading or a price, none priced at a rate carried past its
--     last publication, and the standing charge known on every day (or known on none of the
--     period's days at any scenario: the period's figures are then all energy only);
--   rank: 1 = cheapest (an export meter: earns most) among the period's comparable figures, a
--     tariff equal to the agreements throughout the period left out (same_as_agreements).
-- Ordered by period ('month' by month, then 'last_month', 'last_year'), scenario ('actual' first).
-- Columns: meter_point (VARCHAR); fuel ('electricity' or 'gas'; NULL: not in meter_points); is_export (BOOLEAN); scenario ('actual' or a tariff code);
-- tariff_code (VARCHAR: the tariffs priced, ' + ' between several); period ('month',
-- 'last_month' or 'last_year'); first_month, last_month (DATE: the first days of the period's
-- first and last months); months, days (INTEGER: months and local days with readings),
-- calendar_days (INTEGER: the days of those calendar months); kwh (DOUBLE); energy_cost_inc_vat,
-- standing_charge_inc_vat, total_inc_vat (DOUBLE, pence, unrounded); total_gbp (DECIMAL(18,2),
-- pounds inc VAT rounded once); missing_prices, missing_readings, missing_half_hours,
-- standing_charge_missing_days, carried_half_hours (INTEGER); carried_from (the earliest start
-- of a rate carried forward); complete (BOOLEAN, as portfolio_monthly_costs); energy_only
-- (BOOLEAN: no standing charge known in the period at any scenario); same_as_agreements
-- (BOOLEAN: a tariff the agreements were on throughout the period); comparable (BOOLEAN);
-- rank (INTEGER; NULL when not ranked); ranked (INTEGER: how many figures of the period are).
CREATE OR REPLACE MACRO household_costs(meter, tariffs, range_from, range_to, payment := 'DIRECT_DEBIT',
                                        dispatches := 'default') AS TABLE
WITH months AS (
    SELECT *, CAST(day(last_day(month)) AS INTEGER) AS calendar_days
    FROM portfolio_monthly_costs(list_prepend('actual', CAST(tariffs AS VARCHAR[])), range_from, range_to, meters := [meter], payment := payment,
                                 dispatches := dispatches, mismatches := 'skip')
),
periods AS (
    -- Each month is a period of its own; the last month (the latest whole month of readings at the
    -- agreements, else the latest) is one again; the twelve months ending with it make the last
    -- year, summed per scenario. One pass over `months` (each month unnested into the periods it
    -- is in): DuckDB before 1.4 inlines a CTE named more than once, planning portfolio_monthly_costs
    -- again for each name.
    SELECT any_value(m.meter_point) AS meter_point, m.scenario,
           -- the last year: the tariffs of its months, each once
           CASE WHEN m.period = 'last_year'
                THEN array_to_string(list_sort(list_distinct(flatten(list(string_split(m.tariff_code, ' + '))))), ' + ')
                ELSE any_value(m.tariff_code) END AS tariff_code,
           bool_or(m.is_export) AS is_export,
           CAST(sum(m.days) AS INTEGER) AS days, CAST(sum(m.calendar_days) AS INTEGER) AS calendar_days,
           sum(m.kwh) AS kwh, sum(m.energy_cost_inc_vat) AS energy_cost_inc_vat,
           sum(m.standing_charge_inc_vat) AS standing_charge_inc_vat, sum(m.total_inc_vat) AS total_inc_vat,
           CASE WHEN m.period = 'last_year' THEN round_gbp(sum(m.total_inc_vat)) ELSE any_value(m.total_gbp) END AS total_gbp,
           CAST(sum(m.missing_prices) AS INTEGER) AS missing_prices,
           CAST(sum(m.missing_readings) AS INTEGER) AS missing_readings,
           CAST(sum(m.missing_half_hours) AS INTEGER) AS missing_half_hours,
           CAST(sum(m.standing_charge_missing_days) AS INTEGER) AS standing_charge_missing_days,
           CAST(sum(m.carried_half_hours) AS INTEGER) AS carried_half_hours,
           min(m.carried_from) AS carried_from,
           bool_and(m.complete) AS complete,
           m.period, min(m.month) AS first_month, max(m.month) AS last_month,
           CAST(count(*) AS INTEGER) AS months
    FROM (
        SELECT m.*,
               unnest(list_concat(['month'], list_concat(
                   CASE WHEN m.month = m.period_last_month THEN ['last_month'] ELSE [] END,
                   CASE WHEN m.month <= m.period_last_month AND m.month > CAST(m.period_last_month - INTERVAL 12 MONTH AS DATE)
                        THEN ['last_year'] ELSE [] END))) AS period
        FROM (
            SELECT m.*,
                   coalesce(max(m.month) FILTER (WHERE m.scenario = 'actual' AND m.days = m.calendar_days) OVER (),
                            max(m.month) FILTER (WHERE m.scenario = 'actual') OVER ()) AS period_last_month
            FROM months AS m
        ) AS m
    ) AS m
    GROUP BY m.period, m.scenario, CASE WHEN m.period = 'last_year' THEN NULL ELSE m.month END
),
judged AS (
    SELECT p.*,
           bool_and(p.standing_charge_missing_days = p.days) OVER period_rows AS energy_only,
           p.scenario <> 'actual' AND p.tariff_code = any_value(p.tariff_code) FILTER (WHERE p.scenario = 'actual') OVER period_rows
               AS same_as_agreements
    FROM periods AS p
    WINDOW period_rows AS (PARTITION BY p.period, p.first_month)
),
ranked AS (
    SELECT j.*,
           j.missing_half_hours = 0 AND j.missing_prices = 0 AND j.missing_readings = 0 AND j.carried_half_hours = 0
               AND j.total_gbp IS NOT NULL AND (j.standing_charge_missing_days = 0 OR j.energy_only) AS comparable
    FROM judged AS j
)
SELECT
    -- the meter, the scenario and its tariffs
    r.meter_point,
    (SELECT any_value(hc_m.fuel) FROM meter_points AS hc_m WHERE hc_m.meter_point = r.meter_point) AS fuel,
    r.is_export,
    r.scenario,
    r.tariff_code,
    -- the period
    r.period,
    r.first_month,
    r.last_month,
    CAST(r.months AS INTEGER) AS months,
    r.days,
    r.calendar_days,
    -- energy and costs, pence unrounded; total_gbp rounded once
    r.kwh,
    r.energy_cost_inc_vat,
    r.standing_charge_inc_vat,
    r.total_inc_vat,
    r.total_gbp,
    -- what is missing or carried
    r.missing_prices,
    r.missing_readings,
    r.missing_half_hours,
    r.standing_charge_missing_days,
    r.carried_half_hours,
    r.carried_from,
    r.complete,
    -- the ranking
    r.energy_only,
    coalesce(r.same_as_agreements, false) AS same_as_agreements,
    r.comparable,
    CASE WHEN r.comparable AND NOT coalesce(r.same_as_agreements, false)
         THEN CAST(rank() OVER (PARTITION BY r.period, r.first_month, r.comparable AND NOT coalesce(r.same_as_agreements, false)
                                ORDER BY CASE WHEN r.is_export THEN -r.total_inc_vat ELSE r.total_inc_vat END) AS INTEGER)
    END AS rank,
    CAST(count(*) FILTER (WHERE r.comparable AND NOT coalesce(r.same_as_agreements, false))
             OVER (PARTITION BY r.period, r.first_month) AS INTEGER) AS ranked
FROM ranked AS r
ORDER BY CASE r.period WHEN 'month' THEN 0 WHEN 'last_month' THEN 1 ELSE 2 END, r.first_month,
         r.scenario <> 'actual', r.scenario;
