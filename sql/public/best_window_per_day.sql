-- @answers The best run of n_slots contiguous half-hours in each Europe/London day, per series of the listed tariffs: an import tariff's cheapest, an export tariff's dearest.
-- @arg tariffs | VARCHAR[] |  | tariff codes
-- @arg n_slots | INTEGER | half-hours | window length
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column series_label | VARCHAR |  | the series' name (series_label)
-- @column highest | BOOLEAN |  | the dearest window (an export tariff's), not the cheapest
-- @column local_date | DATE |  | Europe/London local date
-- @column settlement_period | INTEGER |  | 1..46/48/50: the half-hour of the local day the window starts in
-- @column start | TIMESTAMPTZ | UTC | start
-- @column end | TIMESTAMPTZ | UTC | exclusive end
-- @column local_start | VARCHAR |  | start as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column local_end | VARCHAR |  | end as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column slots | INTEGER | half-hours | in the window
-- @column mean_inc_vat | DECIMAL(10,4) | p/kWh | mean price inc VAT, rounded as the exported files round it
-- @column mean_exc_vat | DECIMAL(10,4) | p/kWh | mean price exc VAT, rounded as the exported files round it
-- @example SELECT * FROM best_window_per_day(['E-1R-AGILE-18-02-21-J', 'E-1R-AGILE-OUTGOING-19-05-13-C'], 4, TIMESTAMPTZ '2023-06-01 00:00:00+01', TIMESTAMPTZ '2023-06-08 00:00:00+01')
--
-- best_window_per_day(tariffs, n_slots, range_from, range_to): per series of the listed tariffs
-- (VARCHAR[]) and Europe/London local day, the best n_slots contiguous half-hours lying inside that
-- day and inside [range_from, range_to) (TIMESTAMPTZ): an import tariff's cheapest, an export
-- tariff's dearest (when exporting pays most), as cheapest_window_per_day finds them (the
-- tariff's direction: tariff_direction). The HTML page marks them on its day and month charts.
-- Ordered by tariff_code, payment_method (NULLS FIRST), rate_type, local_date.
-- Columns: tariff_code, payment_method, rate_type, series_label (VARCHAR, see price_series);
-- highest (BOOLEAN: the dearest window, an export tariff's); local_date (DATE);
-- settlement_period (INTEGER: the half-hour of the local day the window starts in, 1 at
-- midnight, up to 46, 48 or 50); start, "end" (TIMESTAMPTZ); local_start, local_end (VARCHAR:
-- London wall time with its offset, ISO 8601); slots (INTEGER); mean_inc_vat, mean_exc_vat
-- (DECIMAL(10,4), pence per kWh, rounded as the exported files round them).
CREATE OR REPLACE MACRO best_window_per_day(tariffs, n_slots, range_from, range_to) AS TABLE
WITH listed AS (
    SELECT code, tariff_direction(code) = 'EXPORT' AS highest
    FROM (SELECT DISTINCT unnest(CAST(tariffs AS VARCHAR[])) AS code)
),
windows AS (
    SELECT t.highest, w.*
    FROM listed AS t,
         LATERAL cheapest_window_per_day(t.code, n_slots, CAST(range_from AS TIMESTAMPTZ), CAST(range_to AS TIMESTAMPTZ),
                                         highest := t.highest) AS w
)
SELECT
    -- the series and the day
    w.tariff_code,
    w.payment_method,
    w.rate_type,
    series_label(w.tariff_code, w.payment_method, w.rate_type) AS series_label,
    w.highest,
    w.local_date,
    -- the window: where it starts in the day, its instants and wall times
    CAST((epoch(w.start) - epoch(d.day_start)) / 1800 + 1 AS INTEGER) AS settlement_period,
    w.start,
    w."end",
    w.local_start,
    w.local_end,
    w.slots,
    -- prices, p/kWh
    CAST(round_price(w.mean_inc_vat) AS DECIMAL(10, 4)) AS mean_inc_vat,
    CAST(round_price(w.mean_exc_vat) AS DECIMAL(10, 4)) AS mean_exc_vat
FROM windows AS w
JOIN london_days AS d ON d.local_date = w.local_date
ORDER BY w.tariff_code, w.payment_method NULLS FIRST, w.rate_type, w.local_date;
