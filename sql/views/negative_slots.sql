-- negative_slots: the half-hours priced below zero inc VAT (the supplier pays you to use power):
-- rate_slots' rows and columns, nothing renamed, so it joins back to rate_slots on
-- (tariff_code, payment_method, rate_type, slot_start).
CREATE OR REPLACE VIEW negative_slots AS
SELECT
    -- identity
    tariff_code,
    -- time (UTC)
    slot_start,
    slot_end,
    -- time (Europe/London)
    local_date,
    local_start,
    utc_offset_minutes,
    settlement_period,
    -- price
    value_exc_vat,
    value_inc_vat,
    payment_method,
    rate_type
FROM rate_slots
WHERE value_inc_vat < 0;
