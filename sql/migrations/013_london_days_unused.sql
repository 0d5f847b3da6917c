-- london_days keeps only the calendar its readers use (local_date, day_start, day_end, slots):
-- the columns nothing reads are dropped (the London fields of an instant are london_local's).
ALTER TABLE london_days DROP COLUMN IF EXISTS prev_day_start;
ALTER TABLE london_days DROP COLUMN IF EXISTS change_at;
ALTER TABLE london_days DROP COLUMN IF EXISTS end_offset_minutes;
ALTER TABLE london_days DROP COLUMN IF EXISTS start_offset_minutes;
