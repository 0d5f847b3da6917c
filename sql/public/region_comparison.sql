-- @answers A product's tariffs side by side, one row per region and series, over a range.
-- @arg product | VARCHAR |  | product code, e.g. AGILE-18-02-21
-- @arg range_from | TIMESTAMPTZ | UTC | inclusive start (NULL: unbounded); write it with an offset
-- @arg range_to | TIMESTAMPTZ | UTC | exclusive end (NULL: unbounded)
-- @column product_code | VARCHAR |  | the product, e.g. AGILE-18-02-21
-- @column region | VARCHAR |  | region letter, A-P
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column payment_method | VARCHAR |  | DIRECT_DEBIT, NON_DIRECT_DEBIT or null (one price for both)
-- @column rate_type | VARCHAR |  | standard, day or night
-- @column first_start | TIMESTAMPTZ | UTC | the first priced half-hour's start
-- @column last_end | TIMESTAMPTZ | UTC | the last priced half-hour's end
-- @column days | INTEGER | days | Europe/London local days counted
-- @column slots | INTEGER | half-hours | stored in the range
-- @column min_inc_vat | DOUBLE | p/kWh | lowest price inc VAT
-- @column max_inc_vat | DOUBLE | p/kWh | highest price inc VAT
-- @column mean_inc_vat | DOUBLE | p/kWh | mean price inc VAT
-- @column median_inc_vat | DOUBLE | p/kWh | median price inc VAT
-- @column negative_slots | INTEGER | half-hours | priced below zero inc VAT
-- @column peak_mean_inc_vat | DOUBLE | p/kWh | mean over 16:00-19:00 local wall time (null: no half-hour there)
-- @column mean_exc_vat | DOUBLE | p/kWh | mean price exc VAT
-- @column mean_rank | INTEGER |  | 1 = the cheapest mean among the same payment method and rate type
-- @example SELECT * FROM region_comparison('AGILE-18-02-21', TIMESTAMPTZ '2020-01-01 00:00:00Z', TIMESTAMPTZ '2020-02-01 00:00:00Z')
--
-- region_comparison(product, range_from, range_to): a product's tariffs side by side, one row per
-- region (and series), over [range_from, range_to) (NULL bound = unbounded): coverage, spread
-- of prices inc VAT, negative half-hours, and the rank of the mean (1 = cheapest).
-- The product and region come from the tariffs table (filled by ingest); a stored code it does
-- not list is parsed: E-1R-<product>-<region letter>.
-- stored → product_tariffs → source → per_tariff → final.
CREATE OR REPLACE MACRO region_comparison(product, range_from, range_to) AS TABLE
WITH stored AS (
    SELECT DISTINCT tariff_code FROM unit_rates
),
product_tariffs AS (
    SELECT s.tariff_code,
           coalesce(t.region, regexp_extract(s.tariff_code, '-([A-Z])$', 1)) AS region
    FROM stored AS s
    LEFT JOIN tariffs AS t ON t.tariff_code = s.tariff_code
    WHERE coalesce(t.product_code, regexp_extract(s.tariff_code, '^[A-Z]-[0-9]R-(.+)-[A-Z]$', 1)) = product
),
source AS (
    SELECT r.tariff_code, p.region, r.payment_method, r.rate_type, r.local_date, r.slot_start,
           r.value_inc_vat, r.value_exc_vat, hour(r.local_start) BETWEEN 16 AND 18 AS is_peak
    FROM rate_slots AS r
    JOIN product_tariffs AS p ON p.tariff_code = r.tariff_code
    WHERE r.slot_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND r.slot_start <= coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity') - INTERVAL 30 MINUTE
),
per_tariff AS (
    SELECT region, tariff_code, payment_method, rate_type,
           min(slot_start) AS first_start,
           max(slot_start) + INTERVAL 30 MINUTE AS last_end,
           count(DISTINCT local_date) AS days,
           count(*) AS slots,
           min(value_inc_vat) AS min_inc_vat,
           max(value_inc_vat) AS max_inc_vat,
           avg(value_inc_vat) AS mean_inc_vat,
           median(value_inc_vat) AS median_inc_vat,
           count(*) FILTER (WHERE value_inc_vat < 0) AS negative_slots,
           avg(value_inc_vat) FILTER (WHERE is_peak) AS peak_mean_inc_vat,
           avg(value_exc_vat) AS mean_exc_vat
    FROM source
    GROUP BY region, tariff_code, payment_method, rate_type
)
SELECT
    -- product, region, series
    product AS product_code,
    region,
    tariff_code,
    payment_method,
    rate_type,
    -- coverage inside the range
    first_start,
    last_end,
    CAST(days AS INTEGER) AS days,
    CAST(slots AS INTEGER) AS slots,
    -- prices inc VAT, p/kWh
    min_inc_vat,
    max_inc_vat,
    mean_inc_vat,
    median_inc_vat,
    CAST(negative_slots AS INTEGER) AS negative_slots,
    peak_mean_inc_vat,
    -- prices exc VAT, p/kWh
    mean_exc_vat,
    -- 1 = the cheapest mean inc VAT among the product's tariffs (per payment method and rate type)
    CAST(rank() OVER (PARTITION BY payment_method, rate_type ORDER BY mean_inc_vat) AS INTEGER) AS mean_rank
FROM per_tariff
ORDER BY region, tariff_code, payment_method, rate_type;
