-- @answers What each loaded agreement event says about each agreement it names: one row per agreement and event.
-- @column agreement_id | BIGINT |  | the agreement the events name
-- @column account_number | VARCHAR |  | the account (null: the meter is known only from an imported file)
-- @column product_code | VARCHAR |  | the product, e.g. AGILE-18-02-21
-- @column valid_from | VARCHAR |  | the agreement's start as the event gives it
-- @column valid_to | VARCHAR |  | the agreement's end as the event gives it
-- @column status | VARCHAR |  | the agreement's latest status
-- @column position | INTEGER |  | the agreement's place among the event's agreements
-- @column event_type | VARCHAR |  | agreement.created, .updated, .revoked or .terminated
-- @column event_id | VARCHAR |  | the event's id
-- @column occurred_at | TIMESTAMPTZ | UTC | when the event happened
-- @column loaded_at | TIMESTAMPTZ | UTC | when the event was loaded
-- @column source | VARCHAR |  | the file the event was loaded from
-- @column line | BIGINT |  | the event's line in its file
--
-- event_agreement_history: what each agreement event says about each agreement it names, one row
-- per (agreement, event), from the loaded events (table events) of every payload version of
--   agreement.created, agreement.updated, agreement.revoked, agreement.terminated,
--   agreement.rollover.completed (catalog A) and lifecycle.join-supplier.agreement.created (B).
-- Fields a version lacks are null (->> of an absent key), e.g. account_number before v2.
-- valid_from/valid_to are the payload's strings as sent: the catalogs type them `s` and do not say
-- whether they are dates or datetimes, so no time zone is guessed here.
-- event_agreements picks the latest value of each field from this history.
CREATE OR REPLACE VIEW event_agreement_history AS
WITH agreement_events AS (
    SELECT event_type, event_id, payload, occurred_at, loaded_at, source, line
    FROM events
    WHERE event_type IN ('agreement.created', 'agreement.updated', 'agreement.revoked', 'agreement.terminated',
                         'agreement.rollover.completed', 'lifecycle.join-supplier.agreement.created')
),
-- agreement.created|updated|revoked|terminated: one agreement each, named by agreement_id.
-- account_number: created v1, and updated/revoked/terminated from v2 on.
single AS (
    SELECT CAST(payload->>'agreement_id' AS BIGINT) AS agreement_id,
           payload->>'account_number' AS account_number,
           payload->>'product_code' AS product_code,          -- created only
           payload->>'valid_from' AS valid_from,              -- created only
           CAST(NULL AS VARCHAR) AS valid_to,                 -- in no agreement.* event but rollover
           CASE event_type
               WHEN 'agreement.created' THEN 'created'
               WHEN 'agreement.updated' THEN 'updated'
               WHEN 'agreement.revoked' THEN 'revoked'
               ELSE 'terminated'
           END AS status,
           1 AS position,
           event_type, event_id, occurred_at, loaded_at, source, line
    FROM agreement_events
    WHERE event_type IN ('agreement.created', 'agreement.updated', 'agreement.revoked', 'agreement.terminated')
),
-- agreement.rollover.completed: the expiring agreement is rolled over (position 1); the agreement
-- rolled on to starts with the new product and its own validity (position 2).
expiring AS (
    SELECT CAST(payload->>'expiring_agreement_id' AS BIGINT) AS agreement_id,
           payload->>'account_number' AS account_number,
           CAST(NULL AS VARCHAR) AS product_code,
           CAST(NULL AS VARCHAR) AS valid_from,
           CAST(NULL AS VARCHAR) AS valid_to,
           'rolled_over' AS status,
           1 AS position,
           event_type, event_id, occurred_at, loaded_at, source, line
    FROM agreement_events
    WHERE event_type = 'agreement.rollover.completed'
),
rolled_on AS (
    SELECT CAST(payload->>'rolled_on_to_agreement_id' AS BIGINT) AS agreement_id,
           payload->>'account_number' AS account_number,
           payload->'new_product'->>'code' AS product_code,
           payload->>'rolled_on_to_agreement_valid_from' AS valid_from,
           payload->>'rolled_on_to_agreement_valid_to' AS valid_to,
           'created' AS status,
           2 AS position,
           event_type, event_id, occurred_at, loaded_at, source, line
    FROM agreement_events
    WHERE event_type = 'agreement.rollover.completed'
),
-- lifecycle.join-supplier.agreement.created: every element of agreements[] (JoinAgreement:
-- id, valid_from, valid_to, product_code), with the account of the join; position = 1-based index.
-- The index is unnested beside the list rather than taken from `unnest … WITH ORDINALITY`: a view
-- using ORDINALITY is stored in a form DuckDB before 1.4 cannot read, and the whole file then
-- fails to open there ("Serialization Error: … field id: 202"). No agreements (or none listed):
-- no rows, as with unnest.
join_events AS (
    SELECT *, CAST(payload->'agreements' AS JSON[]) AS agreements
    FROM agreement_events
    WHERE event_type = 'lifecycle.join-supplier.agreement.created'
),
joined AS (
    SELECT CAST(e.agreements[i.position]->>'id' AS BIGINT) AS agreement_id,
           e.payload->>'account_number' AS account_number,
           e.agreements[i.position]->>'product_code' AS product_code,
           e.agreements[i.position]->>'valid_from' AS valid_from,
           e.agreements[i.position]->>'valid_to' AS valid_to,
           'created' AS status,
           CAST(i.position AS INTEGER) AS position,
           e.event_type, e.event_id, e.occurred_at, e.loaded_at, e.source, e.line
    FROM join_events AS e,
         unnest(range(1, len(e.agreements) + 1)) AS i(position)
)
SELECT * FROM single
UNION ALL SELECT * FROM expiring
UNION ALL SELECT * FROM rolled_on
UNION ALL SELECT * FROM joined;
