-- cheapest_window(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL):
-- per series, the cheapest n_slots contiguous half-hours inside [range_from, range_to) (NULL
-- bound = unbounded). Score: mean inc VAT; a missing half-hour breaks a window; ties go to the
-- earliest start (latest := true: the latest); with max_price, no half-hour of the window may
-- cost more inc VAT. A series is (tariff_code, payment_method, rate_type).
-- Optional: highest := true (the highest-priced window instead, same ties), min_price (no
-- half-hour may cost less), weights := [2, 1, 1] (score Σ price × weight, weights padded with 1s
-- to n_slots). Flexible lengths and a NULL n_slots: price_windows, which answers this.
CREATE OR REPLACE MACRO cheapest_window(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL,
                                        highest := false, min_price := NULL, weights := NULL) AS TABLE
SELECT * EXCLUDE (local_date)
FROM price_windows(tariff, n_slots, range_from, range_to, per := 'range', latest := latest, highest := highest,
                   min_price := min_price, max_price := max_price, weights := weights);
