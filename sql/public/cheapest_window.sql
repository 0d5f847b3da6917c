-- cheapest_window: per series, the cheapest n_slots contiguous half-hours inside [range_from,
-- range_to); price_windows(…, per := 'range') without its local_date column.
CREATE OR REPLACE MACRO cheapest_window(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL,
                                        highest := false, min_price := NULL, weights := NULL) AS TABLE
SELECT * EXCLUDE (local_date)
FROM price_windows(tariff, n_slots, range_from, range_to, per := 'range', latest := latest, highest := highest,
                   min_price := min_price, max_price := max_price, weights := weights);
