// The ingest's cursors (ingest_cursors): per tariff and rate kind, the window fetched so far and
// the span of valid_from stored. Read when planning a run (where each stream resumes) and inside a
// write's transaction (which batches may touch stored rows); moved in the same transaction as the
// rates they cover, so a cursor never passes a gap.
import type { Warehouse } from './Warehouse.js';
import { valuesList } from './valuesList.js';
import type { RateBatch, RateKind } from './writeRates.js';

/** A stream's cursor as planning reads it (instants as ISO text). */
export interface Cursor {
  fetched_until: string;
  latest_valid_from: string | null;
  updated_at: string;
}

export function streamKey(tariffCode: string, kind: RateKind): string {
  return `${tariffCode}|${kind}`;
}

/** Every stream's cursor, by streamKey. */
export async function readCursors(warehouse: Warehouse): Promise<Map<string, Cursor>> {
  const cursors = new Map<string, Cursor>();
  for (const row of await warehouse.all('SELECT tariff_code, rate_kind, fetched_until, latest_valid_from, updated_at FROM ingest_cursors')) {
    cursors.set(streamKey(row.tariff_code as string, row.rate_kind as RateKind), {
      fetched_until: row.fetched_until as string,
      latest_valid_from: row.latest_valid_from as string | null,
      updated_at: row.updated_at as string,
    });
  }
  return cursors;
}

/** The tariffs the ingest has fetched at least once (those with a cursor). */
export async function fetchedTariffs(warehouse: Warehouse): Promise<Set<string>> {
  return new Set((await warehouse.all<{ tariff_code: string }>('SELECT DISTINCT tariff_code FROM ingest_cursors')).map((r) => r.tariff_code));
}

/** The span of valid_from each stream has stored (epoch ms), by streamKey. */
export async function storedSpans(warehouse: Warehouse): Promise<Map<string, { earliest: number; latest: number }>> {
  const spans = new Map<string, { earliest: number; latest: number }>();
  for (const row of await warehouse.all(`SELECT tariff_code, rate_kind, epoch_ms(earliest_valid_from) AS earliest,
      epoch_ms(latest_valid_from) AS latest
    FROM ingest_cursors WHERE earliest_valid_from IS NOT NULL AND latest_valid_from IS NOT NULL`)) {
    spans.set(streamKey(row.tariff_code as string, row.rate_kind as RateKind), { earliest: Number(row.earliest), latest: Number(row.latest) });
  }
  return spans;
}

/** Each stream's cursor moved over its batches' windows, in one statement (call it inside the
 *  batches' transaction). A group holds consecutive batches of a stream in order, contiguous
 *  windows, so they fold into one window a stream, with the same result as moving the cursor
 *  batch by batch. */
export async function moveCursors(
  warehouse: Warehouse, batches: readonly { batch: RateBatch; range: { earliest: number; latest: number } | undefined }[],
): Promise<void> {
  const folded = new Map<string, CursorMove>();
  for (const { batch, range } of batches) {
    const key = streamKey(batch.tariffCode, batch.kind);
    const f = folded.get(key);
    if (f === undefined || f.until !== batch.window.from.getTime()) {
      if (f !== undefined) await moveCursor(warehouse, [f]); // not contiguous: moved in order
      folded.set(key, { batch, from: batch.window.from.getTime(), until: batch.window.until.getTime(), earliest: range?.earliest, latest: range?.latest });
      continue;
    }
    f.until = Math.max(f.until, batch.window.until.getTime());
    if (range) {
      f.earliest = Math.min(f.earliest ?? Infinity, range.earliest);
      f.latest = Math.max(f.latest ?? -Infinity, range.latest);
    }
  }
  if (folded.size > 0) await moveCursor(warehouse, [...folded.values()]);
}

interface CursorMove { batch: RateBatch; from: number; until: number; earliest?: number; latest?: number }

/** Moves the cursors of distinct streams. */
async function moveCursor(warehouse: Warehouse, moves: readonly CursorMove[]): Promise<void> {
  const iso = (t: number | undefined) => (t === undefined ? null : new Date(t).toISOString());
  const instant = 'CAST(? AS TIMESTAMPTZ)';
  const rows = valuesList(moves.map(({ batch, from, until, earliest, latest }) => [
    batch.tariffCode, batch.kind, iso(from), iso(until), iso(latest), iso(earliest), batch.runId,
  ]), ['?', '?', instant, instant, instant, instant, '?', 'now()']);
  await warehouse.run(`INSERT INTO ingest_cursors AS c
      VALUES ${rows.sql}
    ON CONFLICT (tariff_code, rate_kind) DO UPDATE SET
      fetched_from = least(c.fetched_from, excluded.fetched_from),
      -- only a window that starts inside what is stored extends it (no gaps hidden behind the cursor)
      fetched_until = CASE WHEN excluded.fetched_from <= c.fetched_until
                           THEN greatest(c.fetched_until, excluded.fetched_until) ELSE c.fetched_until END,
      latest_valid_from = CASE WHEN c.latest_valid_from IS NULL THEN excluded.latest_valid_from
                               WHEN excluded.latest_valid_from IS NULL THEN c.latest_valid_from
                               ELSE greatest(c.latest_valid_from, excluded.latest_valid_from) END,
      earliest_valid_from = CASE WHEN c.earliest_valid_from IS NULL THEN excluded.earliest_valid_from
                               WHEN excluded.earliest_valid_from IS NULL THEN c.earliest_valid_from
                               ELSE least(c.earliest_valid_from, excluded.earliest_valid_from) END,
      run_id = excluded.run_id,
      updated_at = excluded.updated_at`, rows.params);
}
