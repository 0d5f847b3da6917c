-- daily_costs(meter, tariff, range_from, range_to, payment := 'DIRECT_DEBIT'): each Europe/London
-- local day (46, 48 or 50 half-hours) whose midnight lies in the range: kWh, energy cost, one
-- standing charge, total (pence, unrounded) and total_gbp (rounded once), with the missing
-- half-hours counted. tariff NULL: the agreements in force ("what did I pay").
CREATE OR REPLACE MACRO daily_costs(meter, tariff, range_from, range_to, payment := 'DIRECT_DEBIT',
                                    dispatches := 'default') AS TABLE
SELECT * EXCLUDE (meter_point, scenario)
FROM portfolio_daily_costs([coalesce(CAST(tariff AS VARCHAR), 'actual')], range_from, range_to, meters := [meter],
                           payment := payment, dispatches := dispatches)
ORDER BY local_date;
