-- half_hour_costs(meter, tariff, range_from, range_to, payment := 'DIRECT_DEBIT'): each half-hour
-- of [range_from, range_to) with the meter's kWh, the price (p/kWh inc/exc VAT) and the cost in
-- pence, unrounded. tariff NULL: "what did I pay" (the agreement in force at each instant); a
-- tariff code: "what would I have paid". Missing readings or prices: NULL cost, flagged.
CREATE OR REPLACE MACRO half_hour_costs(meter, tariff, range_from, range_to, payment := 'DIRECT_DEBIT',
                                        dispatches := 'default') AS TABLE
SELECT * EXCLUDE (meter_point, scenario, meter_no, scenario_no)
FROM portfolio_pricing([coalesce(CAST(tariff AS VARCHAR), 'actual')], range_from, range_to, meters := [meter],
                       payment := payment, dispatches := dispatches)
ORDER BY slot_start;
