-- eligible_slots: the half-hours of a tariff a window or slots question may choose from, inside
-- [range_from, range_to) and priced inside [min_price, max_price] inc VAT (NULL bound = unbounded).
-- Every rate_slots column is kept. slot_prices: a list of {payment_method, slot_start,
-- value_inc_vat, value_exc_vat} replacing the standard-rate prices of the half-hours it names
-- before the price bounds apply, e.g. Intelligent Octopus Go as billed with dispatches:
--   (SELECT list({payment_method: payment_method, slot_start: slot_start, value_inc_vat: value_inc_vat,
--                 value_exc_vat: value_exc_vat}) FROM effective_rates_with('completed')
--    WHERE tariff_code = 'T' AND account_number = 'A')
CREATE OR REPLACE MACRO eligible_slots(tariff, range_from, range_to, min_price, max_price, slot_prices := NULL) AS TABLE
WITH slot_price_rows AS (
    SELECT p.payment_method, p.slot_start, p.value_inc_vat, p.value_exc_vat
    FROM (SELECT unnest(CAST(slot_prices AS STRUCT(payment_method VARCHAR, slot_start TIMESTAMPTZ,
                                                   value_inc_vat DOUBLE, value_exc_vat DOUBLE)[])) AS p)
),
priced AS (
    -- without slot_prices the join matches no rows: the plain scan of rate_slots
    SELECT r.* REPLACE (coalesce(CASE WHEN r.rate_type = 'standard' THEN p.value_inc_vat END, r.value_inc_vat) AS value_inc_vat,
                        coalesce(CASE WHEN r.rate_type = 'standard' THEN p.value_exc_vat END, r.value_exc_vat) AS value_exc_vat)
    FROM rate_slots AS r
    LEFT JOIN slot_price_rows AS p
           ON p.slot_start = r.slot_start
          AND p.payment_method IS NOT DISTINCT FROM r.payment_method
    WHERE r.tariff_code = tariff
)
SELECT *
FROM priced
WHERE slot_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
  AND slot_start <= coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity') - INTERVAL 30 MINUTE
  AND (min_price IS NULL OR value_inc_vat >= min_price)
  AND (max_price IS NULL OR value_inc_vat <= max_price);
