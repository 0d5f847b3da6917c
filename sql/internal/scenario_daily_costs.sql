-- scenario_daily_costs(meter, scenarios, range_from, range_to, payment := 'DIRECT_DEBIT'): each
-- Europe/London local day (whose midnight lies in the range; a NULL bound: the days of the first
-- / last reading) per scenario (see consumption_pricing): kWh, energy cost, the standing charge
-- (once per local day; none for export meters) and the total (energy priced plus the standing
-- charge), pence unrounded, and total_gbp rounded once, with what is missing: the meter's rows of
-- portfolio_daily_costs, which says the rules.
CREATE OR REPLACE MACRO scenario_daily_costs(meter, scenarios, range_from, range_to, payment := 'DIRECT_DEBIT',
                                             dispatches := 'default') AS TABLE
SELECT * EXCLUDE (meter_point)
FROM portfolio_daily_costs(scenarios, range_from, range_to, meters := [meter], payment := payment,
                           dispatches := dispatches);
