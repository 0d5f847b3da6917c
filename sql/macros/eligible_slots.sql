-- eligible_slots(tariff, range_from, range_to, min_price, max_price, slot_prices := NULL): the
-- half-hours of a tariff that a window or slots question may choose from: inside [range_from,
-- range_to) and priced inside [min_price, max_price] inc VAT (a NULL bound = unbounded), with their
-- series as a small integer (series_code). Every rate_slots column is kept.
-- slot_prices: a list of {payment_method, slot_start, value_inc_vat, value_exc_vat} replacing the
-- standard-rate prices of the half-hours it names (the others keep theirs) before the price bounds
-- apply; e.g. Intelligent Octopus Go as billed with dispatches (issue 28):
--   (SELECT list({payment_method: payment_method, slot_start: slot_start, value_inc_vat: value_inc_vat,
--                 value_exc_vat: value_exc_vat}) FROM effective_rates_with('completed')
--    WHERE tariff_code = 'T' AND account_number = 'A')
-- Without it the join has no rows to match and the question is the plain scan of rate_slots.
CREATE OR REPLACE MACRO eligible_slots(tariff, range_from, range_to, min_price, max_price, slot_prices := NULL) AS TABLE
WITH slot_price_rows AS (
    SELECT p.payment_method, p.slot_start, p.value_inc_vat, p.value_exc_vat
    FROM (SELECT unnest(CAST(slot_prices AS STRUCT(payment_method VARCHAR, slot_start TIMESTAMPTZ,
                                                   value_inc_vat DOUBLE, value_exc_vat DOUBLE)[])) AS p)
),
priced AS (
    -- one scan of rate_slots, joined to no rows when slot_prices is NULL (DuckDB binds every
    -- branch of a macro on every call: a second branch over rate_slots cost each window question
    -- as much planning again)
    SELECT r.* REPLACE (coalesce(CASE WHEN r.rate_type = 'standard' THEN p.value_inc_vat END, r.value_inc_vat) AS value_inc_vat,
                        coalesce(CASE WHEN r.rate_type = 'standard' THEN p.value_exc_vat END, r.value_exc_vat) AS value_exc_vat)
    FROM rate_slots AS r
    LEFT JOIN slot_price_rows AS p
           ON p.slot_start = r.slot_start
          AND p.payment_method IS NOT DISTINCT FROM r.payment_method
    WHERE r.tariff_code = tariff
)
SELECT series_code(payment_method, rate_type) AS series, *
FROM priced
WHERE slot_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
  AND slot_start <= coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity') - INTERVAL 30 MINUTE
  AND (min_price IS NULL OR value_inc_vat >= min_price)
  AND (max_price IS NULL OR value_inc_vat <= max_price);
