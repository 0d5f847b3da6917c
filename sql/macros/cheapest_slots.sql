-- cheapest_slots(tariff, n, range_from, range_to, latest := false, highest := false,
-- min_price := NULL, max_price := NULL, length_mode := 'exact', per := 'range', slot_weights :=
-- NULL, slot_prices := NULL): per series, the n cheapest half-hours (inc VAT; highest := true: the n highest) inside
-- [range_from, range_to) (NULL bound = unbounded), in time order. Only half-hours inside
-- [min_price, max_price] can be chosen (NULL = no bound; eligible_slots). Equal prices go to the
-- earliest half-hours (latest := true: the latest).
-- length_mode: 'exact' (a series with fewer than n eligible half-hours gets none: asking for n
-- never yields fewer), 'at_most' (up to n: fewer when fewer are eligible), 'at_least' (every
-- eligible half-hour, when there are at least n).
-- per := 'day': n half-hours per series and Europe/London local day (each day on its own, the
-- length mode applying to each day), as a target of intermittent half-hours is chosen per day.
-- slot_weights: a list of {slot_start, weight} (one per half-hour, weight > 0; half-hours it does
-- not name weigh 1), e.g. (SELECT list({slot_start: slot_start, weight: weight}) FROM my_weights):
-- half-hours are ranked by price × weight (the weight shown in weight).
-- slot_prices: prices replacing the tariff's for the half-hours it names, before the bounds apply
-- (see eligible_slots: e.g. Intelligent Octopus Go with dispatches, from effective_rates_with).
-- source → ranked → final.
CREATE OR REPLACE MACRO cheapest_slots(tariff, n, range_from, range_to, latest := false, highest := false,
                                       min_price := NULL, max_price := NULL, length_mode := 'exact', per := 'range',
                                       slot_weights := NULL, slot_prices := NULL) AS TABLE
WITH slot_weight_rows AS (
    SELECT w.slot_start, w.weight
    FROM (SELECT unnest(CAST(slot_weights AS STRUCT(slot_start TIMESTAMPTZ, weight DOUBLE)[])) AS w)
),
source AS (
    -- every half-hour weighs 1 unless slot_weights names it: one call of eligible_slots, joined to
    -- no rows when slot_weights is NULL (a second branch would be planned on every call)
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
