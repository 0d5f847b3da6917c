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
