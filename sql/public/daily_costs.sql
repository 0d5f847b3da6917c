-- @answers What a meter's consumption cost each Europe/London local day, at its agreements or at a tariff.
-- @arg meter | VARCHAR |  | 'MPAN' (every serial summed) or 'MPAN:SERIAL'
-- @arg tariff | VARCHAR |  | a tariff code to price at, or NULL: the agreements in force
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @arg payment := 'DIRECT_DEBIT' | VARCHAR |  | 'DIRECT_DEBIT' or 'NON_DIRECT_DEBIT' standing charges
-- @arg dispatches := 'default' | VARCHAR |  | Intelligent Octopus Go: 'default', 'completed', 'planned' or 'none'
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column local_date | DATE |  | Europe/London local date
-- @column half_hours | INTEGER | half-hours | counted
-- @column is_export | BOOLEAN |  | an export meter
-- @column kwh | DOUBLE | kWh | consumption
-- @column energy_cost_inc_vat | DOUBLE | p | Σ kWh × price inc VAT, unrounded
-- @column energy_cost_exc_vat | DOUBLE | p | Σ kWh × price exc VAT, unrounded
-- @column standing_charge_inc_vat | DOUBLE | p | standing charges inc VAT (one a local day)
-- @column standing_charge_exc_vat | DOUBLE | p | standing charges exc VAT
-- @column total_inc_vat | DOUBLE | p | energy plus standing charges inc VAT, unrounded (null: nothing priced)
-- @column total_exc_vat | DOUBLE | p | energy plus standing charges exc VAT, unrounded
-- @column total_gbp | DECIMAL(18,2) | £ | total_inc_vat in pounds, rounded once (null: nothing priced)
-- @column missing_prices | INTEGER | half-hours | with a reading but no price
-- @column missing_readings | INTEGER | half-hours | with a price but no reading
-- @column missing_half_hours | INTEGER | half-hours | without a reading or without a price
-- @column standing_charge_missing | BOOLEAN |  | the day's standing charge is not stored
-- @column complete | BOOLEAN |  | nothing missing: every half-hour has a reading and a price, every day its standing charge
-- @column carried_half_hours | INTEGER | half-hours | priced by a carried rate (valid_to null), not a price published for them
-- @column carried_from | DATE |  | the first day priced by a carried rate (null: none)
-- @column free_half_hours | INTEGER | half-hours | free in a Power Up event, priced at zero
-- @example SELECT * FROM daily_costs('2000000000011', NULL, TIMESTAMPTZ '2023-10-28 00:00:00+01', TIMESTAMPTZ '2023-11-01 00:00:00Z')
--
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
