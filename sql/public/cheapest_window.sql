-- @answers The cheapest run of n_slots contiguous half-hours of a tariff in a range, per series.
-- @arg tariff | VARCHAR |  | tariff code
-- @arg n_slots | INTEGER | half-hours | window length (NULL: len(weights))
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @arg latest := false | BOOLEAN |  | ties go to the latest instead of the earliest
-- @arg max_price := NULL | DOUBLE | p/kWh | half-hours priced above it inc VAT are never chosen
-- @arg highest := false | BOOLEAN |  | the highest-priced instead of the cheapest
-- @arg min_price := NULL | DOUBLE | p/kWh | half-hours priced below it inc VAT are never chosen
-- @arg weights := NULL | DOUBLE[] |  | positional weights, first half-hour first: score Σ price × weight
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column start | TIMESTAMPTZ | UTC | start
-- @column end | TIMESTAMPTZ | UTC | exclusive end
-- @column local_start | VARCHAR |  | start as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column local_end | VARCHAR |  | end as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column slots | INTEGER | half-hours | in the window
-- @column mean_inc_vat | DOUBLE | p/kWh | mean price inc VAT
-- @column mean_exc_vat | DOUBLE | p/kWh | mean price exc VAT
-- @column score_inc_vat | DOUBLE | p/kWh | the ranked score: the mean, or with weights Σ price × weight ÷ Σ weight
-- @example SELECT * FROM cheapest_window('E-1R-AGILE-18-02-21-J', 6, TIMESTAMPTZ '2023-12-24 00:00:00Z', TIMESTAMPTZ '2023-12-28 00:00:00Z', max_price := 15)
--
-- cheapest_window: per series, the cheapest n_slots contiguous half-hours inside [range_from,
-- range_to); price_windows(…, per := 'range') without its local_date column.
CREATE OR REPLACE MACRO cheapest_window(tariff, n_slots, range_from, range_to, latest := false, max_price := NULL,
                                        highest := false, min_price := NULL, weights := NULL) AS TABLE
SELECT * EXCLUDE (local_date)
FROM price_windows(tariff, n_slots, range_from, range_to, per := 'range', latest := latest, highest := highest,
                   min_price := min_price, max_price := max_price, weights := weights);
