-- meter_freshness: is each meter still reporting? Per meter with readings: its newest reading,
-- that reading's Europe/London day, age_days and holes_7d as of now (whole London days, so the
-- answer holds all day). How: sql/public/meter_freshness_at.sql (any instant).
CREATE OR REPLACE VIEW meter_freshness AS
SELECT * FROM meter_freshness_at(now());
