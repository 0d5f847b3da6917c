-- @answers Every meter's consumption priced at its agreements ('actual') and at each tariff of a list, one row per meter and scenario.
-- @arg tariffs | VARCHAR[] |  | tariff codes each meter is priced at beside its agreements
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @arg meters := NULL | VARCHAR[] |  | meter points (NULL: every meter with consumption in the range)
-- @arg payment := 'DIRECT_DEBIT' | VARCHAR |  | 'DIRECT_DEBIT' or 'NON_DIRECT_DEBIT' standing charges
-- @arg dispatches := 'default' | VARCHAR |  | Intelligent Octopus Go: 'default', 'completed', 'planned' or 'none'
-- @arg mismatches := 'refuse' | VARCHAR |  | a tariff of another fuel or direction than a meter's: 'refuse' or 'skip'
-- @column meter_point | VARCHAR |  | MPAN or MPRN
-- @column scenario | VARCHAR |  | 'actual' (the agreements) or a tariff code
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column first_date | DATE |  | the first local day with a reading
-- @column last_date | DATE |  | the last local day with a reading
-- @column days | INTEGER | days | Europe/London local days counted
-- @column kwh | DOUBLE | kWh | consumption
-- @column energy_cost_inc_vat | DOUBLE | p | Σ kWh × price inc VAT, unrounded
-- @column standing_charge_inc_vat | DOUBLE | p | standing charges inc VAT (one a local day)
-- @column total_inc_vat | DOUBLE | p | energy plus standing charges inc VAT, unrounded (null: nothing priced)
-- @column total_exc_vat | DOUBLE | p | energy plus standing charges exc VAT, unrounded
-- @column total_gbp | DECIMAL(18,2) | £ | total_inc_vat in pounds, rounded once (null: nothing priced)
-- @column difference_gbp | DECIMAL(18,2) | £ | total_gbp minus the actual scenario's (positive: dearer)
-- @column missing_prices | INTEGER | half-hours | with a reading but no price
-- @column missing_readings | INTEGER | half-hours | with a price but no reading
-- @column missing_half_hours | INTEGER | half-hours | without a reading or without a price
-- @column standing_charge_missing_days | INTEGER | days | without a stored standing charge
-- @column complete | BOOLEAN |  | nothing missing: every half-hour has a reading and a price, every day its standing charge
-- @column carried_half_hours | INTEGER | half-hours | priced by a carried rate (valid_to null), not a price published for them
-- @column carried_from | DATE |  | the first day priced by a carried rate (null: none)
-- @column caveats | VARCHAR |  | what the total rests on, in words (carried prices, days without a standing charge)
-- @column free_half_hours | INTEGER | half-hours | free in a Power Up event, priced at zero
-- @example SELECT * FROM portfolio_comparison(['E-1R-AGILE-18-02-21-J', 'E-1R-VAR-17-01-11-A'], TIMESTAMPTZ '2023-06-01 00:00:00+01', TIMESTAMPTZ '2023-09-01 00:00:00+01', mismatches := 'skip')
--
-- portfolio_comparison(tariffs, range_from, range_to, meters := NULL, payment := 'DIRECT_DEBIT',
-- dispatches := 'default', mismatches := 'refuse'): each meter point's consumption priced under
-- its agreements ('actual') and under each tariff of the list, over the local days of the range,
-- one row per meter point and scenario: the days of portfolio_daily_costs summed (kWh, energy,
-- standing charges, total; pence unrounded, total_gbp rounded once), the difference to the
-- meter's actual agreements (difference_gbp, positive = dearer), what is missing, and caveats
-- (prices carried past the last published rate, standing charges missing; NULL when neither).
-- mismatches 'skip': a tariff of another fuel or direction is left out for that meter.
-- per_scenario → final.
CREATE OR REPLACE MACRO portfolio_comparison(tariffs, range_from, range_to, meters := NULL,
                                             payment := 'DIRECT_DEBIT', dispatches := 'default',
                                             mismatches := 'refuse') AS TABLE
WITH per_scenario AS (
    SELECT meter_point, scenario,
           string_agg(DISTINCT tariff_code, ' + ' ORDER BY tariff_code) AS tariff_code,
           min(local_date) AS first_date,
           max(local_date) AS last_date,
           count(*) AS days,
           sum(kwh) AS kwh,
           sum(energy_cost_inc_vat) AS energy_cost_inc_vat,
           sum(standing_charge_inc_vat) AS standing_charge_inc_vat,
           sum(total_inc_vat) AS total_inc_vat,
           sum(total_exc_vat) AS total_exc_vat,
           sum(missing_prices) AS missing_prices,
           sum(missing_readings) AS missing_readings,
           sum(missing_half_hours) AS missing_half_hours,
           count(*) FILTER (WHERE standing_charge_missing) AS standing_charge_missing_days,
           bool_and(complete) AS complete,
           sum(half_hours) AS half_hours,
           sum(carried_half_hours) AS carried_half_hours,
           min(carried_from) AS carried_from,
           sum(free_half_hours) AS free_half_hours
    FROM portfolio_daily_costs(list_prepend('actual', CAST(tariffs AS VARCHAR[])), range_from, range_to,
                               meters := meters, payment := payment, dispatches := dispatches,
                               mismatches := mismatches)
    GROUP BY meter_point, scenario
)
SELECT
    -- the meter point, the scenario ('actual' = the agreements in force) and its tariffs, the days covered
    p.meter_point,
    p.scenario,
    p.tariff_code,
    p.first_date,
    p.last_date,
    CAST(p.days AS INTEGER) AS days,
    -- energy and costs, pence, unrounded; total_gbp rounded once
    p.kwh,
    p.energy_cost_inc_vat,
    p.standing_charge_inc_vat,
    p.total_inc_vat,
    p.total_exc_vat,
    round_gbp(p.total_inc_vat) AS total_gbp,
    round_gbp(p.total_inc_vat - p.actual_total_inc_vat) AS difference_gbp,
    -- what is missing
    CAST(p.missing_prices AS INTEGER) AS missing_prices,
    CAST(p.missing_readings AS INTEGER) AS missing_readings,
    CAST(p.missing_half_hours AS INTEGER) AS missing_half_hours,
    CAST(p.standing_charge_missing_days AS INTEGER) AS standing_charge_missing_days,
    p.complete,
    -- what the figure rests on: prices carried past the last published rate, standing charges missing
    CAST(p.carried_half_hours AS INTEGER) AS carried_half_hours,
    p.carried_from,
    nullif(concat_ws('; ',
        CASE WHEN p.carried_half_hours > 0
             THEN 'prices of ' || p.carried_half_hours || ' of ' || p.half_hours || ' half-hours carried from the last published rate (open-ended, from '
                  || strftime(p.carried_from, '%Y-%m-%d') || ')' END,
        CASE WHEN p.standing_charge_missing_days > 0
             THEN 'no standing charge stored for ' || p.standing_charge_missing_days || ' of ' || p.days || ' days (energy only)' END), '') AS caveats,
    -- half-hours inside a Power Up (free; 'actual' only)
    CAST(p.free_half_hours AS INTEGER) AS free_half_hours
FROM (SELECT *,
             -- the meter's actual total, beside each of its scenarios
             max(CASE WHEN scenario = 'actual' THEN total_inc_vat END) OVER (PARTITION BY meter_point) AS actual_total_inc_vat
      FROM per_scenario) AS p;
