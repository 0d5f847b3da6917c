-- cheapest_window_in_band(tariff, n_slots, band_start_minutes, band_end_minutes, range_from,
-- range_to, latest := false, max_price := NULL): per series and occurrence of a daily band of
-- Europe/London wall-clock time, the cheapest n_slots contiguous half-hours inside that occurrence
-- and inside [range_from, range_to) (NULL bound = unbounded). Same score, ties and cap as
-- cheapest_window.
-- The band holds the half-hours whose local start time t (minutes after local midnight) has
-- band_start <= t < band_end; when band_end <= band_start it crosses midnight (23:00-07:00 is
-- 1380, 420; equal edges make a whole day starting at that time) and an occurrence that starts
-- on local date D belongs to D: its half-hours after midnight are reported under D. Band edges
-- are wall-clock times, so on clock-change nights an occurrence has more or fewer half-hours
-- (23:00-07:00: 14 in March, 18 in October).
-- Optional, as in cheapest_window: highest, min_price, weights. Flexible lengths:
-- price_windows(…, per := 'band', …), which answers this.
CREATE OR REPLACE MACRO cheapest_window_in_band(tariff, n_slots, band_start_minutes, band_end_minutes, range_from, range_to, latest := false, max_price := NULL,
                                                highest := false, min_price := NULL, weights := NULL) AS TABLE
SELECT *
FROM price_windows(tariff, n_slots, range_from, range_to, per := 'band',
                   band_start_minutes := band_start_minutes, band_end_minutes := band_end_minutes,
                   latest := latest, highest := highest, min_price := min_price, max_price := max_price, weights := weights);
