-- cheapest_window_in_band(tariff, n_slots, band_start_minutes, band_end_minutes, range_from,
-- range_to, latest := false, max_price := NULL): per series and occurrence of a daily band of
-- Europe/London wall-clock time, the cheapest n_slots contiguous half-hours inside that occurrence
-- and inside [range_from, range_to) (NULL bound = unbounded). Same score, ties and cap as
-- cheapest_window.
-- The band holds the half-hours whose local start time t (minutes after local midnight) has
-- band_start <= t < band_end; when band_end <= band_start it crosses midnight (23:00-07:00 is
-- 1380, 420; equal edges make a whole day starting at that time) and an occurrence that starts
-- on local date D belongs to D: its half-hours after midnight are reported under D. Band edges
-- are wall-clock times, so on clock-change nights an occurrence has more or fewer half-hours
-- (23:00-07:00: 14 in March, 18 in October).
-- Optional, as in cheapest_window: highest, min_price, weights. Flexible lengths:
-- price_windows(…, per := 'band', …).
-- slots → source (the band's half-hours, with their occurrence) → windows → scored → best (per
-- occurrence) → final.
CREATE OR REPLACE MACRO cheapest_window_in_band(tariff, n_slots, band_start_minutes, band_end_minutes, range_from, range_to, latest := false, max_price := NULL,
                                                highest := false, min_price := NULL, weights := NULL) AS TABLE
WITH slots AS (
    SELECT payment_method, rate_type, local_date, slot_start, value_inc_vat, value_exc_vat,
           hour(local_start) * 60 + minute(local_start) AS wall_minute
    FROM rate_slots
    WHERE tariff_code = tariff
      AND slot_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND slot_start <= coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity') - INTERVAL 30 MINUTE
      AND (min_price IS NULL OR value_inc_vat >= min_price)
      AND (max_price IS NULL OR value_inc_vat <= max_price)
),
source AS (
    SELECT series_code(payment_method, rate_type) AS series, slot_start, value_inc_vat, value_exc_vat,
           -- the occurrence: after midnight of a band crossing it, the band began the day before
           CASE WHEN wall_minute < band_start_minutes THEN local_date - 1 ELSE local_date END AS band_date
    FROM slots
    WHERE CASE WHEN band_start_minutes < band_end_minutes
               THEN wall_minute >= band_start_minutes AND wall_minute < band_end_minutes
               ELSE wall_minute >= band_start_minutes OR wall_minute < band_end_minutes END
),
plain AS (
    SELECT series, band_date, slot_start,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(slot_start, n_slots - 1) OVER w AS first_start,
           CAST(NULL AS DOUBLE[]) AS prices
    FROM source
    WHERE weights IS NULL
    WINDOW w AS (PARTITION BY series, band_date ORDER BY slot_start
                 ROWS BETWEEN n_slots - 1 PRECEDING AND CURRENT ROW)
),
weighted AS (
    SELECT series, band_date, slot_start,
           sum(value_inc_vat) OVER w AS sum_inc,
           sum(value_exc_vat) OVER w AS sum_exc,
           lag(slot_start, n_slots - 1) OVER w AS first_start,
           list(value_inc_vat) OVER w AS prices
    FROM source
    WHERE weights IS NOT NULL
    WINDOW w AS (PARTITION BY series, band_date ORDER BY slot_start
                 ROWS BETWEEN n_slots - 1 PRECEDING AND CURRENT ROW)
),
scored AS (
    -- complete: the half-hour n_slots - 1 rows back starts exactly (n_slots - 1) half-hours
    -- earlier (compared in microseconds: cheaper than interval arithmetic on every row)
    SELECT series, band_date, sum_inc, sum_exc, first_start,
           CASE WHEN weights IS NULL THEN sum_inc
                ELSE list_dot_product(prices, list_resize(CAST(weights AS DOUBLE[]), n_slots, 1.0)) END AS score
    FROM (SELECT * FROM plain UNION ALL SELECT * FROM weighted)
    WHERE epoch_us(slot_start) - epoch_us(first_start) = CAST(n_slots - 1 AS BIGINT) * 1800000000
),
best AS (
    -- ranked by the score in units of 1e-9 p (summation order cannot split a tie), then by start
    SELECT series, band_date,
           arg_min({first_start: first_start, sum_inc: sum_inc, sum_exc: sum_exc, score: score},
                   {sum: CAST(round(CASE WHEN highest THEN -score ELSE score END * 1e9) AS BIGINT),
                    tie: CASE WHEN latest THEN -epoch_us(first_start) ELSE epoch_us(first_start) END}) AS w
    FROM scored
    GROUP BY series, band_date
)
SELECT
    -- series and the band's occurrence (the local date it starts on)
    tariff AS tariff_code,
    series_payment_method(b.series) AS payment_method,
    series_rate_type(b.series) AS rate_type,
    b.band_date AS local_date,
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
ORDER BY b.series, b.band_date;
