-- cheapest_window(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL):
-- per series, the cheapest n_slots contiguous half-hours inside [range_from, range_to) (NULL
-- bound = unbounded). Score: mean inc VAT; a missing half-hour breaks a window; ties go to the
-- earliest start (latest := true: the latest); with max_price, no half-hour of the window may
-- cost more inc VAT. A series is (tariff_code, payment_method, rate_type).
-- Optional: highest := true (the highest-priced window instead, same ties), min_price (no
-- half-hour may cost less), weights := [2, 1, 1] (score Σ price × weight; n_slots NULL = its
-- length) and length_mode := 'at_least' | 'at_most' (see price_windows, which answers those two).
-- source → windows (sums over the n rows ending at each half-hour) → best → lean; general → final.
CREATE OR REPLACE MACRO cheapest_window(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL,
                                        highest := false, min_price := NULL, weights := NULL, length_mode := 'exact') AS TABLE
WITH source AS (
    -- a half-hour outside [min_price, max_price] is dropped, so no complete window can contain it;
    -- weights and flexible lengths go to price_windows instead (a constant test: planned away)
    SELECT series_code(payment_method, rate_type) AS series, slot_start, value_inc_vat, value_exc_vat
    FROM rate_slots
    WHERE weights IS NULL AND length_mode = 'exact'
      AND tariff_code = tariff
      AND slot_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND slot_start <= coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity') - INTERVAL 30 MINUTE
      AND (min_price IS NULL OR value_inc_vat >= min_price)
      AND (max_price IS NULL OR value_inc_vat <= max_price)
),
windows AS (
    SELECT series, slot_start,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(slot_start, n_slots - 1) OVER w AS first_start
    FROM source
    WINDOW w AS (PARTITION BY series ORDER BY slot_start
                 ROWS BETWEEN n_slots - 1 PRECEDING AND CURRENT ROW)
),
best AS (
    -- complete: the half-hour n_slots - 1 rows back starts exactly (n_slots - 1) half-hours
    -- earlier (compared in microseconds: cheaper than interval arithmetic on every row).
    -- Ranked by the sum in units of 1e-9 p (summation order cannot split a tie), then by start.
    SELECT series,
           arg_min({first_start: first_start, sum_inc: sum_inc, sum_exc: sum_exc},
                   {sum: CAST(round(CASE WHEN highest THEN -sum_inc ELSE sum_inc END * 1e9) AS BIGINT),
                    tie: CASE WHEN latest THEN -epoch_us(first_start) ELSE epoch_us(first_start) END}) AS w
    FROM windows
    WHERE epoch_us(slot_start) - epoch_us(first_start) = CAST(n_slots - 1 AS BIGINT) * 1800000000
    GROUP BY series
),
lean AS (
SELECT
    -- series
    b.series,
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
    b.w.sum_inc / n_slots AS score_inc_vat
FROM best AS b
),
general AS (
    SELECT series_code(payment_method, rate_type) AS series,
           * EXCLUDE (local_date)
    FROM price_windows(tariff, n_slots, range_from, range_to, 'range', NULL, NULL, latest, highest,
                       min_price, max_price, weights, length_mode)
    WHERE NOT (weights IS NULL AND length_mode = 'exact')
)
SELECT * EXCLUDE (series)
FROM (SELECT * FROM lean UNION ALL BY NAME SELECT * FROM general)
ORDER BY series;
