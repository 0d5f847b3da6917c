-- cheapest_window_per_day(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL):
-- per series and Europe/London local day, the cheapest n_slots contiguous half-hours lying inside
-- that local day and inside [range_from, range_to) (NULL bound = unbounded). Score: mean inc VAT;
-- ties go to the earliest start (latest := true: the latest); with max_price, no half-hour of the
-- window may cost more inc VAT. A series is (tariff_code, payment_method, rate_type).
-- Optional, as in cheapest_window: highest, min_price, weights. Flexible lengths:
-- price_windows(…, per := 'day', length_mode := …), which answers this.
CREATE OR REPLACE MACRO cheapest_window_per_day(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL,
                                                highest := false, min_price := NULL, weights := NULL) AS TABLE
SELECT *
FROM price_windows(tariff, n_slots, range_from, range_to, per := 'day', latest := latest, highest := highest,
                   min_price := min_price, max_price := max_price, weights := weights);
