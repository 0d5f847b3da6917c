-- consumption_pricing(meter, scenarios, range_from, range_to, payment := 'DIRECT_DEBIT',
-- whole_days := false, dispatches := 'default'): every half-hour of a meter ('MPAN', its serials
-- summed, or 'MPAN:SERIAL') priced under each scenario (a tariff code, or 'actual': the agreement
-- in force then). Half-hours: [range_from, range_to) (a NULL bound: the first reading / the end
-- of the last), with whole_days the local days whose midnight lies in it. No reading or no price:
-- NULL cost (never zero), flagged by has_reading/has_price. Pence, unrounded; unit rates of
-- rate_type standard, the payment method given or none. carried: priced at the tariff's last rate
-- without an end (carried_from: its first local day). Intelligent Octopus Go accounts: prices of
-- effective_rates_with(dispatches): 'default', 'completed', 'planned' or 'none' (night band only).
-- The meter's rows of portfolio_pricing, which prices every half-hour of every meter.
CREATE OR REPLACE MACRO consumption_pricing(meter, scenarios, range_from, range_to,
                                            payment := 'DIRECT_DEBIT', whole_days := false,
                                            dispatches := 'default') AS TABLE
SELECT * EXCLUDE (meter_point, meter_no, scenario_no)
FROM portfolio_pricing(scenarios, range_from, range_to, meters := [meter], payment := payment,
                       whole_days := whole_days, dispatches := dispatches);
