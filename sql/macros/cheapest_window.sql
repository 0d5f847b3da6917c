-- cheapest_window(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL):
-- per series, the cheapest n_slots contiguous half-hours inside [range_from, range_to) (NULL
-- bound = unbounded). Score: mean inc VAT; a missing half-hour breaks a window; ties go to the
-- earliest start (latest := true: the latest); with max_price, no half-hour of the window may
-- cost more inc VAT. A series is (tariff_code, payment_method, rate_type).
-- Optional: highest := true (the highest-priced window instead, same ties), min_price (no
-- half-hour may cost less), weights := [2, 1, 1] (score Σ price × weight, weights padded with 1s
-- to n_slots; scored from each window's prices as a list, dotted with the weights; a constant test
-- plans the unused path away). Flexible lengths and a NULL n_slots: price_windows.
-- source → windows (sums over the n rows ending at each half-hour) → scored → best → final.
CREATE OR REPLACE MACRO cheapest_window(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL,
                                        highest := false, min_price := NULL, weights := NULL) AS TABLE
WITH source AS (
    -- a half-hour outside [min_price, max_price] is dropped, so no complete window can contain it
    SELECT series_code(payment_method, rate_type) AS series, slot_start, value_inc_vat, value_exc_vat
    FROM rate_slots
    WHERE tariff_code = tariff
      AND slot_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND slot_start <= coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity') - INTERVAL 30 MINUTE
      AND (min_price IS NULL OR value_inc_vat >= min_price)
      AND (max_price IS NULL OR value_inc_vat <= max_price)
),
plain AS (
    SELECT series, slot_start,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(slot_start, n_slots - 1) OVER w AS first_start,
           CAST(NULL AS DOUBLE[]) AS prices
    FROM source
    WHERE weights IS NULL
    WINDOW w AS (PARTITION BY series ORDER BY slot_start
                 ROWS BETWEEN n_slots - 1 PRECEDING AND CURRENT ROW)
),
weighted AS (
    SELECT series, slot_start,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(slot_start, n_slots - 1) OVER w AS first_start,
           list(value_inc_vat) OVER w AS prices
    FROM source
    WHERE weights IS NOT NULL
    WINDOW w AS (PARTITION BY series ORDER BY slot_start
                 ROWS BETWEEN n_slots - 1 PRECEDING AND CURRENT ROW)
),
scored AS (
    -- complete: the half-hour n_slots - 1 rows back starts exactly (n_slots - 1) half-hours
    -- earlier (compared in microseconds: cheaper than interval arithmetic on every row)
    SELECT series, sum_inc, sum_exc, first_start,
           CASE WHEN weights IS NULL THEN sum_inc
                ELSE list_dot_product(prices, list_resize(CAST(weights AS DOUBLE[]), n_slots, 1.0)) END AS score
    FROM (SELECT * FROM plain UNION ALL SELECT * FROM weighted)
    WHERE epoch_us(slot_start) - epoch_us(first_start) = CAST(n_slots - 1 AS BIGINT) * 1800000000
),
best AS (
    -- ranked by the score in units of 1e-9 p (summation order cannot split a tie), then by start
    SELECT series,
           arg_min({first_start: first_start, sum_inc: sum_inc, sum_exc: sum_exc, score: score},
                   {sum: CAST(round(CASE WHEN highest THEN -score ELSE score END * 1e9) AS BIGINT),
                    tie: CASE WHEN latest THEN -epoch_us(first_start) ELSE epoch_us(first_start) END}) AS w
    FROM scored
    GROUP BY series
)
SELECT
    -- series
    tariff AS tariff_code,
    series_payment_method(b.series) AS payment_method,
    series_rate_type(b.series) AS rate_type,
    -- the window: UTC instants, then Europe/London wall time with offset
    b.w.first_start AS start,
    b.w.first_start + n_slots * INTERVAL 30 MINUTE AS "end",
    london_iso(b.w.first_start) AS local_start,
    london_iso(b.w.first_start + n_slots * INTERVAL 30 MINUTE) AS local_end,
    CAST(n_slots AS INTEGER) AS slots,
    -- prices, p/kWh
    b.w.sum_inc / n_slots AS mean_inc_vat,
    b.w.sum_exc / n_slots AS mean_exc_vat,
    -- the ranked score as a price: the mean, or with weights Σ price × weight ÷ Σ weight
    b.w.score / CASE WHEN weights IS NULL THEN n_slots
                     ELSE list_sum(list_resize(CAST(weights AS DOUBLE[]), n_slots, 1.0)) END AS score_inc_vat
FROM best AS b
ORDER BY b.series;
