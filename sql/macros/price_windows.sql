-- price_windows(tariff, n_slots, range_from, range_to, per := 'range', band_start_minutes := NULL,
-- band_end_minutes := NULL, latest := false, highest := false, min_price := NULL, max_price :=
-- NULL, weights := NULL, length_mode := 'exact', slot_weights := NULL, slot_prices := NULL): the one window question. cheapest_window
-- and cheapest_window_in_band are named calls of it; cheapest_window_per_day is its fast path for
-- the exact daily question (same answers, tested; the measurement is in its header).
-- One row per series and group: per = 'range' (one group, local_date NULL), 'day' (Europe/London
-- local day) or 'band' (occurrence of the daily wall-clock band, under the local date it starts on;
-- see cheapest_window_in_band).
-- Eligible half-hours: eligible_slots (inside [range_from, range_to) and [min_price, max_price]);
-- slot_prices replaces the prices of the half-hours it names first (see eligible_slots: e.g.
-- Intelligent Octopus Go with dispatches, from effective_rates_with).
-- A window is n_slots contiguous eligible half-hours of one group (n_slots NULL: len(weights)); a
-- missing half-hour breaks it. Score: Σ price × weight inc VAT (weights padded with 1s, or cut, to
-- the window's length; no weights: all 1), each half-hour's weight times its own weight from
-- slot_weights when given (a list of {slot_start, weight}, one per half-hour, weight > 0, e.g.
-- (SELECT list({slot_start: slot_start, weight: weight}) FROM my_weights); half-hours it does not
-- name weigh 1); the lowest wins (highest := true: the highest); ties go
-- to the earliest start (latest := true: the latest). length_mode: 'exact'; 'at_least' (the best
-- n_slots window grows to the whole run of eligible contiguous half-hours holding it); 'at_most' (a
-- group whose longest run is shorter than n_slots gets windows of that run's length).
-- Output: the window, slots, mean_inc_vat and mean_exc_vat over all its half-hours, and
-- score_inc_vat = Σ price × weight ÷ Σ weight of the window that was ranked.
-- grouped → windows (the n rows ending at each half-hour; complete ones kept) → runs (islands,
-- for the flexible lengths only) → candidates → scored → best → stretched (at_least) → final.
-- Each filter on a constant (weights IS NULL, length_mode = …) leaves a branch no rows, so the
-- exact, unweighted question does the work hand-written SQL would.
CREATE OR REPLACE MACRO price_windows(tariff, n_slots, range_from, range_to, per := 'range', band_start_minutes := NULL,
                                      band_end_minutes := NULL, latest := false, highest := false, min_price := NULL,
                                      max_price := NULL, weights := NULL, length_mode := 'exact', slot_weights := NULL,
                                      slot_prices := NULL) AS TABLE
WITH slot_weight_rows AS (
    -- the per-half-hour weights, as rows (none when slot_weights is NULL)
    SELECT w.slot_start, w.weight
    FROM (SELECT unnest(CAST(slot_weights AS STRUCT(slot_start TIMESTAMPTZ, weight DOUBLE)[])) AS w)
),
eligible AS (
    -- every half-hour weighs 1 unless slot_weights names it: one call of eligible_slots, joined to
    -- no rows when slot_weights is NULL (a second branch would be planned on every call)
    SELECT e.series, e.local_date, e.slot_start, e.value_inc_vat, e.value_exc_vat,
           hour(e.local_start) * 60 + minute(e.local_start) AS wall_minute,
           coalesce(sw.weight, 1.0) AS slot_weight
    FROM eligible_slots(tariff, range_from, range_to, min_price, max_price, slot_prices := slot_prices) AS e
    LEFT JOIN slot_weight_rows AS sw ON sw.slot_start = e.slot_start
),
grouped AS (
    SELECT series, slot_start, value_inc_vat, value_exc_vat, slot_weight,
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
    SELECT series, group_date, slot_start,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(slot_start, coalesce(n_slots, len(weights)) - 1) OVER w AS first_start,
           CAST(NULL AS DOUBLE[]) AS prices,
           CAST(NULL AS DOUBLE[]) AS slot_ws
    FROM grouped
    WHERE weights IS NULL AND slot_weights IS NULL
    WINDOW w AS (PARTITION BY series, group_date ORDER BY slot_start
                 ROWS BETWEEN coalesce(n_slots, len(weights)) - 1 PRECEDING AND CURRENT ROW)
),
weighted AS (
    -- the same, with the window's prices as a list for the weights
    SELECT series, group_date, slot_start,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(slot_start, coalesce(n_slots, len(weights)) - 1) OVER w AS first_start,
           list(value_inc_vat) OVER w AS prices,
           CAST(NULL AS DOUBLE[]) AS slot_ws
    FROM grouped
    WHERE weights IS NOT NULL AND slot_weights IS NULL
    WINDOW w AS (PARTITION BY series, group_date ORDER BY slot_start
                 ROWS BETWEEN coalesce(n_slots, len(weights)) - 1 PRECEDING AND CURRENT ROW)
),
slot_weighted AS (
    -- with slot_weights: each price times its half-hour's own weight, and those weights, as lists
    SELECT series, group_date, slot_start,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(slot_start, coalesce(n_slots, len(weights)) - 1) OVER w AS first_start,
           list(value_inc_vat * slot_weight) OVER w AS prices,
           list(slot_weight) OVER w AS slot_ws
    FROM grouped
    WHERE slot_weights IS NOT NULL
    WINDOW w AS (PARTITION BY series, group_date ORDER BY slot_start
                 ROWS BETWEEN coalesce(n_slots, len(weights)) - 1 PRECEDING AND CURRENT ROW)
),
windows AS (
    -- complete: the half-hour n - 1 rows back starts exactly n - 1 half-hours earlier (epoch
    -- microseconds: the same in any session time zone)
    SELECT series, group_date, first_start AS window_start,
           CAST(coalesce(n_slots, len(weights)) AS BIGINT) AS window_slots, sum_inc, sum_exc, prices, slot_ws
    FROM (SELECT * FROM plain UNION ALL SELECT * FROM weighted UNION ALL SELECT * FROM slot_weighted)
    WHERE epoch_us(slot_start) - epoch_us(first_start) = (coalesce(n_slots, len(weights)) - 1) * CAST(1800000000 AS BIGINT)
),
numbered AS (
    -- flexible lengths only: contiguous half-hours share run_key (half-hour number minus position)
    SELECT *,
           epoch_us(slot_start) // 1800000000
           - row_number() OVER (PARTITION BY series, group_date ORDER BY slot_start) AS run_key
    FROM grouped
    WHERE length_mode <> 'exact'
),
runs AS (
    SELECT series, group_date,
           min(slot_start) AS run_start,
           count(*) AS run_slots,
           sum(value_inc_vat) AS run_inc,
           sum(value_exc_vat) AS run_exc,
           list(value_inc_vat * slot_weight ORDER BY slot_start) AS prices,
           list(slot_weight ORDER BY slot_start) AS slot_ws,
           max(count(*)) OVER (PARTITION BY series, group_date) AS longest
    FROM numbered
    GROUP BY series, group_date, run_key
),
candidates AS (
    SELECT * FROM windows
    UNION ALL
    -- at_most: in a group whose longest run is shorter than n_slots, each run that long is a window
    SELECT series, group_date, run_start, run_slots, run_inc, run_exc, prices, slot_ws
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
    -- ranked by the score to 9 decimals (summation order cannot split a tie), then by start
    SELECT series, group_date,
           arg_min({window_start: window_start, window_slots: window_slots, sum_inc: sum_inc, sum_exc: sum_exc,
                    score_inc_vat: score / weight_sum},
                   (round(CASE WHEN highest THEN -score ELSE score END, 9),
                    CASE WHEN latest THEN -epoch_us(window_start) ELSE epoch_us(window_start) END)) AS w
    FROM scored
    GROUP BY series, group_date
),
stretched AS (
    -- at_least: the best window grows to the run holding it
    SELECT b.series, b.group_date, b.w.score_inc_vat,
           coalesce(r.run_start, b.w.window_start) AS window_start,
           coalesce(r.run_slots, b.w.window_slots) AS window_slots,
           coalesce(r.run_inc, b.w.sum_inc) AS sum_inc,
           coalesce(r.run_exc, b.w.sum_exc) AS sum_exc
    FROM best AS b
    LEFT JOIN runs AS r
           ON length_mode = 'at_least'
          AND r.series = b.series
          AND r.group_date IS NOT DISTINCT FROM b.group_date
          AND r.run_start <= b.w.window_start
          AND epoch_us(b.w.window_start) < epoch_us(r.run_start) + r.run_slots * CAST(1800000000 AS BIGINT)
)
SELECT
    -- series and group (the local day or the band's occurrence; NULL for a whole range)
    tariff AS tariff_code,
    series_payment_method(series) AS payment_method,
    series_rate_type(series) AS rate_type,
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
ORDER BY series, group_date;
