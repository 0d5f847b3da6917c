-- cheapest_slots: per series, the n cheapest half-hours (inc VAT; highest := true: the n highest)
-- inside [range_from, range_to), adjacent or not, in time order; only eligible_slots' half-hours
-- (inside [min_price, max_price], slot_prices first) can be chosen. Ties: the earliest half-hours
-- (latest := true: the latest). length_mode: 'exact' (fewer than n eligible: none), 'at_most' (up
-- to n), 'at_least' (every eligible half-hour, when there are at least n). per := 'day': n per
-- Europe/London local day, each day on its own. slot_weights: a list of {slot_start, weight}
-- (weight > 0; others weigh 1): half-hours ranked by price × weight, shown in weight.
CREATE OR REPLACE MACRO cheapest_slots(tariff, n, range_from, range_to, latest := false, highest := false,
                                       min_price := NULL, max_price := NULL, length_mode := 'exact', per := 'range',
                                       slot_weights := NULL, slot_prices := NULL) AS TABLE
WITH slot_weight_rows AS (
    SELECT w.slot_start, w.weight
    FROM (SELECT unnest(CAST(slot_weights AS STRUCT(slot_start TIMESTAMPTZ, weight DOUBLE)[])) AS w)
),
source AS (
    -- every half-hour weighs 1 unless slot_weights names it
    SELECT e.payment_method, e.rate_type, e.local_date, e.slot_start, e.slot_end, e.value_inc_vat, e.value_exc_vat,
           coalesce(sw.weight, 1.0) AS weight,
           CASE WHEN per = 'day' THEN e.local_date END AS group_date
    FROM eligible_slots(tariff, range_from, range_to, min_price, max_price, slot_prices := slot_prices) AS e
    LEFT JOIN slot_weight_rows AS sw ON sw.slot_start = e.slot_start
),
ranked AS (
    SELECT *,
           row_number() OVER (PARTITION BY payment_method, rate_type, group_date
                              ORDER BY CASE WHEN highest THEN -(value_inc_vat * weight) ELSE value_inc_vat * weight END,
                                       CASE WHEN latest THEN -epoch_us(slot_start) ELSE epoch_us(slot_start) END) AS price_rank,
           count(*) OVER (PARTITION BY payment_method, rate_type, group_date) AS eligible
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
    -- price, p/kWh, and its rank among the range's (per := 'day': the day's) eligible half-hours
    -- (1 = cheapest; highest: dearest; by price × weight when weighted)
    value_inc_vat,
    value_exc_vat,
    price_rank,
    -- the half-hour's weight (1 unless slot_weights names it)
    weight
FROM ranked
ORDER BY payment_method, rate_type, start;
