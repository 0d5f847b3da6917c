-- cheapest_window_per_day: per series and Europe/London local day, the cheapest n_slots contiguous
-- half-hours lying inside that day and inside [range_from, range_to); price_windows(…, per := 'day').
CREATE OR REPLACE MACRO cheapest_window_per_day(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL,
                                                highest := false, min_price := NULL, weights := NULL) AS TABLE
SELECT *
FROM price_windows(tariff, n_slots, range_from, range_to, per := 'day', latest := latest, highest := highest,
                   min_price := min_price, max_price := max_price, weights := weights);
