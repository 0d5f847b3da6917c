-- @answers The tariffs whose product has left the supplier's products list (its latest recorded change is 'withdrawn').
-- @column tariff_code | VARCHAR |  | tariff code, e.g. E-1R-AGILE-18-02-21-C
-- @column product_code | VARCHAR |  | the product, e.g. AGILE-18-02-21
-- @column seen_at | TIMESTAMPTZ | UTC | when a products refresh first saw the product gone
--
-- withdrawn_tariffs: the tariffs whose product has left the supplier's products list: the latest
-- change recorded for the product (product_changes) is 'withdrawn'. A product listed again after
-- that has a later 'added' and is not here. `tariffs status` shows it as product_withdrawn_at and
-- `status --check` names the tariff.
-- Columns: tariff_code; product_code; seen_at (TIMESTAMPTZ: when a products refresh first saw the
-- product gone).
CREATE OR REPLACE VIEW withdrawn_tariffs AS
WITH latest_change AS (
    -- the latest change per product, whatever it is
    FROM product_changes
    QUALIFY row_number() OVER (PARTITION BY product_code ORDER BY seen_at DESC) = 1
)
SELECT t.tariff_code, t.product_code, c.seen_at
FROM tariffs AS t
JOIN latest_change AS c ON c.product_code = t.product_code
WHERE c.change = 'withdrawn';
