-- cheapest_slots(tariff, n, range_from, range_to, latest := false): per series, the n cheapest
-- half-hours (inc VAT) inside [range_from, range_to) (NULL bound = unbounded), in time order.
-- Equal prices go to the earliest half-hours (latest := true: the latest).
-- source → ranked → final.
CREATE OR REPLACE MACRO cheapest_slots(tariff, n, range_from, range_to, latest := false) AS TABLE
WITH source AS (
    SELECT payment_method, rate_type, local_date, slot_start, slot_end, value_inc_vat, value_exc_vat
    FROM rate_slots
    WHERE tariff_code = tariff
      AND slot_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND slot_start <= coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity') - INTERVAL 30 MINUTE
),
ranked AS (
    SELECT *,
           row_number() OVER (PARTITION BY payment_method, rate_type
                              ORDER BY value_inc_vat,
                                       CASE WHEN latest THEN -epoch_us(slot_start) ELSE epoch_us(slot_start) END) AS price_rank
    FROM source
    QUALIFY price_rank <= n
)
SELECT
    -- series
    tariff AS tariff_code,
    payment_method,
    rate_type,
    local_date,
    -- the half-hour: UTC instants, then Europe/London wall time with offset
    slot_start AS start,
    slot_end AS "end",
    london_iso(slot_start) AS local_start,
    london_iso(slot_end) AS local_end,
    -- price, p/kWh, and its rank among the range's half-hours (1 = cheapest)
    value_inc_vat,
    value_exc_vat,
    price_rank
FROM ranked
ORDER BY payment_method, rate_type, start;
