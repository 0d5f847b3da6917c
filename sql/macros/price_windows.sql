-- price_windows(tariff, n_slots, range_from, range_to, per := 'range', band_start_minutes := NULL,
-- band_end_minutes := NULL, latest := false, highest := false, min_price := NULL, max_price :=
-- NULL, weights := NULL, length_mode := 'exact'): every window question in one macro, with
-- flexible lengths, which cheapest_window, cheapest_window_per_day and cheapest_window_in_band
-- (leaner, for the exact length) do not offer; the same answers as they in 'exact'. One row per series and
-- group: per = 'range' (one group, local_date NULL), 'day' (Europe/London local day) or 'band'
-- (occurrence of the daily wall-clock band, under the date it starts on).
-- Eligible half-hours: inside [range_from, range_to) and inside [min_price, max_price] inc VAT
-- (NULL = no bound). A window is n_slots contiguous eligible half-hours of one group (n_slots NULL:
-- len(weights)). Score: Σ price × weight (weights padded with 1s, or cut, to the window's length;
-- no weights: all 1), the lowest wins (highest := true: the highest); ties go to the earliest start
-- (latest: the latest). length_mode: 'exact'; 'at_least' (the best n_slots window grows to the whole
-- run of eligible contiguous half-hours holding it); 'at_most' (a group whose longest run is
-- shorter than n_slots gets windows of that run's length).
-- Output: the window, slots, mean_inc_vat and mean_exc_vat over all its half-hours, and
-- score_inc_vat = Σ price × weight ÷ Σ weight of the n_slots window that was ranked.
-- slots → source (group) → runs (islands of contiguous half-hours) → sized → windows → best → final.
CREATE OR REPLACE MACRO price_windows(tariff, n_slots, range_from, range_to, per := 'range', band_start_minutes := NULL,
                                      band_end_minutes := NULL, latest := false, highest := false, min_price := NULL,
                                      max_price := NULL, weights := NULL, length_mode := 'exact') AS TABLE
WITH slots AS (
    SELECT series_code(payment_method, rate_type) AS series, local_date, slot_start, value_inc_vat, value_exc_vat,
           hour(local_start) * 60 + minute(local_start) AS wall_minute
    FROM rate_slots
    WHERE tariff_code = tariff
      AND slot_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND slot_start <= coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity') - INTERVAL 30 MINUTE
      AND (min_price IS NULL OR value_inc_vat >= min_price)
      AND (max_price IS NULL OR value_inc_vat <= max_price)
),
source AS (
    SELECT series, slot_start, value_inc_vat, value_exc_vat,
           CASE per WHEN 'range' THEN CAST(NULL AS DATE)
                    WHEN 'day' THEN local_date
                    -- a band crossing midnight began the day before
                    ELSE CASE WHEN wall_minute < band_start_minutes THEN local_date - 1 ELSE local_date END
           END AS group_date
    FROM slots
    WHERE per <> 'band'
       OR CASE WHEN band_start_minutes < band_end_minutes
               THEN wall_minute >= band_start_minutes AND wall_minute < band_end_minutes
               ELSE wall_minute >= band_start_minutes OR wall_minute < band_end_minutes END
),
runs AS (
    -- contiguous half-hours share run_key: half-hour number minus position
    SELECT *, epoch_us(slot_start) // 1800000000
              - row_number() OVER (PARTITION BY series, group_date ORDER BY slot_start) AS run_key
    FROM source
),
measured AS (
    SELECT *,
           count(*) OVER r AS run_slots,
           min(slot_start) OVER r AS run_start,
           sum(value_inc_vat) OVER r AS run_inc,
           sum(value_exc_vat) OVER r AS run_exc,
           row_number() OVER (PARTITION BY series, group_date, run_key ORDER BY slot_start) AS pos
    FROM runs
    WINDOW r AS (PARTITION BY series, group_date, run_key)
),
sized AS (
    SELECT *,
           CAST(CASE WHEN length_mode = 'at_most'
                     THEN least(coalesce(n_slots, len(weights)), max(run_slots) OVER (PARTITION BY series, group_date))
                     ELSE coalesce(n_slots, len(weights)) END AS BIGINT) AS window_slots
    FROM measured
),
windows AS (
    SELECT series, group_date, slot_start, pos, window_slots, run_start, run_slots, run_inc, run_exc,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           list(value_inc_vat) OVER w AS prices
    FROM sized
    WINDOW w AS (PARTITION BY series, group_date, run_key ORDER BY slot_start
                 ROWS BETWEEN window_slots - 1 PRECEDING AND CURRENT ROW)
),
scored AS (
    -- complete windows only: the run holds window_slots half-hours up to this one
    SELECT *,
           slot_start - (window_slots - 1) * INTERVAL 30 MINUTE AS window_start,
           CASE WHEN weights IS NULL THEN sum_inc
                ELSE list_dot_product(prices, list_resize(CAST(weights AS DOUBLE[]), window_slots, 1.0)) END AS score,
           CASE WHEN weights IS NULL THEN window_slots
                ELSE list_sum(list_resize(CAST(weights AS DOUBLE[]), window_slots, 1.0)) END AS weight_sum
    FROM windows
    WHERE pos >= window_slots
),
best AS (
    -- ranked by the score in units of 1e-9 p (summation order cannot split a tie), then by start
    SELECT series, group_date,
           arg_min({window_start: window_start, window_slots: window_slots, sum_inc: sum_inc, sum_exc: sum_exc,
                    score: score / weight_sum, run_start: run_start, run_slots: run_slots, run_inc: run_inc, run_exc: run_exc},
                   {score: CAST(round(CASE WHEN highest THEN -score ELSE score END * 1e9) AS BIGINT),
                    tie: CASE WHEN latest THEN -epoch_us(window_start) ELSE epoch_us(window_start) END}) AS w
    FROM scored
    GROUP BY series, group_date
),
located AS (
    SELECT series, group_date, w.score,
           CASE WHEN length_mode = 'at_least' THEN w.run_start ELSE w.window_start END AS window_start,
           CASE WHEN length_mode = 'at_least' THEN w.run_slots ELSE w.window_slots END AS window_slots,
           CASE WHEN length_mode = 'at_least' THEN w.run_inc ELSE w.sum_inc END AS sum_inc,
           CASE WHEN length_mode = 'at_least' THEN w.run_exc ELSE w.sum_exc END AS sum_exc
    FROM best
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
    score AS score_inc_vat
FROM located
ORDER BY series, group_date;
