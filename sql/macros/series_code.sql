-- series_code(payment_method, rate_type): a tariff's series as a small integer 0-8, so window
-- sorts, groups and joins carry one number instead of two strings (series_payment_method and
-- series_rate_type give the names back). payment_method is DIRECT_DEBIT, NON_DIRECT_DEBIT or null
-- (001_init.sql) and rate_type standard, day or night (CHECK); any other payment method stops the
-- query rather than being mixed with another series.
CREATE OR REPLACE MACRO series_code(payment_method, rate_type) AS (
    CAST(CASE
        -- Agile and most half-hourly tariffs: one test per row
        WHEN payment_method IS NULL AND rate_type = 'standard' THEN 0
        ELSE CASE WHEN payment_method IS NULL THEN 0
                  WHEN payment_method = 'DIRECT_DEBIT' THEN 1
                  WHEN payment_method = 'NON_DIRECT_DEBIT' THEN 2
                  ELSE error('series_code: unexpected payment_method ' || payment_method) END * 3
             + CASE rate_type WHEN 'standard' THEN 0 WHEN 'day' THEN 1 WHEN 'night' THEN 2 END
    END AS TINYINT)
);
