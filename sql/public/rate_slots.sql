-- rate_slots: one row per half-hour per tariff (and rate type and payment method), in UTC with its
-- Europe/London day, wall time, offset and settlement period (1..46/48/50). Half-hourly rates as
-- stored; longer rates (fixed, day/night, four-rate EV) expanded to their half-hours, open-ended
-- ones up to three days past today. How: sql/internal/rate_slots_for.sql (every tariff, any time).
CREATE OR REPLACE VIEW rate_slots AS
SELECT * FROM rate_slots_for(NULL, NULL, NULL);
