-- @answers The rows of an export's negative_slots file: the half-hours priced below zero of the listed tariffs starting in a range.
-- @arg tariff_codes | VARCHAR[] |  | tariff codes (NULL: every tariff)
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start; write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column local_date | DATE |  | the half-hour's Europe/London local date
-- @column settlement_period | INTEGER |  | 1..46/48/50: the half-hour's number in its local day
-- @column local_start | VARCHAR |  | deprecated: start as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column start_utc | TIMESTAMPTZ | UTC | the half-hour's start
-- @column local_end | VARCHAR |  | deprecated: end as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column end_utc | TIMESTAMPTZ | UTC | the half-hour's end
-- @column value_inc_vat | DECIMAL(10,4) | p/kWh | price inc VAT, rounded as the files round it
-- @column value_exc_vat | DECIMAL(10,4) | p/kWh | price exc VAT, rounded as the files round it
-- @example SELECT * FROM report_negative_slots(NULL, TIMESTAMPTZ '2026-04-01 00:00:00+01', TIMESTAMPTZ '2026-04-08 00:00:00+01')
--
-- report_negative_slots(tariff_codes, range_from, range_to): the rows of an export's negative_slots
-- file: the half-hours of negative_slots of the listed tariffs (VARCHAR[]; NULL: every tariff)
-- starting in [range_from, range_to) (TIMESTAMPTZ), prices rounded as the files round them.
-- Ordered by series (tariff_code, payment_method NULLS FIRST, rate_type), then start.
-- Columns: tariff_code, payment_method (null: one price for both), rate_type; local_date (DATE:
-- the half-hour's Europe/London day); settlement_period (INTEGER, 1..46/48/50); local_start,
-- local_end (VARCHAR, deprecated: London wall time with its offset, ISO 8601: the offset changes
-- within a column across a clock change); start_utc, end_utc (TIMESTAMPTZ); value_inc_vat,
-- value_exc_vat (DECIMAL(10,4), pence per kWh).
CREATE OR REPLACE MACRO report_negative_slots(tariff_codes, range_from, range_to) AS TABLE
SELECT tariff_code, payment_method, rate_type, local_date,
       CAST(settlement_period AS INTEGER) AS settlement_period,
       london_iso(slot_start) AS local_start,
       slot_start AS start_utc,
       london_iso(slot_end) AS local_end,
       slot_end AS end_utc,
       CAST(round_price(value_inc_vat) AS DECIMAL(10, 4)) AS value_inc_vat,
       CAST(round_price(value_exc_vat) AS DECIMAL(10, 4)) AS value_exc_vat
FROM negative_slots
WHERE (tariff_codes IS NULL OR list_contains(CAST(tariff_codes AS VARCHAR[]), tariff_code))
  AND slot_start >= CAST(range_from AS TIMESTAMPTZ) AND slot_start < CAST(range_to AS TIMESTAMPTZ)
ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, slot_start;
