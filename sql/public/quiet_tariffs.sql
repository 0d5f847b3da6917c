-- @answers The tariffs whose every unit rate ended by today_start although a later fetch of their unit rates succeeded (retired?).
-- @arg today_start | TIMESTAMPTZ | UTC | e.g. the start of today's Europe/London day
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column ended | TIMESTAMPTZ | UTC | the end of the last rate (its valid_to)
-- @column last_fetch | TIMESTAMPTZ | UTC | the latest successful fetch of its unit rates, after ended
-- @example SELECT * FROM quiet_tariffs(TIMESTAMPTZ '2100-01-01 00:00:00Z')
--
-- quiet_tariffs(today_start): the tariffs whose every unit rate ended by today_start (TIMESTAMPTZ,
-- e.g. the start of today's Europe/London day) although a fetch of their unit rates succeeded after
-- that end: their rates URL answers, with nothing new (a retired tariff?). `tariffs status` shows
-- the last rate's London day as rates_stopped_on.
-- Columns: tariff_code; ended (TIMESTAMPTZ: the end of the last rate, its valid_to); last_fetch
-- (TIMESTAMPTZ: the latest successful fetch of its unit rates, after ended).
CREATE OR REPLACE MACRO quiet_tariffs(today_start) AS TABLE
WITH fetched AS (
    SELECT tariff_code, max(updated_at) AS last_fetch
    FROM ingest_cursors
    WHERE rate_kind <> 'standing_charge'
    GROUP BY tariff_code
),
ended AS (
    SELECT tariff_code, max(valid_to) AS ended, bool_or(valid_to IS NULL) AS open_ended
    FROM unit_rates
    GROUP BY tariff_code
)
SELECT e.tariff_code, e.ended, f.last_fetch
FROM ended AS e
JOIN fetched AS f USING (tariff_code)
WHERE NOT e.open_ended AND e.ended <= CAST(today_start AS TIMESTAMPTZ) AND f.last_fetch > e.ended;
