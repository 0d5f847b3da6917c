-- Platform events loaded from JSON Lines (`tariffs events load`): the valid ones in events, the
-- lines that failed validation in event_rejects. No index or key: duplicates are skipped by the
-- loader's anti-join per batch (an index would slow bulk loads and live in memory), and checked by
-- data tests.

-- events: one row per accepted event. `id` is the envelope id, unique when present; events
-- without one are never treated as duplicates (so re-loading them stores them again).
CREATE TABLE events (
    id              VARCHAR,              -- envelope id; null when the line has none
    event_id        VARCHAR NOT NULL,     -- <event_type>-<payload_version>: the catalog entry checked
    event_type      VARCHAR NOT NULL,
    payload_version VARCHAR NOT NULL,
    occurred_at     TIMESTAMPTZ,          -- envelope occurred_at (any offset, stored as the instant)
    payload         JSON NOT NULL,        -- every field the payload came with, listed or not
    -- where and when it was loaded
    loaded_at       TIMESTAMPTZ NOT NULL, -- one value per load run
    source          VARCHAR NOT NULL,     -- absolute file path, or 'stdin'
    line            BIGINT NOT NULL       -- 1-based line in source, blank lines counted
);

-- event_rejects: one row per line that failed validation, with every problem found. A line
-- already stored with the same source, line number and text is not stored again.
CREATE TABLE event_rejects (
    source          VARCHAR NOT NULL,
    line            BIGINT NOT NULL,
    raw             VARCHAR NOT NULL,     -- the line as read (invalid UTF-8 bytes shown as U+FFFD)
    errors          JSON NOT NULL,        -- [{detail, code, attr, scope}], the platform's error objects
    loaded_at       TIMESTAMPTZ NOT NULL
);
