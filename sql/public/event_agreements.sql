-- @answers Each agreement seen in the loaded events, with its validity and latest status.
-- @column account_number | VARCHAR |  | the account (null: the meter is known only from an imported file)
-- @column agreement_id | BIGINT |  | the agreement the events name
-- @column product_code | VARCHAR |  | the product, e.g. AGILE-18-02-21
-- @column valid_from | VARCHAR |  | the agreement's start as the event gives it
-- @column valid_to | VARCHAR |  | the agreement's end as the event gives it
-- @column status | VARCHAR |  | the agreement's latest status
-- @column status_event_id | VARCHAR |  | the event giving the latest status
-- @column status_at | TIMESTAMPTZ | UTC | when the latest status was given
-- @column events | BIGINT |  | events naming the agreement
--
-- event_agreements: one row per agreement seen in the events, with its account, product, validity
-- and latest status, built from event_agreement_history (one row per agreement and event).
-- "Latest" orders an agreement's events by occurred_at (events without one count as the oldest:
-- they cannot claim to be the latest), then by load (loaded_at, source) and line, then by the
-- agreement's position within its event. Status is that of the latest event; every other field is
-- the latest value present, so a v1 event without account_number does not erase a known one.
-- Statuses: created (agreement.created, join-supplier agreement.created, or rolled on to),
-- updated, revoked, terminated, rolled_over (the expiring agreement of a rollover).
CREATE OR REPLACE VIEW event_agreements AS
WITH ordered AS (
    SELECT *,
           row_number() OVER (
               PARTITION BY agreement_id
               ORDER BY occurred_at NULLS FIRST, loaded_at, source, line, position
           ) AS seq
    FROM event_agreement_history
),
final AS (
    SELECT
        -- the agreement and its account
        arg_max(account_number, seq) FILTER (WHERE account_number IS NOT NULL) AS account_number,
        agreement_id,
        -- what it supplies and when, as the events give it (ISO 8601 text)
        arg_max(product_code, seq) FILTER (WHERE product_code IS NOT NULL) AS product_code,
        arg_max(valid_from, seq) FILTER (WHERE valid_from IS NOT NULL) AS valid_from,
        arg_max(valid_to, seq) FILTER (WHERE valid_to IS NOT NULL) AS valid_to,
        -- the latest event
        arg_max(status, seq) AS status,
        arg_max(event_id, seq) AS status_event_id,
        arg_max(occurred_at, seq) AS status_at,
        count(*) AS events
    FROM ordered
    GROUP BY agreement_id
)
SELECT * FROM final;
