-- cheapest_window_per_day(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL):
-- per series and Europe/London local day, the cheapest n_slots contiguous half-hours lying inside
-- that local day and inside [range_from, range_to) (NULL bound = unbounded). Score: mean inc VAT;
-- ties go to the earliest start (latest := true: the latest); with max_price, no half-hour of the
-- window may cost more inc VAT. A series is (tariff_code, payment_method, rate_type).
-- Optional, as in cheapest_window: highest, min_price, weights (n_slots NULL: len(weights)).
-- Flexible lengths, slot weights and replaced prices: price_windows(…, per := 'day', …).
--
-- THE FAST PATH of the window question, and its only one. It gives the answers of
--   price_windows(tariff, n_slots, range_from, range_to, per := 'day', latest := …, highest := …,
--                 min_price := …, max_price := …, weights := …)
-- (test/analytics-windows.test.ts compares the two for every option over real prices, both clock
-- changes and negative prices included, and each against a brute force), written for the one
-- question asked most: the exact-length daily window, from cron (`cheapest --per-day --check`)
-- and in every export. What makes it fast, and is found nowhere else:
--   * rate_slots read directly, no flexible-length, slot-weight or slot-price branches (DuckDB
--     binds and plans every branch of a macro on every call, whatever its constant filters);
--   * one DATE partitions by series and day (series_day: the local date moved on a million days
--     per series), ordered by the SMALLINT settlement period;
--   * the ranking is one BIGINT (the score in units of 1e-9 p, times 64, plus the first period,
--     < 64, for the tie-break) instead of a struct, and the window's start comes from london_days.
--     A score beyond ±1.4e8 p (weights in the millions) cannot be ranked so: the cast to BIGINT
--     fails with an error rather than rank wrongly (the CLI asks price_windows when weighted).
-- Measured (2026-11-26, 2 cores, 44 tariffs × 76,604 real Agile J half-hours, each tariff a call,
-- best of three alternated, one DuckDB thread on a core of its own; /tmp script over
-- bench/analyticsBench.ts's queries): against the bench's hand-written SQL, price_windows(per :=
-- 'day') 1.33×, the same question written like price_windows but without its other branches
-- 1.15–1.18×, this 1.03–1.09× (one run 1.15, the other core busy). In the full `npm run bench`
-- (131 tariffs, three quiet runs): 1.081–1.174, median 1.106, where the four macros of a30753f
-- gave a median of 1.147 on the same machine (README, Benchmarks).
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
           lag(settlement_period, coalesce(n_slots, len(weights)) - 1) OVER w AS first_period,
           CAST(NULL AS DOUBLE[]) AS prices
    FROM source
    WHERE weights IS NULL
    WINDOW w AS (PARTITION BY series_day ORDER BY settlement_period
                 ROWS BETWEEN coalesce(n_slots, len(weights)) - 1 PRECEDING AND CURRENT ROW)
),
weighted AS (
    SELECT series_day, settlement_period,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(settlement_period, coalesce(n_slots, len(weights)) - 1) OVER w AS first_period,
           list(value_inc_vat) OVER w AS prices
    FROM source
    WHERE weights IS NOT NULL
    WINDOW w AS (PARTITION BY series_day ORDER BY settlement_period
                 ROWS BETWEEN coalesce(n_slots, len(weights)) - 1 PRECEDING AND CURRENT ROW)
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
                ELSE list_dot_product(prices, list_resize(CAST(weights AS DOUBLE[]), coalesce(n_slots, len(weights)), 1.0)) END AS score
    FROM windows
    WHERE first_period = settlement_period - (coalesce(n_slots, len(weights)) - 1)
),
best AS (
    -- settlement periods count half-hours from local midnight, so a window is complete exactly
    -- when the period n - 1 rows back is n - 1 less. Ranked by the sum in units of
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
    window_start + coalesce(n_slots, len(weights)) * INTERVAL 30 MINUTE AS "end",
    london_iso(window_start) AS local_start,
    london_iso(window_start + coalesce(n_slots, len(weights)) * INTERVAL 30 MINUTE) AS local_end,
    CAST(coalesce(n_slots, len(weights)) AS INTEGER) AS slots,
    -- prices, p/kWh
    w.sum_inc / coalesce(n_slots, len(weights)) AS mean_inc_vat,
    w.sum_exc / coalesce(n_slots, len(weights)) AS mean_exc_vat,
    -- the ranked score as a price: the mean, or with weights Σ price × weight ÷ Σ weight
    CASE WHEN weights IS NULL THEN w.sum_inc / coalesce(n_slots, len(weights))
         ELSE w.score / list_sum(list_resize(CAST(weights AS DOUBLE[]), coalesce(n_slots, len(weights)), 1.0)) END AS score_inc_vat
FROM located
ORDER BY series, local_date;
