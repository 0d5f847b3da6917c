-- Four-rate EV tariffs (four_rate_ev_electricity_tariffs in a product detail): open-ended day and
-- night unit rates, the night rate applying in a daily band of Europe/London wall-clock time.
-- The band is kept on the tariff, as minutes after local midnight (start inclusive, end exclusive;
-- end <= start crosses midnight: 23:30-05:30 is 1410, 330). NULL for every other tariff.
-- rate_slots expands such a tariff's day and night rates into one half-hourly series.
ALTER TABLE tariffs ADD COLUMN night_start_minutes SMALLINT;
ALTER TABLE tariffs ADD COLUMN night_end_minutes SMALLINT;
