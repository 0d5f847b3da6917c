-- @answers How much of a range a tariff has prices for, per series: expected, priced and missing half-hours.
-- @arg tariff | VARCHAR |  | tariff code
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column range_start | TIMESTAMPTZ | UTC | the range's start as asked (an open start: the first stored half-hour)
-- @column range_end | TIMESTAMPTZ | UTC | the range's end as asked (an open end: the end of the stored data)
-- @column expected_slots | BIGINT | half-hours | starting in the range
-- @column priced_slots | BIGINT | half-hours | with a price
-- @column missing_slots | BIGINT | half-hours | expected_slots - priced_slots
-- @column complete | BOOLEAN |  | every half-hour of the range is priced
-- @column min_inc_vat | DOUBLE | p/kWh | lowest price inc VAT
-- @column max_inc_vat | DOUBLE | p/kWh | highest price inc VAT
-- @column mean_inc_vat | DOUBLE | p/kWh | mean price inc VAT
-- @example SELECT * FROM range_coverage('E-1R-AGILE-18-02-21-J', TIMESTAMPTZ '2024-05-14 00:00:00+01', TIMESTAMPTZ '2024-05-16 00:00:00+01')
--
-- range_coverage(tariff, range_from, range_to): per series of the tariff with prices in
-- [range_from, range_to), how much of the range is priced. A NULL bound is the series' first
-- stored half-hour (or the end of its last). expected_slots counts the half-hours starting in the
-- range (half-hours start on :00 and :30 in UTC and Europe/London alike), priced_slots those with
-- a price, missing_slots the rest; complete when none is missing. With the prices' min, max and
-- mean inc VAT, so the same macro describes a window (its start and end as the range).
-- source → span → final.
CREATE OR REPLACE MACRO range_coverage(tariff, range_from, range_to) AS TABLE
WITH source AS (
    SELECT payment_method, rate_type, slot_start, value_inc_vat,
           CAST(range_from AS TIMESTAMPTZ) AS asked_from, CAST(range_to AS TIMESTAMPTZ) AS asked_to
    FROM rate_slots
    WHERE tariff_code = tariff
      AND slot_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND slot_start <= coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity') - INTERVAL 30 MINUTE
),
span AS (
    SELECT payment_method, rate_type,
           coalesce(min(asked_from), min(slot_start)) AS range_start,
           coalesce(min(asked_to), max(slot_start) + INTERVAL 30 MINUTE) AS range_end,
           count(*) AS priced_slots,
           min(value_inc_vat) AS min_inc_vat,
           max(value_inc_vat) AS max_inc_vat,
           avg(value_inc_vat) AS mean_inc_vat
    FROM source
    GROUP BY payment_method, rate_type
),
counted AS (
    -- half-hour numbers since the epoch: the first start at or after range_start, the last
    -- start at or before range_end - 30 minutes
    SELECT *,
           greatest(0, (epoch_us(range_end) - 1800000000) // 1800000000
                       - (epoch_us(range_start) + 1800000000 - 1) // 1800000000 + 1) AS expected_slots
    FROM span
)
SELECT
    -- series
    tariff AS tariff_code,
    payment_method,
    rate_type,
    -- the range as asked (open ends closed by the stored data)
    range_start,
    range_end,
    -- coverage
    CAST(expected_slots AS BIGINT) AS expected_slots,
    priced_slots,
    CAST(expected_slots - priced_slots AS BIGINT) AS missing_slots,
    priced_slots >= expected_slots AS complete,
    -- prices, p/kWh inc VAT
    min_inc_vat,
    max_inc_vat,
    mean_inc_vat
FROM counted
ORDER BY payment_method, rate_type;
