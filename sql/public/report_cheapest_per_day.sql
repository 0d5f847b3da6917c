-- @answers The rows of an export's cheapest_<h>h_per_day file: each Europe/London day's cheapest n_slots contiguous half-hours, per series.
-- @arg tariff_codes | VARCHAR[] |  | tariff codes
-- @arg n_slots | INTEGER | half-hours | window length (2 × hours)
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column local_date | DATE |  | Europe/London local date
-- @column local_start | VARCHAR |  | deprecated: start as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column start_utc | TIMESTAMPTZ | UTC | the window's first half-hour's start
-- @column local_end | VARCHAR |  | deprecated: end as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column end_utc | TIMESTAMPTZ | UTC | the window's last half-hour's end
-- @column slots | INTEGER | half-hours | in the window
-- @column mean_inc_vat | DECIMAL(10,4) | p/kWh | mean price inc VAT, rounded as the files round it
-- @column mean_exc_vat | DECIMAL(10,4) | p/kWh | mean price exc VAT, rounded as the files round it
-- @example SELECT * FROM report_cheapest_per_day(['E-1R-AGILE-18-02-21-J'], 4, TIMESTAMPTZ '2023-06-01 00:00:00+01', TIMESTAMPTZ '2023-06-08 00:00:00+01')
--
-- report_cheapest_per_day(tariff_codes, n_slots, range_from, range_to): the rows of an export's
-- cheapest_<h>h_per_day file (n_slots = 2 × h): per series of the listed tariffs (VARCHAR[]) and
-- Europe/London local day, the cheapest n_slots contiguous half-hours inside that day and inside
-- [range_from, range_to) (TIMESTAMPTZ), as cheapest_window_per_day finds them, prices rounded as
-- the files round them. Ordered by series (tariff_code, payment_method NULLS FIRST, rate_type), local_date.
-- Columns: tariff_code, payment_method (null: one price for both), rate_type; local_date (DATE);
-- local_start, local_end (VARCHAR, deprecated: London wall time with its offset, ISO 8601: the
-- offset changes within a column across a clock change); start_utc, end_utc (TIMESTAMPTZ: the
-- window's first half-hour's start, its last one's end); slots (INTEGER); mean_inc_vat,
-- mean_exc_vat (DECIMAL(10,4), pence per kWh).
CREATE OR REPLACE MACRO report_cheapest_per_day(tariff_codes, n_slots, range_from, range_to) AS TABLE
SELECT w.tariff_code, w.payment_method, w.rate_type, w.local_date,
       w.local_start, w.start AS start_utc,
       w.local_end, w."end" AS end_utc,
       CAST(w.slots AS INTEGER) AS slots,
       CAST(round_price(w.mean_inc_vat) AS DECIMAL(10, 4)) AS mean_inc_vat,
       CAST(round_price(w.mean_exc_vat) AS DECIMAL(10, 4)) AS mean_exc_vat
FROM (SELECT unnest(CAST(tariff_codes AS VARCHAR[])) AS code) AS t,
     LATERAL cheapest_window_per_day(t.code, n_slots,
                                     CAST(range_from AS TIMESTAMPTZ), CAST(range_to AS TIMESTAMPTZ)) AS w
ORDER BY w.tariff_code, w.payment_method NULLS FIRST, w.rate_type, w.local_date;
