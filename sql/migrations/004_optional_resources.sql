-- Resources the ingest uses when present but does not need (README "Required and optional
-- resources"): the outcome of the latest attempt per tariff and resource, so that a missing one is
-- asked for again only at its refresh interval, and `tariffs status` can say what is missing.
CREATE TABLE optional_resources (
    tariff_code     VARCHAR NOT NULL,
    resource        VARCHAR NOT NULL,     -- standing_charges, product_detail
    state           VARCHAR NOT NULL CHECK (state IN ('present', 'missing')),
    http_status     INTEGER,              -- of the failure (404, 410, 400, 429 …); null if none
    error_code      VARCHAR,              -- the client's error code (HTTP_STATUS, RETRIES_EXHAUSTED …)
    url             VARCHAR,              -- what was asked (no credentials: public endpoints)
    checked_at      TIMESTAMPTZ NOT NULL,
    run_id          BIGINT NOT NULL,
    PRIMARY KEY (tariff_code, resource)
);

-- Per run: the optional resources it found missing (JSON array of {tariff, resource, status}),
-- and the tariffs whose required rates came back empty (JSON array of {tariff, kind, hint}).
ALTER TABLE ingest_runs ADD COLUMN missing_optional JSON;
ALTER TABLE ingest_runs ADD COLUMN empty_required JSON;
