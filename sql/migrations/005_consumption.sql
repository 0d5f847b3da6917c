-- Metered consumption and what it is priced against: the account's meter points and agreements,
-- and half-hourly readings from the API or from the supplier's CSV export. Names are a contract.

-- meter_points: one row per MPAN (electricity) or MPRN (gas).
CREATE TABLE meter_points (
    meter_point     VARCHAR NOT NULL PRIMARY KEY,  -- MPAN or MPRN
    fuel            VARCHAR NOT NULL CHECK (fuel IN ('electricity', 'gas')),
    is_export       BOOLEAN NOT NULL DEFAULT false,
    serials         VARCHAR[] NOT NULL,            -- meters[].serial_number (or the imported file's)
    account_number  VARCHAR,                       -- null when only known from an imported file
    first_seen_at   TIMESTAMPTZ NOT NULL,
    last_seen_at    TIMESTAMPTZ NOT NULL
);

-- agreements: the tariff a meter point is on, over [valid_from, valid_to) (null = open-ended).
CREATE TABLE agreements (
    meter_point     VARCHAR NOT NULL,
    tariff_code     VARCHAR NOT NULL,
    valid_from      TIMESTAMPTZ NOT NULL,
    valid_to        TIMESTAMPTZ,
    account_number  VARCHAR,
    seen_at         TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (meter_point, valid_from),
    CHECK (valid_to IS NULL OR valid_to > valid_from)
);

-- consumption: one row per (meter point, serial, half-hour). Instants in UTC.
CREATE TABLE consumption (
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
    PRIMARY KEY (meter_point, serial, interval_start),
    CHECK (interval_end > interval_start)
);

-- A re-read (late or corrected meter data) that changed a stored reading: what it replaced.
CREATE TABLE consumption_revisions (
    meter_point     VARCHAR NOT NULL,
    serial          VARCHAR NOT NULL,
    interval_start  TIMESTAMPTZ NOT NULL,
    old_kwh         DOUBLE,
    new_kwh         DOUBLE,
    old_source      VARCHAR,
    new_source      VARCHAR,
    old_run_id      BIGINT,
    run_id          BIGINT NOT NULL,
    revised_at      TIMESTAMPTZ NOT NULL
);

-- Per meter: how far its consumption has been fetched from the API (the incremental cursor).
CREATE TABLE consumption_cursors (
    meter_point     VARCHAR NOT NULL,
    serial          VARCHAR NOT NULL,
    fetched_from    TIMESTAMPTZ NOT NULL,
    fetched_until   TIMESTAMPTZ NOT NULL,
    latest_interval_start TIMESTAMPTZ,
    run_id          BIGINT NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (meter_point, serial)
);
