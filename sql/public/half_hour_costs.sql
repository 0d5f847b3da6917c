-- @answers What each half-hour of a meter's consumption cost, at its agreements or at a tariff.
-- @arg meter | VARCHAR |  | 'MPAN' (every serial summed) or 'MPAN:SERIAL'
-- @arg tariff | VARCHAR |  | a tariff code to price at, or NULL: the agreements in force
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @arg payment := 'DIRECT_DEBIT' | VARCHAR |  | 'DIRECT_DEBIT' or 'NON_DIRECT_DEBIT' standing charges
-- @arg dispatches := 'default' | VARCHAR |  | Intelligent Octopus Go: 'default', 'completed', 'planned' or 'none'
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column local_date | DATE |  | Europe/London local date
-- @column slot_start | TIMESTAMPTZ | UTC | the half-hour's start
-- @column slot_end | TIMESTAMPTZ | UTC | the half-hour's end
-- @column settlement_period | SMALLINT |  | 1..46/48/50: the half-hour's number in its local day
-- @column kwh | DOUBLE | kWh | consumption
-- @column value_inc_vat | DOUBLE | p/kWh | price inc VAT
-- @column value_exc_vat | DOUBLE | p/kWh | price exc VAT
-- @column cost_inc_vat | DOUBLE | p | kwh × value_inc_vat
-- @column cost_exc_vat | DOUBLE | p | kwh × value_exc_vat
-- @column has_reading | BOOLEAN |  | the half-hour has a reading
-- @column has_price | BOOLEAN |  | the half-hour has a price
-- @column carried | BOOLEAN |  | the price is a last published rate without an end, carried forward
-- @column carried_from | DATE |  | the first day priced by a carried rate (null: none)
-- @column free_half_hour | BOOLEAN |  | a Power Up (free electricity) half-hour, priced at zero
-- @example SELECT * FROM half_hour_costs('2000000000011', 'E-1R-AGILE-18-02-21-J', TIMESTAMPTZ '2023-10-29 00:00:00+01', TIMESTAMPTZ '2023-10-30 00:00:00Z')
--
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
