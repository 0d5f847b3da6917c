-- @answers Pence as pounds, rounded once to 2 decimals, half away from zero: how total_gbp, difference_gbp and net_gbp are made from the unrounded sums of pence.
-- @arg pence | DOUBLE | p | an unrounded sum of pence
-- @returns DECIMAL(18,2) | £ | the pounds, to 2 decimals
-- @example SELECT round_gbp(12345.5) AS pounds
--
-- The same rule as round_price (through DECIMAL(18,9), then round()).
CREATE OR REPLACE MACRO round_gbp(pence) AS CAST(round(CAST(pence AS DECIMAL(18, 9)) * 0.01, 2) AS DECIMAL(18, 2));
