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
