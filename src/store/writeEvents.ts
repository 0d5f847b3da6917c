// Moves a batch of staged event lines into events and event_rejects (the staging tables are
// EventBatchWriter's, filled by its appenders).
import type { Warehouse } from './Warehouse.js';

export type EventBatchSource = { source: string; loaded_at: string };

/** The staged events whose id events does not hold yet (nor an earlier line of the batch): how many. */
export async function insertStagedEvents(warehouse: Warehouse, stage: string, params: EventBatchSource): Promise<number> {
  const reader = await warehouse.reader(`INSERT INTO events
        (id, event_id, event_type, payload_version, occurred_at, payload, loaded_at, source, line)
      WITH first_in_batch AS (
          -- the first line of each id in the batch; lines without an id are never duplicates
          SELECT * FROM ${stage}
          QUALIFY id IS NULL OR row_number() OVER (PARTITION BY id ORDER BY line) = 1
      ), fresh AS (
          -- ids events does not hold yet, from earlier batches or loads (a null id matches nothing)
          SELECT s.* FROM first_in_batch AS s ANTI JOIN events AS e ON e.id = s.id
      )
      SELECT id, event_id, event_type, payload_version, CAST(occurred_at AS TIMESTAMPTZ),
             CAST(payload AS JSON), CAST($loaded_at AS TIMESTAMPTZ), $source, line
      FROM fresh`, params);
  return Number(reader.getRowsJS()[0]?.[0] ?? 0);
}

/** The staged rejected lines. A line rejected before (same source, line and text) is not stored
 *  again: re-loading a file does not grow the table. */
export async function insertStagedRejects(warehouse: Warehouse, stage: string, params: EventBatchSource): Promise<void> {
  await warehouse.run(`INSERT INTO event_rejects (source, line, raw, errors, loaded_at)
      SELECT $source, r.line, r.raw, CAST(r.errors AS JSON), CAST($loaded_at AS TIMESTAMPTZ)
      FROM ${stage} AS r
      ANTI JOIN (SELECT line, raw FROM event_rejects WHERE source = $source) AS x
        ON x.line = r.line AND x.raw = r.raw`, params);
}
