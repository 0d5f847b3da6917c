-- latest_slots: per tariff with unit rates, the start of its newest stored half-hour, as
-- `tariffs status` shows it (latest_slot_utc, latest_slot_local).
-- Columns: tariff_code; latest_slot (TIMESTAMPTZ: the start of the last half-hour of the latest
-- rate, i.e. its valid_to less 30 minutes); open_ended (BOOLEAN: a rate has no valid_to, so the
-- tariff has no latest half-hour: status shows none).
CREATE OR REPLACE VIEW latest_slots AS
SELECT tariff_code,
       max(valid_to) - INTERVAL 30 MINUTE AS latest_slot,
       bool_or(valid_to IS NULL) AS open_ended
FROM unit_rates
GROUP BY tariff_code;
