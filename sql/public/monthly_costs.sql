-- monthly_costs(meter, tariff, range_from, range_to, payment := 'DIRECT_DEBIT'): daily_costs per
-- Europe/London calendar month. tariff NULL: the agreements in force ("what did I pay").
CREATE OR REPLACE MACRO monthly_costs(meter, tariff, range_from, range_to, payment := 'DIRECT_DEBIT',
                                      dispatches := 'default') AS TABLE
SELECT * EXCLUDE (meter_point, scenario)
FROM portfolio_monthly_costs([coalesce(CAST(tariff AS VARCHAR), 'actual')], range_from, range_to, meters := [meter],
                             payment := payment, dispatches := dispatches)
ORDER BY month;
