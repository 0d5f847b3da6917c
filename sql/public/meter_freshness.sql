-- @answers Is each meter still reporting? Its newest reading, age in days and holes in the last 7 days, as of now.
-- @column meter_point | VARCHAR |  | MPAN or MPRN
-- @column serial | VARCHAR |  | the meter's serial number
-- @column fuel | VARCHAR |  | electricity or gas
-- @column is_export | BOOLEAN |  | an export meter
-- @column account_number | VARCHAR |  | the account (null: the meter is known only from an imported file)
-- @column latest_reading | TIMESTAMPTZ | UTC | the end of the newest half-hour read
-- @column latest_local_date | DATE |  | the Europe/London day of the newest reading
-- @column age_days | INTEGER | days | Europe/London days from the newest reading's day to as_of's (1: yesterday is in)
-- @column holes_7d | INTEGER | half-hours | without a reading in the 7 Europe/London days before as_of's
--
-- meter_freshness: is each meter still reporting? Per meter with readings: its newest reading,
-- that reading's Europe/London day, age_days and holes_7d as of now (whole London days, so the
-- answer holds all day). How: sql/public/meter_freshness_at.sql (any instant).
CREATE OR REPLACE VIEW meter_freshness AS
SELECT * FROM meter_freshness_at(now());
