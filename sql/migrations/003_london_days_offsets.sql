-- More of the Europe/London calendar, so that an instant's local date, wall time, offset and
-- settlement period are derived with one equality join and arithmetic (no time-zone lookup per
-- row): the previous day's start, and for the days the clocks change, the instant they change
-- (01:00 UTC in the UK) and the offset after it.
ALTER TABLE london_days ADD COLUMN prev_day_start TIMESTAMPTZ;
ALTER TABLE london_days ADD COLUMN change_at TIMESTAMPTZ;
ALTER TABLE london_days ADD COLUMN end_offset_minutes INTEGER;

UPDATE london_days AS d
SET prev_day_start = p.day_start
FROM london_days AS p
WHERE p.local_date = d.local_date - 1;

UPDATE london_days
SET change_at = CASE WHEN slots <> 48 THEN timezone('UTC', CAST(local_date AS TIMESTAMP) + INTERVAL 1 HOUR) END,
    end_offset_minutes = start_offset_minutes + CASE slots WHEN 46 THEN 60 WHEN 50 THEN -60 ELSE 0 END;
