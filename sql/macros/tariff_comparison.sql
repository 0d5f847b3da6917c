-- tariff_comparison(meter, tariffs, range_from, range_to, payment := 'DIRECT_DEBIT',
-- dispatches := 'default'): the same consumption priced under the actual agreements ('actual')
-- and under each tariff of the list, side by side over the local days of the range: kWh, energy
-- cost, standing charges, total (pence, unrounded), total_gbp (rounded once) and the difference to
-- the actual agreements (difference_gbp, positive = dearer), with missing half-hours and days
-- counted, and caveats saying what the figure rests on (prices carried past the last published
-- rate, standing charges missing; NULL when neither). dispatches: as consumption_pricing's
-- (Intelligent Octopus Go); 'none' for a meter without such an agreement gives the same rows and
-- spares DuckDB the search for its dispatch-adjusted rates.
-- per_scenario → final.
CREATE OR REPLACE MACRO tariff_comparison(meter, tariffs, range_from, range_to, payment := 'DIRECT_DEBIT',
                                          dispatches := 'default') AS TABLE
WITH per_scenario AS (
    SELECT scenario,
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
           min(carried_from) AS carried_from
    FROM scenario_daily_costs(meter, list_prepend('actual', tariffs), range_from, range_to, payment := payment,
                              dispatches := dispatches)
    GROUP BY scenario
)
SELECT
    -- scenario ('actual' = the agreements in force) and its tariffs, the local days covered
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
    CAST(CAST(p.total_inc_vat AS DECIMAL(18, 9)) * 0.01 AS DECIMAL(18, 2)) AS total_gbp,
    CAST(CAST(p.total_inc_vat - a.total_inc_vat AS DECIMAL(18, 9)) * 0.01 AS DECIMAL(18, 2)) AS difference_gbp,
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
             THEN 'no standing charge stored for ' || p.standing_charge_missing_days || ' of ' || p.days || ' days (energy only)' END), '') AS caveats
FROM per_scenario AS p
LEFT JOIN per_scenario AS a ON a.scenario = 'actual'
ORDER BY p.scenario <> 'actual', list_position(tariffs, p.scenario);
