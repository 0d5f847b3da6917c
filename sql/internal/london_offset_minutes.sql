-- london_offset_minutes(utc): Europe/London wall-clock time minus UTC at an instant, in minutes
-- (0 in GMT, 60 in BST); london_local's utc_offset_minutes.
CREATE OR REPLACE MACRO london_offset_minutes(utc) AS
    CAST((epoch_us(london_wall(utc)) - epoch_us(utc)) // 60000000 AS SMALLINT);
