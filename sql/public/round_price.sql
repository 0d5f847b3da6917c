-- @answers The rounding of every price and pence figure the CLI prints and the exports write: to 4 decimals, half away from zero, after the noise of a double's last bits is removed (through DECIMAL(18,9)), so that a tie such as 12.24125 always rounds the same way, in every DuckDB release from 1.1 on.
-- @arg x | DOUBLE | p/kWh or p | the value to round
-- @returns DECIMAL(18,4) | p/kWh or p | x to 4 decimals
-- @example SELECT round_price(12.24125) AS rounded
--
-- Not a cast from DECIMAL(18,9) to DECIMAL(18,4): DuckDB 1.1 truncates in
-- such a cast (11.59725 becomes 11.5972) where later releases round (11.5973); round() rounds half
-- away from zero in all of them. The CLI shows these values as DOUBLEs (the nearest double, which
-- prints with the same 4 decimals); the exports write them with exactly 4 decimals.
CREATE OR REPLACE MACRO round_price(x) AS CAST(round(CAST(x AS DECIMAL(18, 9)), 4) AS DECIMAL(18, 4));
