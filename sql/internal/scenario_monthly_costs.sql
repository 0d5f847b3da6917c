-- scenario_monthly_costs(meter, scenarios, range_from, range_to, payment := 'DIRECT_DEBIT'): the
-- days of scenario_daily_costs per Europe/London calendar month and scenario; totals are sums of
-- the unrounded daily figures, rounded once (total_gbp): the meter's rows of portfolio_monthly_costs.
CREATE OR REPLACE MACRO scenario_monthly_costs(meter, scenarios, range_from, range_to, payment := 'DIRECT_DEBIT',
                                               dispatches := 'default') AS TABLE
SELECT * EXCLUDE (meter_point)
FROM portfolio_monthly_costs(scenarios, range_from, range_to, meters := [meter], payment := payment,
                             dispatches := dispatches);
