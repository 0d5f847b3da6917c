-- cheapest_window_per_day(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL):
-- per series and Europe/London local day, the cheapest n_slots contiguous half-hours lying inside
-- that local day and inside [range_from, range_to) (NULL bound = unbounded). Score: mean inc VAT;
-- ties go to the earliest start (latest := true: the latest); with max_price, no half-hour of the
-- window may cost more inc VAT. A series is (tariff_code, payment_method, rate_type).
-- source → windows (sums over the n rows ending at each half-hour) → best (per series and day)
-- → located (the window's instants) → final.
-- Optional, as in cheapest_window: highest, min_price, weights (scored from each window's prices
-- as a list, dotted with the weights; a constant test plans the unused path away). Flexible
-- lengths: price_windows(…, per := 'day', length_mode := …).
-- Kept as lean as hand-written SQL: one small partition key, only numbers through the window sort,
-- and the start instant from the day's midnight plus the settlement period, not a sorted column.
CREATE OR REPLACE MACRO cheapest_window_per_day(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL,
                                                highest := false, min_price := NULL, weights := NULL) AS TABLE
WITH source AS (
    -- series_day: the local date moved on a million days per series (series_code 0-8), one exact
    -- key for both; a half-hour above the cap is dropped, so no complete window can contain it
    SELECT local_date + 1000000 * series_code(payment_method, rate_type) AS series_day,
           settlement_period, value_inc_vat, value_exc_vat
    FROM rate_slots
    WHERE tariff_code = tariff
      AND slot_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND slot_start <= coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity') - INTERVAL 30 MINUTE
      AND (min_price IS NULL OR value_inc_vat >= min_price)
      AND (max_price IS NULL OR value_inc_vat <= max_price)
),
plain AS (
    SELECT series_day, settlement_period,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(settlement_period, n_slots - 1) OVER w AS first_period,
           CAST(NULL AS DOUBLE[]) AS prices
    FROM source
    WHERE weights IS NULL
    WINDOW w AS (PARTITION BY series_day ORDER BY settlement_period
                 ROWS BETWEEN n_slots - 1 PRECEDING AND CURRENT ROW)
),
weighted AS (
    SELECT series_day, settlement_period,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(settlement_period, n_slots - 1) OVER w AS first_period,
           list(value_inc_vat) OVER w AS prices
    FROM source
    WHERE weights IS NOT NULL
    WINDOW w AS (PARTITION BY series_day ORDER BY settlement_period
                 ROWS BETWEEN n_slots - 1 PRECEDING AND CURRENT ROW)
),
windows AS (
    SELECT * FROM plain
    UNION ALL
    SELECT * FROM weighted
),
scored AS (
    -- complete windows only (see best); score Σ price × weight, weights padded with 1s
    SELECT series_day, settlement_period, sum_inc, sum_exc, first_period,
           CASE WHEN weights IS NULL THEN sum_inc
                ELSE list_dot_product(prices, list_resize(CAST(weights AS DOUBLE[]), n_slots, 1.0)) END AS score
    FROM windows
    WHERE first_period = settlement_period - (n_slots - 1)
),
best AS (
    -- settlement periods count half-hours from local midnight, so a window is complete exactly
    -- when the period n_slots - 1 rows back is n_slots - 1 less. Ranked by the sum in units of
    -- 1e-9 p (summation order cannot split a tie), then by period (< 64) for the tie-break.
    SELECT series_day,
           CAST((series_day - DATE '1970-01-01' + 500000) // 1000000 AS INTEGER) AS series,
           arg_min({first_period: first_period, sum_inc: sum_inc, sum_exc: sum_exc,
                    score: CASE WHEN weights IS NULL THEN NULL ELSE score END},
                   CAST(round(CASE WHEN highest THEN -score ELSE score END * 1e9) AS BIGINT) * 64
                   + CASE WHEN latest THEN 63 - settlement_period ELSE settlement_period END) AS w
    FROM scored
    GROUP BY series_day
),
located AS (
    SELECT b.w, b.series, d.local_date,
           d.day_start + (b.w.first_period - 1) * INTERVAL 30 MINUTE AS window_start
    FROM best AS b
    JOIN london_days AS d ON d.local_date = b.series_day - 1000000 * b.series
)
SELECT
    -- series and day
    tariff AS tariff_code,
    series_payment_method(series) AS payment_method,
    series_rate_type(series) AS rate_type,
    local_date,
    -- the window: UTC instants, then Europe/London wall time with offset
    window_start AS start,
    window_start + n_slots * INTERVAL 30 MINUTE AS "end",
    london_iso(window_start) AS local_start,
    london_iso(window_start + n_slots * INTERVAL 30 MINUTE) AS local_end,
    CAST(n_slots AS INTEGER) AS slots,
    -- prices, p/kWh
    w.sum_inc / n_slots AS mean_inc_vat,
    w.sum_exc / n_slots AS mean_exc_vat,
    -- the ranked score as a price: the mean, or with weights Σ price × weight ÷ Σ weight
    CASE WHEN weights IS NULL THEN w.sum_inc / n_slots
         ELSE w.score / list_sum(list_resize(CAST(weights AS DOUBLE[]), n_slots, 1.0)) END AS score_inc_vat
FROM located
ORDER BY series, local_date;
