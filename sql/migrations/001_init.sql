-- The warehouse's tables. Names are a contract: add columns, never rename or reorder them.
-- Instants are TIMESTAMPTZ in UTC; local (Europe/London) dates and times are derived from them.

-- products: every documented product field, its links and the raw record as JSON.
CREATE TABLE products (
    code            VARCHAR NOT NULL PRIMARY KEY,
    direction       VARCHAR,
    full_name       VARCHAR,
    display_name    VARCHAR,
    description     VARCHAR,
    is_variable     BOOLEAN,
    is_green        BOOLEAN,
    is_tracker      BOOLEAN,
    is_prepay       BOOLEAN,
    is_business     BOOLEAN,
    is_restricted   BOOLEAN,
    term            INTEGER,
    available_from  TIMESTAMPTZ,
    available_to    TIMESTAMPTZ,
    brand           VARCHAR,
    links           JSON,
    raw             JSON,
    first_seen_at   TIMESTAMPTZ NOT NULL,
    last_seen_at    TIMESTAMPTZ NOT NULL
);

-- tariffs: one row per tariff code we know of (from product details, the config or accounts).
CREATE TABLE tariffs (
    tariff_code     VARCHAR NOT NULL PRIMARY KEY,
    product_code    VARCHAR NOT NULL,
    fuel            VARCHAR NOT NULL CHECK (fuel IN ('electricity', 'gas')),
    register        VARCHAR NOT NULL CHECK (register IN ('single', 'dual')),
    region          VARCHAR,
    payment_method  VARCHAR,              -- the product detail's key, e.g. direct_debit_monthly
    rate_kinds      VARCHAR[],            -- rate link kinds known: standard_unit_rates, day_unit_rates, ...
    first_seen_at   TIMESTAMPTZ NOT NULL,
    last_seen_at    TIMESTAMPTZ NOT NULL
);

-- unit_rates: one row per (tariff_code, rate_type, valid_from, payment_method), enforced by the
-- ingest's MERGE and checked by data tests (no index: it would slow bulk loads for nothing).
CREATE TABLE unit_rates (
    tariff_code     VARCHAR NOT NULL,
    rate_type       VARCHAR NOT NULL CHECK (rate_type IN ('standard', 'day', 'night')),
    valid_from      TIMESTAMPTZ NOT NULL,
    valid_to        TIMESTAMPTZ,          -- null = open-ended
    value_exc_vat   DOUBLE NOT NULL,
    value_inc_vat   DOUBLE NOT NULL,
    payment_method  VARCHAR,              -- DIRECT_DEBIT, NON_DIRECT_DEBIT or null
    local_date      DATE NOT NULL,        -- Europe/London date of valid_from
    run_id          BIGINT NOT NULL,      -- the ingest run that last wrote the row
    -- Europe/London view of valid_from, computed once at ingest so rate_slots is a projection:
    local_start         TIMESTAMP NOT NULL,  -- wall-clock time
    utc_offset_minutes  SMALLINT NOT NULL,   -- 0 (GMT) or 60 (BST)
    settlement_period   SMALLINT NOT NULL,   -- 1..46/48/50 within local_date
    CHECK (valid_to IS NULL OR valid_to > valid_from)
);

CREATE TABLE standing_charges (
    tariff_code     VARCHAR NOT NULL,
    valid_from      TIMESTAMPTZ NOT NULL,
    valid_to        TIMESTAMPTZ,
    value_exc_vat   DOUBLE NOT NULL,
    value_inc_vat   DOUBLE NOT NULL,
    payment_method  VARCHAR,
    local_date      DATE NOT NULL,
    run_id          BIGINT NOT NULL,
    CHECK (valid_to IS NULL OR valid_to > valid_from)
);

-- When a re-fetch changes a stored price, the values it replaced, and the run that replaced them.
CREATE TABLE unit_rate_revisions (
    tariff_code     VARCHAR NOT NULL,
    rate_type       VARCHAR NOT NULL,     -- standard, day, night, or standing_charge
    valid_from      TIMESTAMPTZ NOT NULL,
    payment_method  VARCHAR,
    old_valid_to        TIMESTAMPTZ,
    old_value_exc_vat   DOUBLE,
    old_value_inc_vat   DOUBLE,
    new_valid_to        TIMESTAMPTZ,
    new_value_exc_vat   DOUBLE,
    new_value_inc_vat   DOUBLE,
    old_run_id      BIGINT,
    run_id          BIGINT NOT NULL,      -- the run that changed it
    revised_at      TIMESTAMPTZ NOT NULL
);

CREATE SEQUENCE ingest_run_ids START 1;

CREATE TABLE ingest_runs (
    run_id          BIGINT NOT NULL PRIMARY KEY,
    job             VARCHAR NOT NULL,
    started_at      TIMESTAMPTZ NOT NULL,
    finished_at     TIMESTAMPTZ,
    status          VARCHAR NOT NULL CHECK (status IN ('running', 'ok', 'failed', 'partial', 'interrupted')),
    pages           INTEGER NOT NULL DEFAULT 0,
    rows_inserted   BIGINT NOT NULL DEFAULT 0,
    rows_updated    BIGINT NOT NULL DEFAULT 0,
    rows_unchanged  BIGINT NOT NULL DEFAULT 0,
    requests        INTEGER NOT NULL DEFAULT 0,
    tariffs_ok      INTEGER NOT NULL DEFAULT 0,
    tariffs_failed  INTEGER NOT NULL DEFAULT 0,
    error           VARCHAR
);

-- Per tariff and rate kind: everything up to fetched_until has been stored. Written in the same
-- transaction as the rows it covers, so a killed run resumes where the last commit left off.
CREATE TABLE ingest_cursors (
    tariff_code     VARCHAR NOT NULL,
    rate_kind       VARCHAR NOT NULL,     -- standard, day, night, standing_charge
    fetched_from    TIMESTAMPTZ NOT NULL, -- start of the stored window
    fetched_until   TIMESTAMPTZ NOT NULL, -- end of the stored window (exclusive)
    latest_valid_from TIMESTAMPTZ,        -- newest rate stored
    earliest_valid_from TIMESTAMPTZ,      -- oldest rate stored (with latest: where stored rows can be)
    run_id          BIGINT NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tariff_code, rate_kind)
);

-- Europe/London calendar: one row per local date, with its UTC bounds and number of half-hours
-- (46 on spring-forward days, 50 on fall-back days). Lets views map instants to local days with
-- an equality join instead of a time-zone conversion per row.
CREATE TABLE london_days (
    local_date      DATE NOT NULL PRIMARY KEY,
    day_start       TIMESTAMPTZ NOT NULL,
    day_end         TIMESTAMPTZ NOT NULL,
    slots           INTEGER NOT NULL,
    start_offset_minutes INTEGER NOT NULL  -- UTC offset at local midnight (0 or 60)
);

INSERT INTO london_days
WITH days AS (
    SELECT CAST(d AS DATE) AS local_date
    FROM generate_series(TIMESTAMP '1990-01-01', TIMESTAMP '2100-12-31', INTERVAL 1 DAY) AS t(d)
), bounds AS (
    SELECT local_date,
           timezone('Europe/London', CAST(local_date AS TIMESTAMP)) AS day_start,
           timezone('Europe/London', CAST(local_date + 1 AS TIMESTAMP)) AS day_end
    FROM days
)
SELECT local_date, day_start, day_end,
       CAST(epoch(day_end - day_start) / 1800 AS INTEGER) AS slots,
       CAST(epoch(CAST(local_date AS TIMESTAMP) - timezone('UTC', day_start)) / 60 AS INTEGER) AS start_offset_minutes
FROM bounds;
