-- @answers The half-hours priced below zero inc VAT (rate_slots' rows and columns).
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
-- negative_slots: the half-hours priced below zero inc VAT (the supplier pays you to use power):
-- rate_slots' rows and columns, nothing renamed, so it joins back to rate_slots on
-- (tariff_code, payment_method, rate_type, slot_start).
CREATE OR REPLACE VIEW negative_slots AS
SELECT *
FROM rate_slots
WHERE value_inc_vat < 0;
