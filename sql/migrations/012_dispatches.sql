-- Intelligent Octopus Go dispatches (issue 28): the half-hours the supplier schedules an EV charge
-- in, billed at the off-peak rate even outside the night band. Only the GraphQL interface serves
-- them (src/api/DispatchClient.ts). Stored as they were seen: a planned dispatch that a later
-- answer no longer lists before it ended is superseded (superseded_at set), never deleted; a
-- completed one that arrives late is simply inserted then. Written by src/store/writeDispatches.ts
-- (idempotent: one row per kind, account, device and start/end), read by effective_rates.

-- The accounts' smart devices (devices(accountNumber)), as last seen.
CREATE TABLE smart_devices (
    device_id       VARCHAR NOT NULL PRIMARY KEY,
    account_number  VARCHAR NOT NULL,
    device_type     VARCHAR,              -- e.g. ELECTRIC_VEHICLES (undocumented: may be null)
    provider        VARCHAR,
    first_seen_at   TIMESTAMPTZ NOT NULL,
    last_seen_at    TIMESTAMPTZ NOT NULL
);

CREATE TABLE dispatches (
    kind            VARCHAR NOT NULL CHECK (kind IN ('planned', 'completed')),
    account_number  VARCHAR NOT NULL,
    device_id       VARCHAR NOT NULL,     -- planned: the device asked about; completed: '' (account-wide)
    start_at        TIMESTAMPTZ NOT NULL,
    end_at          TIMESTAMPTZ NOT NULL,
    delta_kwh       DOUBLE,               -- planned: energyAddedKwh; completed: delta (kWh)
    dispatch_type   VARCHAR,              -- planned: type (SMART, BOOST …) when given
    source          VARCHAR,              -- completed: meta.source when given
    location        VARCHAR,              -- completed: meta.location when given (AT_HOME …)
    first_seen_at   TIMESTAMPTZ NOT NULL,
    last_seen_at    TIMESTAMPTZ NOT NULL,
    superseded_at   TIMESTAMPTZ,          -- planned: the first fetch that no longer listed it
    first_run_id    BIGINT NOT NULL,
    run_id          BIGINT NOT NULL,      -- the run that last saw it
    PRIMARY KEY (kind, account_number, device_id, start_at, end_at),
    CHECK (end_at > start_at)
);

-- Every dispatch question asked: when, and how it went. effective_rates takes "completed
-- dispatches known up to" an account's latest successful completed fetch.
CREATE TABLE dispatch_fetches (
    account_number  VARCHAR NOT NULL,
    device_id       VARCHAR NOT NULL,     -- planned: the device; devices/completed: ''
    kind            VARCHAR NOT NULL CHECK (kind IN ('devices', 'planned', 'completed')),
    fetched_at      TIMESTAMPTZ NOT NULL,
    outcome         VARCHAR NOT NULL CHECK (outcome IN ('ok', 'unavailable', 'failed')),
    error_code      VARCHAR,              -- GraphQL extensions.errorCode (KT-CT-4340 …) or the client's code
    listed          INTEGER,              -- how many the answer listed (ok only)
    run_id          BIGINT NOT NULL
);
