-- consumption without its PRIMARY KEY (meter_point, serial, interval_start), so that storing
-- readings needs a bounded amount of memory (issue 41: 10,000 meters × a year is 175M rows).
-- The key was an ART index, and DuckDB's ART indexes must fit in memory: an import that checked
-- it held the whole table's index, about 170 bytes a reading (bench/README.md, "Long consumption
-- files"). A reading is still one row per (meter_point, serial, interval_start): every write goes
-- through mergeConsumption (src/store/writeConsumption.ts), which updates the readings it finds
-- and inserts the others, in one transaction under the writers' lock. Columns, their order, types,
-- NOT NULLs and checks are as migration 005 made them; the rows are copied in key order.
CREATE TABLE consumption_unkeyed (
    meter_point         VARCHAR NOT NULL,
    serial              VARCHAR NOT NULL,
    interval_start      TIMESTAMPTZ NOT NULL,
    interval_end        TIMESTAMPTZ NOT NULL,
    local_date          DATE NOT NULL,        -- Europe/London date of interval_start
    settlement_period   SMALLINT NOT NULL,    -- 1..46/48/50 within local_date
    kwh                 DOUBLE NOT NULL,      -- energy; gas in m³ converted (see raw_value, raw_unit)
    raw_value           DOUBLE NOT NULL,      -- as reported
    raw_unit            VARCHAR NOT NULL CHECK (raw_unit IN ('kWh', 'm3')),
    source              VARCHAR NOT NULL CHECK (source IN ('api', 'file')),
    -- the supplier's own estimate, from its CSV export (pence inc VAT; null otherwise)
    supplier_cost_inc_vat            DOUBLE,
    supplier_standing_charge_inc_vat DOUBLE,
    run_id              BIGINT NOT NULL,      -- the run that last wrote the row
    CHECK (interval_end > interval_start)
);
INSERT INTO consumption_unkeyed SELECT * FROM consumption ORDER BY meter_point, serial, interval_start;
DROP TABLE consumption;
ALTER TABLE consumption_unkeyed RENAME TO consumption;
