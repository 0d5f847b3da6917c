-- @answers Every meter's costs per Europe/London calendar month under each scenario.
-- @arg scenarios | VARCHAR[] |  | 'actual' (the agreements) and/or tariff codes
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @arg meters := NULL | VARCHAR[] |  | meter points (NULL: every meter with consumption in the range)
-- @arg payment := 'DIRECT_DEBIT' | VARCHAR |  | 'DIRECT_DEBIT' or 'NON_DIRECT_DEBIT' standing charges
-- @arg dispatches := 'default' | VARCHAR |  | Intelligent Octopus Go: 'default', 'completed', 'planned' or 'none'
-- @arg mismatches := 'refuse' | VARCHAR |  | a tariff of another fuel or direction than a meter's: 'refuse' or 'skip'
-- @column meter_point | VARCHAR |  | MPAN or MPRN
-- @column scenario | VARCHAR |  | 'actual' (the agreements) or a tariff code
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column month | DATE |  | first day of the Europe/London calendar month
-- @column days | INTEGER | days | Europe/London local days counted
-- @column half_hours | INTEGER | half-hours | counted
-- @column is_export | BOOLEAN |  | an export meter
-- @column kwh | DOUBLE | kWh | consumption
-- @column energy_cost_inc_vat | DOUBLE | p | Σ kWh × price inc VAT, unrounded
-- @column energy_cost_exc_vat | DOUBLE | p | Σ kWh × price exc VAT, unrounded
-- @column standing_charge_inc_vat | DOUBLE | p | standing charges inc VAT (one a local day)
-- @column standing_charge_exc_vat | DOUBLE | p | standing charges exc VAT
-- @column total_inc_vat | DOUBLE | p | energy plus standing charges inc VAT, unrounded (null: nothing priced)
-- @column total_exc_vat | DOUBLE | p | energy plus standing charges exc VAT, unrounded
-- @column total_gbp | DECIMAL(18,2) | £ | total_inc_vat in pounds, rounded once (null: nothing priced)
-- @column missing_prices | INTEGER | half-hours | with a reading but no price
-- @column missing_readings | INTEGER | half-hours | with a price but no reading
-- @column missing_half_hours | INTEGER | half-hours | without a reading or without a price
-- @column standing_charge_missing_days | INTEGER | days | without a stored standing charge
-- @column complete | BOOLEAN |  | nothing missing: every half-hour has a reading and a price, every day its standing charge
-- @column carried_half_hours | INTEGER | half-hours | priced by a carried rate (valid_to null), not a price published for them
-- @column carried_from | DATE |  | the first day priced by a carried rate (null: none)
-- @column free_half_hours | INTEGER | half-hours | free in a Power Up event, priced at zero
-- @example SELECT * FROM portfolio_monthly_costs(['actual'], TIMESTAMPTZ '2023-09-01 00:00:00+01', TIMESTAMPTZ '2023-12-01 00:00:00Z')
--
-- portfolio_monthly_costs(scenarios, range_from, range_to, meters := NULL, payment := 'DIRECT_DEBIT',
-- dispatches := 'default', mismatches := 'refuse'): the days of portfolio_daily_costs per meter
-- point, scenario and Europe/London calendar month; totals are sums of the unrounded daily
-- figures, rounded once (total_gbp).
CREATE OR REPLACE MACRO portfolio_monthly_costs(scenarios, range_from, range_to, meters := NULL,
                                                payment := 'DIRECT_DEBIT', dispatches := 'default',
                                                mismatches := 'refuse') AS TABLE
SELECT
    -- the meter point, the scenario, the tariffs it used (agreements may change within a month), the month
    meter_point,
    scenario,
    string_agg(DISTINCT tariff_code, ' + ' ORDER BY tariff_code) AS tariff_code,
    CAST(date_trunc('month', local_date) AS DATE) AS month,
    CAST(count(*) AS INTEGER) AS days,
    CAST(sum(half_hours) AS INTEGER) AS half_hours,
    bool_or(is_export) AS is_export,
    -- energy and costs, pence, unrounded; total_gbp rounded once
    sum(kwh) AS kwh,
    sum(energy_cost_inc_vat) AS energy_cost_inc_vat,
    sum(energy_cost_exc_vat) AS energy_cost_exc_vat,
    sum(standing_charge_inc_vat) AS standing_charge_inc_vat,
    sum(standing_charge_exc_vat) AS standing_charge_exc_vat,
    sum(total_inc_vat) AS total_inc_vat,
    sum(total_exc_vat) AS total_exc_vat,
    round_gbp(sum(total_inc_vat)) AS total_gbp,
    -- what is missing
    CAST(sum(missing_prices) AS INTEGER) AS missing_prices,
    CAST(sum(missing_readings) AS INTEGER) AS missing_readings,
    CAST(sum(missing_half_hours) AS INTEGER) AS missing_half_hours,
    CAST(count(*) FILTER (WHERE standing_charge_missing) AS INTEGER) AS standing_charge_missing_days,
    bool_and(complete) AS complete,
    CAST(sum(carried_half_hours) AS INTEGER) AS carried_half_hours,
    min(carried_from) AS carried_from,
    CAST(sum(free_half_hours) AS INTEGER) AS free_half_hours
FROM portfolio_daily_costs(scenarios, range_from, range_to, meters := meters, payment := payment,
                           dispatches := dispatches, mismatches := mismatches)
GROUP BY meter_point, scenario, month;
