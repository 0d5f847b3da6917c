-- @answers The n cheapest (or highest) half-hours of a tariff in a range, adjacent or not, per series, in time order.
-- @arg tariff | VARCHAR |  | tariff code
-- @arg n | BIGINT | half-hours | how many
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @arg latest := false | BOOLEAN |  | ties go to the latest instead of the earliest
-- @arg highest := false | BOOLEAN |  | the highest-priced instead of the cheapest
-- @arg min_price := NULL | DOUBLE | p/kWh | half-hours priced below it inc VAT are never chosen
-- @arg max_price := NULL | DOUBLE | p/kWh | half-hours priced above it inc VAT are never chosen
-- @arg length_mode := 'exact' | VARCHAR |  | 'exact', 'at_least' or 'at_most'
-- @arg per := 'range' | VARCHAR |  | 'range', 'day' or 'band' (cheapest_slots: 'range' or 'day')
-- @arg slot_weights := NULL | STRUCT(slot_start TIMESTAMPTZ, weight DOUBLE)[] |  | a weight per half-hour (others weigh 1)
-- @arg slot_prices := NULL | STRUCT(payment_method VARCHAR, slot_start TIMESTAMPTZ, value_inc_vat DOUBLE, value_exc_vat DOUBLE)[] | p/kWh | prices ranked instead of the tariff's own (Intelligent Octopus Go with dispatches)
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column local_date | DATE |  | Europe/London local date
-- @column start | TIMESTAMPTZ | UTC | start
-- @column end | TIMESTAMPTZ | UTC | exclusive end
-- @column local_start | VARCHAR |  | start as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column local_end | VARCHAR |  | end as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column value_inc_vat | DOUBLE | p/kWh | price inc VAT
-- @column value_exc_vat | DOUBLE | p/kWh | price exc VAT
-- @column price_rank | BIGINT |  | 1 = the cheapest half-hour of the range (per := 'day': of the day; highest: the dearest)
-- @column weight | DOUBLE |  | the half-hour's weight (1 unless slot_weights names it)
-- @example SELECT * FROM cheapest_slots('E-1R-AGILE-18-02-21-J', 6, TIMESTAMPTZ '2024-03-31 00:00:00Z', TIMESTAMPTZ '2024-04-01 00:00:00Z')
--
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
