-- tariff_comparison(meter, tariffs, range_from, range_to, payment := 'DIRECT_DEBIT',
-- dispatches := 'default'): the same consumption priced under the actual agreements ('actual')
-- and under each tariff of the list, side by side over the local days of the range: kWh, energy
-- cost, standing charges, total (pence, unrounded), total_gbp (rounded once) and the difference to
-- the actual agreements (difference_gbp, positive = dearer), with missing half-hours and days
-- counted, and caveats saying what the figure rests on (prices carried past the last published
-- rate, standing charges missing; NULL when neither). dispatches: as consumption_pricing's
-- (Intelligent Octopus Go); 'none' for a meter without such an agreement gives the same rows and
-- spares DuckDB the search for its dispatch-adjusted rates.
-- The meter's rows of portfolio_comparison.
CREATE OR REPLACE MACRO tariff_comparison(meter, tariffs, range_from, range_to, payment := 'DIRECT_DEBIT',
                                          dispatches := 'default') AS TABLE
SELECT * EXCLUDE (meter_point)
FROM portfolio_comparison(tariffs, range_from, range_to, meters := [meter], payment := payment,
                          dispatches := dispatches)
ORDER BY scenario <> 'actual', list_position(tariffs, scenario);
