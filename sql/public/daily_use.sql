-- @answers The kWh a meter read each Europe/London local day and the day's mean price at the agreements in force.
-- @arg meter | VARCHAR |  | 'MPAN' (every serial summed) or 'MPAN:SERIAL'
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: from the first reading); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: to the last reading)
-- @arg payment := 'DIRECT_DEBIT' | VARCHAR |  | 'DIRECT_DEBIT' or 'NON_DIRECT_DEBIT' rates
-- @column local_date | DATE |  | Europe/London local date
-- @column tariff_code | VARCHAR |  | the agreements' tariff at the day's start
-- @column kwh | DECIMAL(18,3) | kWh | consumption (an export meter's: exported)
-- @column mean_price_inc_vat | DECIMAL(10,4) | p/kWh | the day's energy cost inc VAT ÷ its kWh (null: nothing read or priced)
-- @example SELECT * FROM daily_use('2000000000011', TIMESTAMPTZ '2023-08-01 00:00:00+01', TIMESTAMPTZ '2023-10-01 00:00:00+01')
--
-- daily_use(meter, range_from, range_to, payment := 'DIRECT_DEBIT'): each Europe/London local day
-- of a meter point whose midnight lies in [range_from, range_to) (TIMESTAMPTZ; NULL: from its
-- first reading, to its last): the kWh read and the mean price of its half-hours at the
-- agreements in force, what the HTML page's daily consumption chart draws. The days of
-- daily_costs (tariff NULL). Ordered by local_date.
-- Columns: local_date (DATE); tariff_code (VARCHAR: the agreements' tariff at the day's start);
-- kwh (DECIMAL(18,3), kWh; an export meter's: exported); mean_price_inc_vat (DECIMAL(10,4),
-- pence per kWh inc VAT: the day's energy cost ÷ its kWh; NULL when nothing was read or priced).
CREATE OR REPLACE MACRO daily_use(meter, range_from, range_to, payment := 'DIRECT_DEBIT') AS TABLE
SELECT
    local_date,
    tariff_code,
    CAST(CAST(kwh AS DECIMAL(18, 9)) AS DECIMAL(18, 3)) AS kwh,
    CAST(round_price(energy_cost_inc_vat / nullif(kwh, 0)) AS DECIMAL(10, 4)) AS mean_price_inc_vat
FROM daily_costs(meter, NULL, range_from, range_to, payment := payment)
ORDER BY local_date;
