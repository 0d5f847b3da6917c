-- unit_rates.duration_us: valid_to - valid_from in microseconds (null = open-ended), written by
-- the ingest with the row. rate_slots takes its half-hours as duration_us = 1800000000: a filter
-- on one stored number is settled per row group from its min/max, where working the duration
-- out of valid_from and valid_to on every row cost a third of a daily_stats scan.
ALTER TABLE unit_rates ADD COLUMN duration_us BIGINT;

UPDATE unit_rates SET duration_us = epoch_us(valid_to) - epoch_us(valid_from) WHERE valid_to IS NOT NULL;
