-- @answers A meter's consumption priced at its agreements ('actual') and at each tariff of a list, side by side.
-- @arg meter | VARCHAR |  | 'MPAN' (every serial summed) or 'MPAN:SERIAL'
-- @arg tariffs | VARCHAR[] |  | tariff codes to compare with the agreements
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @arg payment := 'DIRECT_DEBIT' | VARCHAR |  | 'DIRECT_DEBIT' or 'NON_DIRECT_DEBIT' standing charges
-- @arg dispatches := 'default' | VARCHAR |  | Intelligent Octopus Go: 'default', 'completed', 'planned' or 'none'
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
-- @example SELECT * FROM tariff_comparison('2000000000011', ['E-1R-AGILE-18-02-21-J', 'E-1R-VAR-17-01-11-A'], TIMESTAMPTZ '2023-03-01 00:00:00Z', TIMESTAMPTZ '2024-03-01 00:00:00Z')
--
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
