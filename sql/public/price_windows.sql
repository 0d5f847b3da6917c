-- @answers The cheapest (or highest) run of contiguous half-hours of a tariff per series and per range, local day or daily band: the one call the cheapest_window macros name.
-- @arg tariff | VARCHAR |  | tariff code
-- @arg n_slots | INTEGER | half-hours | window length (NULL: len(weights))
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @arg per := 'range' | VARCHAR |  | 'range', 'day' or 'band' (cheapest_slots: 'range' or 'day')
-- @arg band_start_minutes := NULL | INTEGER | minutes | band start after local midnight (0-1439)
-- @arg band_end_minutes := NULL | INTEGER | minutes | band end after local midnight (0-1440; at or before the start: crosses midnight)
-- @arg latest := false | BOOLEAN |  | ties go to the latest instead of the earliest
-- @arg highest := false | BOOLEAN |  | the highest-priced instead of the cheapest
-- @arg min_price := NULL | DOUBLE | p/kWh | half-hours priced below it inc VAT are never chosen
-- @arg max_price := NULL | DOUBLE | p/kWh | half-hours priced above it inc VAT are never chosen
-- @arg weights := NULL | DOUBLE[] |  | positional weights, first half-hour first: score Σ price × weight
-- @arg length_mode := 'exact' | VARCHAR |  | 'exact', 'at_least' or 'at_most'
-- @arg slot_weights := NULL | STRUCT(slot_start TIMESTAMPTZ, weight DOUBLE)[] |  | a weight per half-hour (others weigh 1)
-- @arg slot_prices := NULL | STRUCT(payment_method VARCHAR, slot_start TIMESTAMPTZ, value_inc_vat DOUBLE, value_exc_vat DOUBLE)[] | p/kWh | prices ranked instead of the tariff's own (Intelligent Octopus Go with dispatches)
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column local_date | DATE |  | the local day, or the date the band's occurrence starts on (per := 'range': null)
-- @column start | TIMESTAMPTZ | UTC | start
-- @column end | TIMESTAMPTZ | UTC | exclusive end
-- @column local_start | VARCHAR |  | start as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column local_end | VARCHAR |  | end as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column slots | INTEGER | half-hours | in the window
-- @column mean_inc_vat | DOUBLE | p/kWh | mean price inc VAT
-- @column mean_exc_vat | DOUBLE | p/kWh | mean price exc VAT
-- @column score_inc_vat | DOUBLE | p/kWh | the ranked score: the mean, or with weights Σ price × weight ÷ Σ weight
-- @example SELECT * FROM price_windows('E-1R-AGILE-18-02-21-J', 2, TIMESTAMPTZ '2020-05-23 00:00:00Z', TIMESTAMPTZ '2020-05-25 00:00:00Z', per := 'day', max_price := 0, length_mode := 'at_least')
--
-- price_windows: the cheapest (or highest) run of contiguous half-hours of a tariff, per series and
-- per range, local day or daily band; cheapest_window, cheapest_window_per_day and
-- cheapest_window_in_band are named calls of it. The rules, in one place:
--   group (per): 'range' (local_date NULL), 'day' (Europe/London local day) or 'band' (an
--     occurrence of [band_start_minutes, band_end_minutes) of wall-clock time, under the date it starts);
--   eligible: eligible_slots (inside [range_from, range_to) and [min_price, max_price], slot_prices first);
--   window: n_slots (NULL: len(weights)) contiguous eligible half-hours of one group;
--   score: Σ price × weight (weights padded with ones or cut to the window; times slot_weights'
--     weight of each half-hour, 1 where it names none); shown as score_inc_vat = score ÷ Σ weight;
--   ties: the score to 9 decimals, then the earliest start (latest := true: the latest);
--   length_mode: 'exact'; 'at_least' (the best window grows to its run of eligible half-hours);
--     'at_most' (a group whose longest run is shorter than n_slots gets windows of that run's length).
CREATE OR REPLACE MACRO price_windows(tariff, n_slots, range_from, range_to, per := 'range', band_start_minutes := NULL,
                                      band_end_minutes := NULL, latest := false, highest := false, min_price := NULL,
                                      max_price := NULL, weights := NULL, length_mode := 'exact', slot_weights := NULL,
                                      slot_prices := NULL) AS TABLE
WITH slot_weight_rows AS (
    SELECT w.slot_start, w.weight
    FROM (SELECT unnest(CAST(slot_weights AS STRUCT(slot_start TIMESTAMPTZ, weight DOUBLE)[])) AS w)
),
eligible AS (
    SELECT e.payment_method, e.rate_type, e.local_date, e.slot_start, e.value_inc_vat, e.value_exc_vat,
           hour(e.local_start) * 60 + minute(e.local_start) AS wall_minute,
           coalesce(sw.weight, 1.0) AS slot_weight
    FROM eligible_slots(tariff, range_from, range_to, min_price, max_price, slot_prices := slot_prices) AS e
    LEFT JOIN slot_weight_rows AS sw ON sw.slot_start = e.slot_start
),
grouped AS (
    SELECT payment_method, rate_type, slot_start, value_inc_vat, value_exc_vat, slot_weight,
           CASE per WHEN 'range' THEN CAST(NULL AS DATE)
                    WHEN 'day' THEN local_date
                    -- after midnight of a band crossing it, the band began the day before
                    ELSE CASE WHEN wall_minute < band_start_minutes THEN local_date - 1 ELSE local_date END
           END AS group_date
    FROM eligible
    WHERE per <> 'band'
       OR CASE WHEN band_start_minutes < band_end_minutes
               THEN wall_minute >= band_start_minutes AND wall_minute < band_end_minutes
               ELSE wall_minute >= band_start_minutes OR wall_minute < band_end_minutes END
),
plain AS (
    -- the n rows ending at each half-hour, unweighted: their sums
    SELECT payment_method, rate_type, group_date, slot_start,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(slot_start, coalesce(n_slots, len(weights)) - 1) OVER w AS first_start,
           lag(group_date, coalesce(n_slots, len(weights)) - 1) OVER w AS first_group,
           CAST(NULL AS DOUBLE[]) AS prices,
           CAST(NULL AS DOUBLE[]) AS slot_ws
    FROM grouped
    WHERE weights IS NULL AND slot_weights IS NULL
    WINDOW w AS (PARTITION BY payment_method, rate_type ORDER BY slot_start
                 ROWS BETWEEN coalesce(n_slots, len(weights)) - 1 PRECEDING AND CURRENT ROW)
),
weighted AS (
    -- the same with positional weights: also the window's prices as a list
    SELECT payment_method, rate_type, group_date, slot_start,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(slot_start, coalesce(n_slots, len(weights)) - 1) OVER w AS first_start,
           lag(group_date, coalesce(n_slots, len(weights)) - 1) OVER w AS first_group,
           list(value_inc_vat) OVER w AS prices,
           CAST(NULL AS DOUBLE[]) AS slot_ws
    FROM grouped
    WHERE weights IS NOT NULL AND slot_weights IS NULL
    WINDOW w AS (PARTITION BY payment_method, rate_type ORDER BY slot_start
                 ROWS BETWEEN coalesce(n_slots, len(weights)) - 1 PRECEDING AND CURRENT ROW)
),
slot_weighted AS (
    -- with slot_weights: each price times its half-hour's weight, and those weights, as lists
    SELECT payment_method, rate_type, group_date, slot_start,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(slot_start, coalesce(n_slots, len(weights)) - 1) OVER w AS first_start,
           lag(group_date, coalesce(n_slots, len(weights)) - 1) OVER w AS first_group,
           list(value_inc_vat * slot_weight) OVER w AS prices,
           list(slot_weight) OVER w AS slot_ws
    FROM grouped
    WHERE slot_weights IS NOT NULL
    WINDOW w AS (PARTITION BY payment_method, rate_type ORDER BY slot_start
                 ROWS BETWEEN coalesce(n_slots, len(weights)) - 1 PRECEDING AND CURRENT ROW)
),
windows AS (
    -- complete: the first half-hour starts exactly n - 1 half-hours earlier (a missing one breaks
    -- it) and in the same group (the frames run along a whole series, not one group)
    SELECT payment_method, rate_type, group_date, first_start AS window_start,
           CAST(coalesce(n_slots, len(weights)) AS BIGINT) AS window_slots, sum_inc, sum_exc, prices, slot_ws
    FROM (SELECT * FROM plain UNION ALL SELECT * FROM weighted UNION ALL SELECT * FROM slot_weighted)
    WHERE epoch_us(slot_start) - epoch_us(first_start) = (coalesce(n_slots, len(weights)) - 1) * CAST(1800000000 AS BIGINT)
      AND first_group IS NOT DISTINCT FROM group_date
),
runs AS (
    -- flexible lengths only: the runs of contiguous eligible half-hours (half-hour number minus position)
    SELECT payment_method, rate_type, group_date,
           min(slot_start) AS run_start,
           count(*) AS run_slots,
           sum(value_inc_vat) AS run_inc,
           sum(value_exc_vat) AS run_exc,
           list(value_inc_vat * slot_weight ORDER BY slot_start) AS prices,
           list(slot_weight ORDER BY slot_start) AS slot_ws,
           max(count(*)) OVER (PARTITION BY payment_method, rate_type, group_date) AS longest
    FROM (SELECT *,
                 epoch_us(slot_start) // 1800000000
                 - row_number() OVER (PARTITION BY payment_method, rate_type, group_date ORDER BY slot_start) AS run_key
          FROM grouped
          WHERE length_mode <> 'exact')
    GROUP BY payment_method, rate_type, group_date, run_key
),
candidates AS (
    SELECT * FROM windows
    UNION ALL
    -- at_most: in a group whose longest run is shorter than n_slots, each run that long is a window
    SELECT payment_method, rate_type, group_date, run_start, run_slots, run_inc, run_exc, prices, slot_ws
    FROM runs
    WHERE length_mode = 'at_most' AND longest < coalesce(n_slots, len(weights)) AND run_slots = longest
),
scored AS (
    SELECT *,
           CASE WHEN weights IS NULL AND slot_weights IS NULL THEN sum_inc
                ELSE list_dot_product(prices, list_resize(coalesce(CAST(weights AS DOUBLE[]), CAST([] AS DOUBLE[])), window_slots, 1.0)) END AS score,
           CASE WHEN weights IS NULL AND slot_weights IS NULL THEN window_slots
                WHEN slot_weights IS NULL THEN list_sum(list_resize(CAST(weights AS DOUBLE[]), window_slots, 1.0))
                ELSE list_dot_product(slot_ws, list_resize(coalesce(CAST(weights AS DOUBLE[]), CAST([] AS DOUBLE[])), window_slots, 1.0)) END AS weight_sum
    FROM candidates
),
best AS (
    -- the tie rules: the score to 9 decimals (summation order cannot split a tie), then the start
    SELECT payment_method, rate_type, group_date,
           arg_min({window_start: window_start, window_slots: window_slots, sum_inc: sum_inc, sum_exc: sum_exc,
                    score_inc_vat: score / weight_sum},
                   (round(CASE WHEN highest THEN -score ELSE score END, 9),
                    CASE WHEN latest THEN -epoch_us(window_start) ELSE epoch_us(window_start) END)) AS w
    FROM scored
    GROUP BY payment_method, rate_type, group_date
),
stretched AS (
    -- at_least: the best window grows to the run holding it
    SELECT b.payment_method, b.rate_type, b.group_date, b.w.score_inc_vat,
           coalesce(r.run_start, b.w.window_start) AS window_start,
           coalesce(r.run_slots, b.w.window_slots) AS window_slots,
           coalesce(r.run_inc, b.w.sum_inc) AS sum_inc,
           coalesce(r.run_exc, b.w.sum_exc) AS sum_exc
    FROM best AS b
    LEFT JOIN runs AS r
           ON length_mode = 'at_least'
          AND r.rate_type = b.rate_type
          AND r.payment_method IS NOT DISTINCT FROM b.payment_method
          AND r.group_date IS NOT DISTINCT FROM b.group_date
          AND r.run_start <= b.w.window_start
          AND epoch_us(b.w.window_start) < epoch_us(r.run_start) + r.run_slots * CAST(1800000000 AS BIGINT)
)
SELECT
    -- series and group (the local day or the band's occurrence; NULL for a whole range)
    tariff AS tariff_code,
    payment_method,
    rate_type,
    group_date AS local_date,
    -- the window: UTC instants, then Europe/London wall time with offset
    window_start AS start,
    window_start + window_slots * INTERVAL 30 MINUTE AS "end",
    london_iso(window_start) AS local_start,
    london_iso(window_start + window_slots * INTERVAL 30 MINUTE) AS local_end,
    CAST(window_slots AS INTEGER) AS slots,
    -- prices, p/kWh
    sum_inc / window_slots AS mean_inc_vat,
    sum_exc / window_slots AS mean_exc_vat,
    score_inc_vat
FROM stretched
ORDER BY payment_method NULLS FIRST, rate_type, group_date;
