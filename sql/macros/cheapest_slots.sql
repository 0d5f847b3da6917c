-- cheapest_slots(tariff, n, range_from, range_to, latest := false, highest := false,
-- min_price := NULL, max_price := NULL, length_mode := 'exact'): per series, the n cheapest
-- half-hours (inc VAT; highest := true: the n highest) inside [range_from, range_to) (NULL bound =
-- unbounded), in time order. Only half-hours inside [min_price, max_price] can be chosen (NULL =
-- no bound; eligible_slots). Equal prices go to the earliest half-hours (latest := true: the latest).
-- length_mode: 'exact' (a series with fewer than n eligible half-hours gets none: asking for n
-- never yields fewer), 'at_most' (up to n: fewer when fewer are eligible), 'at_least' (every
-- eligible half-hour, when there are at least n).
-- source → ranked → final.
CREATE OR REPLACE MACRO cheapest_slots(tariff, n, range_from, range_to, latest := false, highest := false,
                                       min_price := NULL, max_price := NULL, length_mode := 'exact') AS TABLE
WITH source AS (
    SELECT payment_method, rate_type, local_date, slot_start, slot_end, value_inc_vat, value_exc_vat
    FROM eligible_slots(tariff, range_from, range_to, min_price, max_price)
),
ranked AS (
    SELECT *,
           row_number() OVER (PARTITION BY payment_method, rate_type
                              ORDER BY CASE WHEN highest THEN -value_inc_vat ELSE value_inc_vat END,
                                       CASE WHEN latest THEN -epoch_us(slot_start) ELSE epoch_us(slot_start) END) AS price_rank,
           count(*) OVER (PARTITION BY payment_method, rate_type) AS eligible
    FROM source
    QUALIFY CASE length_mode WHEN 'at_least' THEN eligible >= n
                             WHEN 'at_most' THEN price_rank <= n
                             ELSE price_rank <= n AND eligible >= n END
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
    -- price, p/kWh, and its rank among the range's eligible half-hours (1 = cheapest; highest: dearest)
    value_inc_vat,
    value_exc_vat,
    price_rank
FROM ranked
ORDER BY payment_method, rate_type, start;
