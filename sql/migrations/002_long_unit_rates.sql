-- long_unit_rates: the unit rates longer than a half-hour or open-ended (fixed, variable,
-- day/night), also kept here by the ingest in the same transaction as unit_rates. rate_slots
-- expands these few rows to half-hours without scanning unit_rates a second time.
CREATE TABLE long_unit_rates (
    tariff_code     VARCHAR NOT NULL,
    rate_type       VARCHAR NOT NULL,
    valid_from      TIMESTAMPTZ NOT NULL,
    valid_to        TIMESTAMPTZ,
    value_exc_vat   DOUBLE NOT NULL,
    value_inc_vat   DOUBLE NOT NULL,
    payment_method  VARCHAR
);

INSERT INTO long_unit_rates
SELECT tariff_code, rate_type, valid_from, valid_to, value_exc_vat, value_inc_vat, payment_method
FROM unit_rates
WHERE valid_to IS NULL OR epoch_us(valid_to) - epoch_us(valid_from) <> 1800000000;
