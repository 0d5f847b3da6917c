-- effective_rates: per half-hour of an account's Intelligent Octopus Go agreement, the unit price
-- the bill will use with dispatches counted (completed ones, and the current plan where completed
-- ones cannot speak yet), with source (night_band, completed_dispatch, planned_dispatch,
-- standard), provisional, and the daily cap. The rules: sql/public/effective_rates_with.sql;
-- other choices of dispatches: SELECT * FROM effective_rates_with('completed' | 'planned' | 'none').
CREATE OR REPLACE VIEW effective_rates AS
SELECT * FROM effective_rates_with('default');
