-- @answers One row per half-hour per tariff, series and payment method, longer rates expanded: what every price question reads.
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column slot_start | TIMESTAMPTZ | UTC | the half-hour's start
-- @column slot_end | TIMESTAMPTZ | UTC | the half-hour's end
-- @column local_date | DATE |  | Europe/London local date
-- @column local_start | TIMESTAMP |  | start as Europe/London wall time (naive)
-- @column utc_offset_minutes | SMALLINT | minutes | Europe/London offset from UTC: 0 or 60
-- @column settlement_period | SMALLINT |  | 1..46/48/50: the half-hour's number in its local day
-- @column value_exc_vat | DOUBLE | p/kWh | price exc VAT
-- @column value_inc_vat | DOUBLE | p/kWh | price inc VAT
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
--
-- rate_slots: one row per half-hour per tariff (and rate type and payment method), in UTC with its
-- Europe/London day, wall time, offset and settlement period (1..46/48/50). Half-hourly rates as
-- stored; longer rates (fixed, day/night, four-rate EV) expanded to their half-hours, open-ended
-- ones up to three days past today. How: sql/internal/rate_slots_for.sql (every tariff, any time).
CREATE OR REPLACE VIEW rate_slots AS
SELECT * FROM rate_slots_for(NULL, NULL, NULL);
