-- @answers The cheapest run of n_slots contiguous half-hours inside each occurrence of a daily Europe/London band (e.g. 23:00-07:00), per series.
-- @arg tariff | VARCHAR |  | tariff code
-- @arg n_slots | INTEGER | half-hours | window length (NULL: len(weights))
-- @arg band_start_minutes | INTEGER | minutes | band start after local midnight (0-1439)
-- @arg band_end_minutes | INTEGER | minutes | band end after local midnight (0-1440; at or before the start: crosses midnight)
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
-- @column local_date | DATE |  | the local date the band's occurrence starts on
-- @column start | TIMESTAMPTZ | UTC | start
-- @column end | TIMESTAMPTZ | UTC | exclusive end
-- @column local_start | VARCHAR |  | start as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column local_end | VARCHAR |  | end as Europe/London wall time with offset (2024-10-27T01:30:00+00:00)
-- @column slots | INTEGER | half-hours | in the window
-- @column mean_inc_vat | DOUBLE | p/kWh | mean price inc VAT
-- @column mean_exc_vat | DOUBLE | p/kWh | mean price exc VAT
-- @column score_inc_vat | DOUBLE | p/kWh | the ranked score: the mean, or with weights Σ price × weight ÷ Σ weight
-- @example SELECT * FROM cheapest_window_in_band('E-1R-AGILE-18-02-21-J', 4, 23 * 60, 7 * 60, TIMESTAMPTZ '2023-10-27 00:00:00Z', TIMESTAMPTZ '2023-10-31 00:00:00Z')
--
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
