-- @answers Per tariff with unit rates, the start of its newest stored half-hour.
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column latest_slot | TIMESTAMPTZ | UTC | start of the last half-hour of the latest rate (its valid_to less 30 minutes)
-- @column open_ended | BOOLEAN |  | a rate has no valid_to, so the tariff has no latest half-hour
--
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
