// Writes fetched rates. A group of batches (each one tariff and rate kind over a window) is one
// transaction: all of them with their cursors, or none. Batches that touch nothing stored (a
// backfill's usual case) are staged together and inserted by one statement per table; a batch
// that overlaps stored rows is merged on its own, keeping revised prices in unit_rate_revisions.
import { DuckDBDataChunk, type DuckDBAppender } from '@duckdb/node-api';
import { moveCursors, storedSpans, streamKey } from './cursors.js';
import type { Warehouse } from './Warehouse.js';
import { valuesList } from './valuesList.js';
import { HALF_HOUR_MS } from '../time/index.js';

import type { RateKind } from '../tariffTerms.js';

export type { RateKind };

/** A rate as the supplier sends it (validated by api/schemas.ts, unitRateSchema). */
export interface Rate {
  value_exc_vat: number;
  value_inc_vat: number;
  valid_from: string;
  valid_to: string | null;
  payment_method?: string | null | undefined;
}

export interface RateBatch {
  tariffCode: string;
  kind: RateKind;
  runId: number;
  rates: StagedRates;
  /** The window this batch covers completely: the cursor moves to it. */
  window: { from: Date; until: Date };
}

export interface WriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** A batch's rates as they are staged: one per (valid_from, payment method), the last one given
 *  winning (a page overlap may repeat a rate), instants in epoch milliseconds. Columns of numbers
 *  are what the writer is handed: a queue of them holds far less than the parsed records. */
export interface StagedRates {
  from: number[];
  /** null: open-ended. */
  to: (number | null)[];
  exc: number[];
  inc: number[];
  pm: (string | null)[];
}

export function stagedRates(rates: readonly Rate[]): StagedRates {
  const last = new Map<number | string, number>();
  const starts = rates.map((r) => Date.parse(r.valid_from));
  // neighbours share a boundary (pages run newest first): an end is parsed only when it is not
  // the next rate's start
  const ends = rates.map((r, i) => (r.valid_to === null ? null
    : r.valid_to === rates[i - 1]?.valid_from ? starts[i - 1]! : Date.parse(r.valid_to)));
  rates.forEach((r, i) => last.set(r.payment_method == null ? starts[i]! : `${starts[i]}|${r.payment_method}`, i));
  const kept = last.size === rates.length ? rates.map((_, i) => i) : [...last.values()].sort((a, b) => a - b);
  return {
    from: kept.map((i) => starts[i]!),
    to: kept.map((i) => ends[i]!),
    exc: kept.map((i) => rates[i]!.value_exc_vat),
    inc: kept.map((i) => rates[i]!.value_inc_vat),
    pm: kept.map((i) => rates[i]!.payment_method ?? null),
  };
}

/** Earliest and latest valid_from (ms); undefined when there is none. */
export function startRange(from: readonly number[]): { earliest: number; latest: number } | undefined {
  if (from.length === 0) return undefined;
  let earliest = Infinity;
  let latest = -Infinity;
  for (const t of from) {
    if (t < earliest) earliest = t;
    if (t > latest) latest = t;
  }
  return { earliest, latest };
}

const STAGE_ROWS = 'stage_rows';
const STAGE_BATCHES = 'stage_batches';

/** Creates the per-connection staging tables (temp: never written to the file). */
export async function prepareStaging(warehouse: Warehouse): Promise<void> {
  await warehouse.run(`CREATE TEMP TABLE IF NOT EXISTS ${STAGE_ROWS} (
    batch INTEGER, valid_from_ms DOUBLE, valid_to_ms DOUBLE, value_exc_vat DOUBLE, value_inc_vat DOUBLE, payment_method VARCHAR)`);
  await warehouse.run(`CREATE TEMP TABLE IF NOT EXISTS ${STAGE_BATCHES} (
    batch INTEGER, tariff_code VARCHAR, rate_type VARCHAR, run_id BIGINT, unit BOOLEAN, long BOOLEAN)`);
}

/** Writes one batch in its own transaction. */
export async function writeRateBatch(warehouse: Warehouse, batch: RateBatch): Promise<WriteCounts> {
  return (await writeRateBatches(warehouse, [batch]))[0]!;
}

/** Writes batches in one transaction, each with its cursor: all of them or none. */
export async function writeRateBatches(warehouse: Warehouse, batches: readonly RateBatch[]): Promise<WriteCounts[]> {
  return warehouse.transaction(async () => {
    const staged = batches.map((batch) => batch.rates);
    const counts: WriteCounts[] = batches.map(() => ({ inserted: 0, updated: 0, unchanged: 0 }));
    // Which batches touch stored rows: stored rows of a stream lie within the span its cursor
    // records, widened by the batches before it in this group (as if written one by one).
    const spans = await storedSpans(warehouse);
    const fresh: number[] = [];
    const merged: number[] = [];
    batches.forEach((batch, i) => {
      const range = startRange(staged[i]!.from);
      if (range === undefined) return;
      const key = streamKey(batch.tariffCode, batch.kind);
      const span = spans.get(key);
      if (span && range.earliest <= span.latest && range.latest >= span.earliest) merged.push(i);
      else fresh.push(i);
      spans.set(key, span
        ? { earliest: Math.min(span.earliest, range.earliest), latest: Math.max(span.latest, range.latest) }
        : range);
    });
    if (fresh.length > 0) {
      await insertFresh(warehouse, fresh.map((i) => ({ batch: batches[i]!, rates: staged[i]! })));
      for (const i of fresh) counts[i] = { inserted: staged[i]!.from.length, updated: 0, unchanged: 0 };
    }
    for (const i of merged) {
      await stage(warehouse, [staged[i]!]);
      counts[i] = await mergeStaged(warehouse, batches[i]!, staged[i]!);
    }
    await moveCursors(warehouse, batches.map((batch, i) => ({ batch, range: startRange(staged[i]!.from) })));
    return counts;
  });
}

/** Replaces the staged rows with these batches' rates, each row numbered by its batch. */
async function stage(warehouse: Warehouse, parts: readonly StagedRates[]): Promise<void> {
  await warehouse.run(`DELETE FROM ${STAGE_ROWS}`);
  const appender = await warehouse.connection.createAppender(STAGE_ROWS, 'main', 'temp');
  try {
    appendStaged(appender, parts);
  } finally {
    appender.closeSync();
  }
}

/** The rows of one data chunk (DuckDB's vector size). */
const VECTOR_ROWS = 2048;

/** Appends the rates a data chunk at a time (DuckDB's public data-chunk API), columns as given. */
function appendStaged(appender: DuckDBAppender, parts: readonly StagedRates[]): void {
  const types = Array.from({ length: appender.columnCount }, (_, i) => appender.columnType(i));
  const chunk = DuckDBDataChunk.create(types, VECTOR_ROWS);
  const vectorRows = VECTOR_ROWS;
  parts.forEach((rates, batch) => {
    for (let start = 0; start < rates.from.length; start += vectorRows) {
      const end = Math.min(start + vectorRows, rates.from.length);
      chunk.setColumns([
        new Array<number>(end - start).fill(batch), rates.from.slice(start, end), rates.to.slice(start, end),
        rates.exc.slice(start, end), rates.inc.slice(start, end), rates.pm.slice(start, end),
      ]);
      appender.appendDataChunk(chunk);
    }
  });
}

/** Batches with nothing stored to compare with: staged together, one INSERT per table. */
async function insertFresh(warehouse: Warehouse, parts: readonly { batch: RateBatch; rates: StagedRates }[]): Promise<void> {
  await stage(warehouse, parts.map((p) => p.rates));
  const staged = STAGE_ROWS;
  await warehouse.run(`DELETE FROM ${STAGE_BATCHES}`);
  const described = valuesList(parts.map(({ batch, rates }, i) => {
    const unit = batch.kind !== 'standing_charge';
    return [i, batch.tariffCode, unit ? batch.kind : 'standing_charge', batch.runId, unit, unit && hasLongRates(rates)];
  }), ['?', '?', '?', '?', '?', '?']);
  await warehouse.run(`INSERT INTO ${STAGE_BATCHES} VALUES ${described.sql}`, described.params);
  const localised = `(${localisedFrom(staged)}) AS s JOIN ${STAGE_BATCHES} AS b USING (batch)`;
  const anyOf = (test: (p: { batch: RateBatch; rates: StagedRates }) => boolean) => parts.some(test);
  if (anyOf((p) => p.batch.kind !== 'standing_charge')) {
    await warehouse.run(`INSERT INTO unit_rates SELECT ${insertColumns(true, 'b')} FROM ${localised} WHERE b.unit`);
  }
  if (anyOf((p) => p.batch.kind === 'standing_charge')) {
    await warehouse.run(`INSERT INTO standing_charges SELECT ${insertColumns(false, 'b')} FROM ${localised} WHERE NOT b.unit`);
  }
  if (anyOf((p) => p.batch.kind !== 'standing_charge' && hasLongRates(p.rates))) {
    await warehouse.run(`INSERT INTO long_unit_rates
      SELECT b.tariff_code, b.rate_type, to_timestamp(s.valid_from_ms / 1000), to_timestamp(s.valid_to_ms / 1000),
             s.value_exc_vat, s.value_inc_vat, s.payment_method
      FROM ${staged} AS s JOIN ${STAGE_BATCHES} AS b USING (batch)
      WHERE b.long AND (s.valid_to_ms IS NULL OR s.valid_to_ms - s.valid_from_ms <> ${HALF_HOUR_MS})`);
  }
}

/** The staged rates with the Europe/London view of valid_from (sql/internal/london_local.sql) and
 *  each rate's duration_us (null when open-ended). */
const localisedFrom = (staged: string) => `
    WITH typed AS (
        SELECT batch, to_timestamp(valid_from_ms / 1000) AS valid_from, to_timestamp(valid_to_ms / 1000) AS valid_to,
               value_exc_vat, value_inc_vat, payment_method
        FROM ${staged}
    ), instants AS (
        -- each instant's local fields once: tariffs fetched together share their half-hours
        SELECT valid_from, london_local(valid_from) AS l FROM (SELECT DISTINCT valid_from FROM typed)
    ), localised AS (
        SELECT typed.*, instants.l FROM typed JOIN instants USING (valid_from)
    )
    SELECT batch, valid_from, valid_to, value_exc_vat, value_inc_vat, payment_method,
           coalesce(payment_method, '') AS pm_key,
           l.local_date, l.local_start, l.utc_offset_minutes, l.settlement_period,
           epoch_us(valid_to) - epoch_us(valid_from) AS duration_us
    FROM localised`;

/** Any rate longer than a half-hour, or open-ended? (They are mirrored in long_unit_rates.) */
function hasLongRates(rates: StagedRates): boolean {
  return rates.to.some((to, i) => to === null || to - rates.from[i]! !== HALF_HOUR_MS);
}

/** One batch that overlaps stored rows, staged alone: revised rows updated (the old values kept
 *  in unit_rate_revisions), new ones inserted, the rest counted unchanged. */
async function mergeStaged(warehouse: Warehouse, batch: RateBatch, rates: StagedRates): Promise<WriteCounts> {
  const unit = batch.kind !== 'standing_charge';
  const table = unit ? 'unit_rates' : 'standing_charges';
  const rateType = unit ? batch.kind : 'standing_charge';
  const typeMatch = unit ? 'AND u.rate_type = $rate_type' : '';
  const durationSet = unit ? ', duration_us = epoch_us(c.new_valid_to) - epoch_us(u.valid_from)' : '';
  const params = { tariff: batch.tariffCode, rate_type: rateType, run: batch.runId };
  const range = startRange(rates.from)!;
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE stage_batch AS ${localisedFrom(STAGE_ROWS)}`);
  const bounds = { lo: new Date(range.earliest).toISOString(), hi: new Date(range.latest).toISOString() };
  const total = rates.from.length;
  const span = { ...params, lo: bounds.lo, hi: bounds.hi };
  // The stored rows this batch may touch, found once (the time bounds let DuckDB skip row groups).
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE stage_changes AS
    SELECT s.valid_from, s.pm_key, u.valid_to AS old_valid_to, u.value_exc_vat AS old_exc, u.value_inc_vat AS old_inc,
           u.run_id AS old_run_id, s.valid_to AS new_valid_to, s.value_exc_vat AS new_exc, s.value_inc_vat AS new_inc,
           s.payment_method
    FROM stage_batch AS s
    JOIN ${table} AS u
      ON u.tariff_code = $tariff ${typeMatch} AND u.valid_from = s.valid_from
     AND coalesce(u.payment_method, '') = s.pm_key
    WHERE u.valid_from BETWEEN CAST($lo AS TIMESTAMPTZ) AND CAST($hi AS TIMESTAMPTZ)
      AND (u.value_exc_vat IS DISTINCT FROM s.value_exc_vat OR u.value_inc_vat IS DISTINCT FROM s.value_inc_vat
           OR u.valid_to IS DISTINCT FROM s.valid_to)`, span);
  const updated = Number((await warehouse.one('SELECT count(*) AS n FROM stage_changes'))!.n);
  if (updated > 0) {
    await warehouse.run(`INSERT INTO unit_rate_revisions
      SELECT $tariff, $rate_type, valid_from, payment_method, old_valid_to, old_exc, old_inc,
             new_valid_to, new_exc, new_inc, old_run_id, $run, now()
      FROM stage_changes`, params);
    await warehouse.run(`UPDATE ${table} AS u
      SET valid_to = c.new_valid_to, value_exc_vat = c.new_exc, value_inc_vat = c.new_inc, run_id = $run${durationSet}
      FROM stage_changes AS c
      WHERE u.tariff_code = $tariff ${typeMatch} AND u.valid_from = c.valid_from
        AND coalesce(u.payment_method, '') = c.pm_key`, params);
  }
  const inserted = await warehouse.reader(`INSERT INTO ${table}
    SELECT ${insertColumns(unit)}
    FROM stage_batch AS s
    WHERE NOT EXISTS (
        SELECT 1 FROM ${table} AS u
        WHERE u.tariff_code = $tariff ${typeMatch} AND u.valid_from = s.valid_from
          AND coalesce(u.payment_method, '') = s.pm_key
          AND u.valid_from BETWEEN CAST($lo AS TIMESTAMPTZ) AND CAST($hi AS TIMESTAMPTZ))`, span);
  const insertedCount = Number(inserted.getRowsJS()[0]?.[0] ?? 0);
  // a stored long rate may have become a half-hour: always resync here (this path is rare)
  if (unit) await syncLongRates(warehouse, params);
  return { inserted: insertedCount, updated, unchanged: total - insertedCount - updated };
}

/** Mirrors the batch's rates into long_unit_rates: those longer than a half-hour or open-ended. */
async function syncLongRates(warehouse: Warehouse, params: Record<string, string | number>): Promise<void> {
  await warehouse.run(`DELETE FROM long_unit_rates
    WHERE tariff_code = $tariff AND rate_type = $rate_type
      AND (valid_from, coalesce(payment_method, '')) IN (SELECT valid_from, pm_key FROM stage_batch)`, params);
  await warehouse.run(`INSERT INTO long_unit_rates
    SELECT $tariff, $rate_type, valid_from, valid_to, value_exc_vat, value_inc_vat, payment_method
    FROM stage_batch
    WHERE valid_to IS NULL OR epoch_us(valid_to) - epoch_us(valid_from) <> 1800000000`, params);
}

/** The stored columns from a localised staging row `s`; tariff, rate type and run from the
 *  batch table `b`, or from the statement's parameters. */
function insertColumns(unit: boolean, from?: 'b'): string {
  const [tariff, rateType, run] = from ? ['b.tariff_code', 'b.rate_type', 'b.run_id'] : ['$tariff', '$rate_type', '$run'];
  return unit
    ? `${tariff}, ${rateType}, s.valid_from, s.valid_to, s.value_exc_vat, s.value_inc_vat, s.payment_method,
       s.local_date, ${run}, s.local_start, s.utc_offset_minutes, s.settlement_period, s.duration_us`
    : `${tariff}, s.valid_from, s.valid_to, s.value_exc_vat, s.value_inc_vat, s.payment_method, s.local_date, ${run}`;
}
