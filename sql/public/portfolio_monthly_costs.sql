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
    CAST(CAST(sum(total_inc_vat) AS DECIMAL(18, 9)) * 0.01 AS DECIMAL(18, 2)) AS total_gbp,
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
