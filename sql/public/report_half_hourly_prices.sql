-- report_half_hourly_prices(tariff_codes, range_from, range_to): the rows of an export's
-- half_hourly_prices file: every half-hour's price of the listed tariffs (VARCHAR[]) starting in
-- [range_from, range_to) (TIMESTAMPTZ), from rate_slots_for (longer rates expanded), prices rounded
-- as the files round them. Ordered by series (tariff_code, payment_method NULLS FIRST, rate_type), then start.
-- Columns: tariff_code, payment_method (null: one price for both), rate_type; local_date (DATE:
-- the half-hour's Europe/London day); settlement_period (INTEGER, 1..46/48/50); local_start,
-- local_end (VARCHAR, deprecated: London wall time with its offset, ISO 8601: the offset changes
-- within a column across a clock change); start_utc, end_utc (TIMESTAMPTZ); value_inc_vat,
-- value_exc_vat (DECIMAL(10,4), pence per kWh).
CREATE OR REPLACE MACRO report_half_hourly_prices(tariff_codes, range_from, range_to) AS TABLE
SELECT tariff_code, payment_method, rate_type, local_date,
       CAST(settlement_period AS INTEGER) AS settlement_period,
       london_iso(slot_start) AS local_start,
       slot_start AS start_utc,
       london_iso(slot_end) AS local_end,
       slot_end AS end_utc,
       CAST(round_price(value_inc_vat) AS DECIMAL(10, 4)) AS value_inc_vat,
       CAST(round_price(value_exc_vat) AS DECIMAL(10, 4)) AS value_exc_vat
FROM rate_slots_for(CAST(tariff_codes AS VARCHAR[]), CAST(range_from AS TIMESTAMPTZ), CAST(range_to AS TIMESTAMPTZ))
ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, slot_start;
