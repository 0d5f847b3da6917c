-- series_rate_type(code): the rate_type of a series_code (standard, day or night).
CREATE OR REPLACE MACRO series_rate_type(code) AS (
    CASE code % 3 WHEN 0 THEN 'standard' WHEN 1 THEN 'day' WHEN 2 THEN 'night' END
);
