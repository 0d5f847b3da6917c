-- Superseded: this migration once added columns to london_days (prev_day_start, change_at,
-- end_offset_minutes) that nothing reads any more; 013_london_days_unused.sql drops them from
-- files that have them. A new file skips both.
SELECT 1;
