-- eligible_slots(tariff, range_from, range_to, min_price, max_price): the half-hours of a tariff
-- that a window or slots question may choose from: inside [range_from, range_to) and priced inside
-- [min_price, max_price] inc VAT (a NULL bound = unbounded), with their series as a small integer
-- (series_code). Every rate_slots column is kept.
CREATE OR REPLACE MACRO eligible_slots(tariff, range_from, range_to, min_price, max_price) AS TABLE
SELECT series_code(payment_method, rate_type) AS series, *
FROM rate_slots
WHERE tariff_code = tariff
  AND slot_start >= coalesce(CAST(range_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
  AND slot_start <= coalesce(CAST(range_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity') - INTERVAL 30 MINUTE
  AND (min_price IS NULL OR value_inc_vat >= min_price)
  AND (max_price IS NULL OR value_inc_vat <= max_price);
