-- @answers Contiguous runs of half-hours priced below zero inc VAT, per series.
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column start | TIMESTAMPTZ | UTC | start
-- @column end | TIMESTAMPTZ | UTC | exclusive end
-- @column local_date | DATE |  | the local date of the run's start
-- @column local_start | VARCHAR |  | start as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column local_end | VARCHAR |  | end as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column slots | INTEGER | half-hours | in the run
-- @column min_inc_vat | DOUBLE | p/kWh | lowest price inc VAT
-- @column mean_inc_vat | DOUBLE | p/kWh | mean price inc VAT
-- @column mean_exc_vat | DOUBLE | p/kWh | mean price exc VAT
--
-- negative_runs: contiguous stretches of half-hours priced below zero inc VAT, per series: when
-- they started and ended, how long they lasted and how negative they got.
-- source → numbered (gaps and islands: half-hour index minus row number is constant along a run)
-- → runs → final.
CREATE OR REPLACE VIEW negative_runs AS
WITH source AS (
    SELECT tariff_code, payment_method, rate_type, slot_start, value_inc_vat, value_exc_vat
    FROM rate_slots
    WHERE value_inc_vat < 0
),
numbered AS (
    SELECT *,
           CAST(epoch(slot_start) AS BIGINT) // 1800
           - row_number() OVER (PARTITION BY tariff_code, payment_method, rate_type ORDER BY slot_start) AS run_key
    FROM source
),
runs AS (
    SELECT tariff_code, payment_method, rate_type,
           min(slot_start) AS start,
           max(slot_start) + INTERVAL 30 MINUTE AS "end",
           count(*) AS slots,
           min(value_inc_vat) AS min_inc_vat,
           avg(value_inc_vat) AS mean_inc_vat,
           avg(value_exc_vat) AS mean_exc_vat
    FROM numbered
    GROUP BY tariff_code, payment_method, rate_type, run_key
)
SELECT
    -- series
    tariff_code,
    payment_method,
    rate_type,
    -- the run: UTC instants, then Europe/London day (of its start) and wall times with offset
    start,
    "end",
    london_local(start).local_date AS local_date,
    london_iso(start) AS local_start,
    london_iso("end") AS local_end,
    CAST(slots AS INTEGER) AS slots,
    -- prices, p/kWh
    min_inc_vat,
    mean_inc_vat,
    mean_exc_vat
FROM runs;
