-- Power Up (free electricity) and Power Down (saving sessions) events of the accounts (issue 42),
-- read over GraphQL (src/api/FlexibilityClient.ts), only those of the meter point's region
-- (docs/decisions/power-up-power-down.md). Stored as they were seen, like dispatches: one row
-- per source, account, meter point, event code and start/end; writing the same answer twice
-- changes nothing but last_seen_at. An event whose times change gets a new row and its earlier
-- version is superseded (superseded_at set), never deleted; so is one no longer listed before it
-- ends. Written by src/store/writeFlexibilityEvents.ts, read by portfolio_pricing (Power Ups).
CREATE TABLE flexibility_events (
    source          VARCHAR NOT NULL,     -- campaign slug (free_electricity …) or 'savingSessions'
    kind            VARCHAR NOT NULL CHECK (kind IN ('power_up', 'power_down')),
    account_number  VARCHAR NOT NULL,
    meter_point     VARCHAR NOT NULL,     -- the supply point asked about; '' for savingSessions (account-wide)
    event_code      VARCHAR NOT NULL,     -- code, else eventId/id as text, else '' (undocumented: may lack)
    start_at        TIMESTAMPTZ NOT NULL,
    end_at          TIMESTAMPTZ NOT NULL,
    name            VARCHAR,              -- when given
    event_type      VARCHAR,              -- eventType when given (TURN_DOWN …)
    region          VARCHAR,              -- the regions the event names, comma-separated, when given
    joined          BOOLEAN,              -- isEventParticipant / a joined event; NULL: not said
    reward_octopoints DOUBLE,             -- rewardGivenInOctoPoints, else rewardPerKwhInOctoPoints, when given
    first_seen_at   TIMESTAMPTZ NOT NULL,
    last_seen_at    TIMESTAMPTZ NOT NULL,
    superseded_at   TIMESTAMPTZ,          -- the first answer that listed the code at other times, or no longer listed it before it ended
    first_run_id    BIGINT NOT NULL,
    run_id          BIGINT NOT NULL,      -- the run that last saw it
    PRIMARY KEY (source, account_number, meter_point, event_code, start_at, end_at),
    CHECK (end_at > start_at)
);
