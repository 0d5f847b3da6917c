-- @answers The rows of an export's negative_runs file: the runs of negative prices of the listed tariffs that overlap a range, each whole.
-- @arg tariff_codes | VARCHAR[] |  | tariff codes (NULL: every tariff)
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start; write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column local_date | DATE |  | the Europe/London local date of the run's first half-hour
-- @column local_start | VARCHAR |  | deprecated: start as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column start_utc | TIMESTAMPTZ | UTC | the run's start
-- @column local_end | VARCHAR |  | deprecated: end as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column end_utc | TIMESTAMPTZ | UTC | the run's exclusive end
-- @column slots | INTEGER | half-hours | in the run
-- @column min_inc_vat | DECIMAL(10,4) | p/kWh | lowest price inc VAT, rounded as the files round it
-- @column mean_inc_vat | DECIMAL(10,4) | p/kWh | mean price inc VAT, rounded as the files round it
-- @column mean_exc_vat | DECIMAL(10,4) | p/kWh | mean price exc VAT, rounded as the files round it
-- @example SELECT * FROM report_negative_runs(['E-1R-AGILE-24-10-01-N'], TIMESTAMPTZ '2026-04-01 00:00:00Z', TIMESTAMPTZ '2026-04-08 00:00:00+01')
--
-- report_negative_runs(tariff_codes, range_from, range_to): the rows of an export's negative_runs
-- file: the runs of negative_runs of the listed tariffs (VARCHAR[]; NULL: every tariff) that
-- overlap [range_from, range_to) (TIMESTAMPTZ), each whole (as `tariffs negative --runs`), prices
-- rounded as the files round them. Ordered by series (tariff_code, payment_method NULLS FIRST,
-- rate_type), then start.
-- Columns: tariff_code, payment_method (null: one price for both), rate_type; local_date (DATE: the
-- run's first half-hour's Europe/London day); local_start, local_end (VARCHAR, deprecated: London
-- wall time with its offset, ISO 8601); start_utc, end_utc (TIMESTAMPTZ); slots (INTEGER,
-- half-hours); min_inc_vat, mean_inc_vat, mean_exc_vat (DECIMAL(10,4), pence per kWh).
CREATE OR REPLACE MACRO report_negative_runs(tariff_codes, range_from, range_to) AS TABLE
SELECT tariff_code, payment_method, rate_type, local_date,
       local_start,
       start AS start_utc,
       local_end,
       "end" AS end_utc,
       CAST(slots AS INTEGER) AS slots,
       CAST(round_price(min_inc_vat) AS DECIMAL(10, 4)) AS min_inc_vat,
       CAST(round_price(mean_inc_vat) AS DECIMAL(10, 4)) AS mean_inc_vat,
       CAST(round_price(mean_exc_vat) AS DECIMAL(10, 4)) AS mean_exc_vat
FROM negative_runs
WHERE (tariff_codes IS NULL OR list_contains(CAST(tariff_codes AS VARCHAR[]), tariff_code))
  AND "end" > CAST(range_from AS TIMESTAMPTZ) AND start < CAST(range_to AS TIMESTAMPTZ)
ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, start;
