-- @answers The optional resources of a tariff (standing charges, product detail) that its latest attempt could not get.
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column resource | VARCHAR |  | standing_charges or product_detail
-- @column http_status | INTEGER |  | the failure's HTTP status (null: none)
-- @column error_code | VARCHAR |  | the client's error code, e.g. RETRIES_EXHAUSTED
-- @column checked_at | TIMESTAMPTZ | UTC | when it was last asked for
--
-- missing_optional_resources: the optional resources of a tariff (standing charges, product detail)
-- that its latest attempt could not get; they are asked for again once a day. `tariffs status`
-- lists them per tariff (missing_optional).
-- Columns: tariff_code; resource (standing_charges, product_detail); http_status (INTEGER: the
-- failure's HTTP status, null if none); error_code (the client's error code, e.g. RETRIES_EXHAUSTED);
-- checked_at (TIMESTAMPTZ: when it was last asked for).
CREATE OR REPLACE VIEW missing_optional_resources AS
SELECT tariff_code, resource, http_status, error_code, checked_at
FROM optional_resources
WHERE state = 'missing';
