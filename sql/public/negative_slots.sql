-- negative_slots: the half-hours priced below zero inc VAT (the supplier pays you to use power):
-- rate_slots' rows and columns, nothing renamed, so it joins back to rate_slots on
-- (tariff_code, payment_method, rate_type, slot_start).
CREATE OR REPLACE VIEW negative_slots AS
SELECT *
FROM rate_slots
WHERE value_inc_vat < 0;
