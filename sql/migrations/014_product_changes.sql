-- What each products refresh saw change in the supplier's list: a product that appeared
-- ('added') or left it ('withdrawn'; its URLs may still answer, with only historical rates).
-- The first refresh of a warehouse is the baseline and records nothing. `tariffs products
-- --changes` lists them; `tariffs status --check` names tracked tariffs of withdrawn products.
CREATE TABLE product_changes (
    product_code VARCHAR NOT NULL,
    change       VARCHAR NOT NULL CHECK (change IN ('added', 'withdrawn')),
    seen_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (product_code, seen_at)
);
