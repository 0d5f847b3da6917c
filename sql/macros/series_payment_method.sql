-- series_payment_method(code): the payment_method of a series_code (NULL, DIRECT_DEBIT or NON_DIRECT_DEBIT).
CREATE OR REPLACE MACRO series_payment_method(code) AS (
    CASE code // 3 WHEN 1 THEN 'DIRECT_DEBIT' WHEN 2 THEN 'NON_DIRECT_DEBIT' END
);
