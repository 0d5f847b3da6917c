-- cheapest_window_per_day(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL):
-- per series and Europe/London local day, the cheapest n_slots contiguous half-hours lying inside
-- that local day and inside [range_from, range_to) (NULL bound = unbounded). Score: mean inc VAT;
-- ties go to the earliest start (latest := true: the latest); with max_price, no half-hour of the
-- window may cost more inc VAT. A series is (tariff_code, payment_method, rate_type).
-- source → windows (sums over the n rows ending at each half-hour) → best (per series and day)
-- → located (the window's instants) → lean; general → final.
-- Optional, as in cheapest_window: highest, min_price, weights, length_mode (the last two are
-- answered by price_windows; a constant test plans the other path away).
-- Kept as lean as hand-written SQL: one small partition key, only numbers through the window sort,
-- and the start instant from the day's midnight plus the settlement period, not a sorted column.
CREATE OR REPLACE MACRO cheapest_window_per_day(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL,
                                                highest := false, min_price := NULL, weights := NULL, length_mode := 'exact') AS TABLE
WITH source AS (
    -- series_day: the local date moved on a million days per series (series_code 0-8), one exact
    -- key for both; a half-hour above the cap is dropped, so no complete window can contain it
    SELECT local_date + 1000000 * series_code(payment_method, rate_type) AS series_day,
           settlement_period, value_inc_vat, value_exc_vat
    FROM rate_slots
    WHERE weights IS NULL AND length_mode = 'exact'
      AND tariff_code = tariff
      AND slot_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND slot_start <= coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity') - INTERVAL 30 MINUTE
      AND (min_price IS NULL OR value_inc_vat >= min_price)
      AND (max_price IS NULL OR value_inc_vat <= max_price)
),
windows AS (
    SELECT series_day, settlement_period,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(settlement_period, n_slots - 1) OVER w AS first_period
    FROM source
    WINDOW w AS (PARTITION BY series_day ORDER BY settlement_period
                 ROWS BETWEEN n_slots - 1 PRECEDING AND CURRENT ROW)
),
best AS (
    -- settlement periods count half-hours from local midnight, so a window is complete exactly
    -- when the period n_slots - 1 rows back is n_slots - 1 less. Ranked by the sum in units of
    -- 1e-9 p (summation order cannot split a tie), then by period (< 64) for the tie-break.
    SELECT series_day,
           CAST((series_day - DATE '1970-01-01' + 500000) // 1000000 AS INTEGER) AS series,
           arg_min({first_period: first_period, sum_inc: sum_inc, sum_exc: sum_exc},
                   CAST(round(CASE WHEN highest THEN -sum_inc ELSE sum_inc END * 1e9) AS BIGINT) * 64
                   + CASE WHEN latest THEN 63 - settlement_period ELSE settlement_period END) AS w
    FROM windows
    WHERE first_period = settlement_period - (n_slots - 1)
    GROUP BY series_day
),
located AS (
    SELECT b.w, b.series, d.local_date,
           d.day_start + (b.w.first_period - 1) * INTERVAL 30 MINUTE AS window_start
    FROM best AS b
    JOIN london_days AS d ON d.local_date = b.series_day - 1000000 * b.series
),
lean AS (
SELECT
    -- series and day
    series,
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
    w.sum_inc / n_slots AS score_inc_vat
FROM located
),
general AS (
    SELECT series_code(payment_method, rate_type) AS series, *
    FROM price_windows(tariff, n_slots, range_from, range_to, 'day', NULL, NULL, latest, highest,
                       min_price, max_price, weights, length_mode)
    WHERE NOT (weights IS NULL AND length_mode = 'exact')
)
SELECT * EXCLUDE (series)
FROM (SELECT * FROM lean UNION ALL BY NAME SELECT * FROM general)
ORDER BY series, local_date;
