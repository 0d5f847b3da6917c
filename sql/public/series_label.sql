-- @answers The name of a price series, "tariff / payment method / rate type" with the parts that are set, as the HTML page heads its sections.
-- @arg tariff | VARCHAR |  | the series' tariff_code
-- @arg payment | VARCHAR |  | its payment_method (NULL: one price for both)
-- @arg rate | VARCHAR |  | its rate_type (standard is left unnamed)
-- @returns VARCHAR |  | e.g. 'E-1R-AGILE-18-02-21-J', 'E-2R-VAR-22-11-01-A / DIRECT_DEBIT / day'
-- @example SELECT DISTINCT series_label(tariff_code, payment_method, rate_type) AS series_label FROM unit_rates ORDER BY 1
--
-- series_label(tariff, payment, rate): the name of a price series, as the HTML page heads its
-- sections and keys its charts: "tariff / payment method / rate type", the parts that are set (a
-- standard rate unnamed), e.g. 'E-1R-AGILE-18-02-21-J', 'E-2R-VAR-22-11-01-A / DIRECT_DEBIT / day'.
-- Arguments: a series' tariff_code, payment_method (NULL: one price for both) and rate_type.
-- Returns VARCHAR.
CREATE OR REPLACE MACRO series_label(tariff, payment, rate) AS
    concat_ws(' / ', tariff, payment, CASE WHEN rate <> 'standard' THEN rate END);
