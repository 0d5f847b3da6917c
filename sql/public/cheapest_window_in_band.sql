-- cheapest_window_in_band: per series and occurrence of a daily band of Europe/London wall-clock
-- time, the cheapest n_slots contiguous half-hours inside it; price_windows(…, per := 'band').
-- The band holds the half-hours starting at t minutes after local midnight with band_start <= t <
-- band_end; band_end <= band_start crosses midnight (23:00-07:00 is 1380, 420) and an occurrence is
-- listed under the local date it starts on. On clock-change nights an occurrence has more or fewer
-- half-hours (23:00-07:00: 14 in March, 18 in October).
CREATE OR REPLACE MACRO cheapest_window_in_band(tariff, n_slots, band_start_minutes, band_end_minutes, range_from, range_to, latest := false, max_price := NULL,
                                                highest := false, min_price := NULL, weights := NULL) AS TABLE
SELECT *
FROM price_windows(tariff, n_slots, range_from, range_to, per := 'band',
                   band_start_minutes := band_start_minutes, band_end_minutes := band_end_minutes,
                   latest := latest, highest := highest, min_price := min_price, max_price := max_price, weights := weights);
