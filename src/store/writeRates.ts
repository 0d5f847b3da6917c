// Writes fetched rates. A group of batches (each one tariff and rate kind over a window) is one
// transaction: all of them with their cursors, or none. Batches that touch nothing stored (a
// backfill's usual case) are staged together and inserted by one statement per table; a batch
// that overlaps stored rows is merged on its own, keeping revised prices in unit_rate_revisions.
import { DOUBLE, DuckDBDataChunk, INTEGER, type DuckDBAppender } from '@duckdb/node-api';
import type { RateColumns } from '../rates/RateColumns.js';
import { moveCursors, storedSpans, streamKey } from './cursors.js';
import type { Warehouse } from './Warehouse.js';
import { valuesList } from './valuesList.js';
import { HALF_HOUR_MS } from '../time/index.js';

/** standard/day/night go to unit_rates; standing_charge to standing_charges. */
export type RateKind = 'standard' | 'day' | 'night' | 'standing_charge';

export interface RateBatch {
  tariffCode: string;
  kind: RateKind;
  runId: number;
  rates: RateColumns;
  /** The window this batch covers completely: the cursor moves to it. */
  window: { from: Date; until: Date };
}

export interface WriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** The staged rates as the SQL below reads them: stage_rows with payment methods by name. */
const STAGE = 'stage_rates';
/** The same when no staged rate has a payment method (the usual case): without the join that
 *  names them, which cost DuckDB 10-30 ms of a 245,760-rate INSERT of 110-140 ms. */
const STAGE_WITHOUT_PM = `(SELECT batch, valid_from_ms, valid_to_ms, value_exc_vat, value_inc_vat, NULL::VARCHAR AS payment_method
    FROM stage_rows)`;
const STAGE_ROWS = 'stage_rows';
const STAGE_PM = 'stage_payment_methods';
const STAGE_BATCHES = 'stage_batches';

/** Creates the per-connection staging tables (temp: never written to the file). */
export async function prepareStaging(warehouse: Warehouse): Promise<void> {
  // Numbers only, so that a vector of rows is copied column by column; a payment method is a
  // number too (0: none), named in stage_payment_methods.
  await warehouse.run(`CREATE TEMP TABLE IF NOT EXISTS ${STAGE_ROWS} (
    batch INTEGER, valid_from_ms DOUBLE, valid_to_ms DOUBLE, value_exc_vat DOUBLE, value_inc_vat DOUBLE, pm INTEGER)`);
  await warehouse.run(`CREATE TEMP TABLE IF NOT EXISTS ${STAGE_PM} (pm INTEGER, payment_method VARCHAR)`);
  await warehouse.run(`CREATE OR REPLACE TEMP VIEW ${STAGE} AS
    SELECT r.batch, r.valid_from_ms, r.valid_to_ms, r.value_exc_vat, r.value_inc_vat, p.payment_method
    FROM ${STAGE_ROWS} AS r LEFT JOIN ${STAGE_PM} AS p USING (pm)`);
  await warehouse.run(`CREATE TEMP TABLE IF NOT EXISTS ${STAGE_BATCHES} (
    batch INTEGER, tariff_code VARCHAR, rate_type VARCHAR, run_id BIGINT, unit BOOLEAN, long BOOLEAN)`);
}

/** Writes one batch in its own transaction. */
export async function writeRateBatch(warehouse: Warehouse, batch: RateBatch): Promise<WriteCounts> {
  return (await writeRateBatches(warehouse, [batch]))[0]!;
}

/** Writes batches in one transaction, each with its cursor: all of them or none. One commit for
 *  many batches saves its fixed cost, and from a row group (122,880 rows) on DuckDB writes the
 *  rows straight into the file, compressed, rather than through the WAL and a later checkpoint. */
export async function writeRateBatches(warehouse: Warehouse, batches: readonly RateBatch[]): Promise<WriteCounts[]> {
  return warehouse.transaction(async () => {
    const deduped = batches.map((batch) => batch.rates.deduped());
    const counts: WriteCounts[] = batches.map(() => ({ inserted: 0, updated: 0, unchanged: 0 }));
    // Which batches touch stored rows: stored rows of a stream lie within the span its cursor
    // records, widened by the batches before it in this group (as if written one by one).
    const spans = await storedSpans(warehouse);
    const fresh: number[] = [];
    const merged: number[] = [];
    batches.forEach((batch, i) => {
      const range = deduped[i]!.startRange();
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
      await insertFresh(warehouse, fresh.map((i) => ({ batch: batches[i]!, rates: deduped[i]! })));
      for (const i of fresh) counts[i] = { inserted: deduped[i]!.length, updated: 0, unchanged: 0 };
    }
    for (const i of merged) {
      const staged = await stage(warehouse, [deduped[i]!]);
      counts[i] = await mergeStaged(warehouse, batches[i]!, deduped[i]!, staged);
    }
    await moveCursors(warehouse, batches);
    return counts;
  });
}

/** Replaces the staged rows with these batches' rates, numbered by their position, appended as
 *  data chunks (one native copy a column of 2048 rows, not one call a value). Returns what the SQL
 *  reads them as (STAGE, or STAGE_WITHOUT_PM). */
async function stage(warehouse: Warehouse, parts: readonly RateColumns[]): Promise<string> {
  await warehouse.run(`DELETE FROM ${STAGE_ROWS}`);
  await warehouse.run(`DELETE FROM ${STAGE_PM}`);
  const codes = new Map<string, number>();
  for (const rates of parts) {
    for (const pm of rates.paymentMethod) if (pm != null && !codes.has(pm)) codes.set(pm, codes.size + 1);
  }
  if (codes.size > 0) {
    const names = [...codes.keys()];
    await warehouse.run(`INSERT INTO ${STAGE_PM} VALUES ${names.map((_, i) => `(${i + 1}, $${i + 1})`).join(', ')}`, names);
  }
  const appender = await warehouse.connection.createAppender(STAGE_ROWS, 'main', 'temp');
  try {
    appendStaged(appender, parts, codes);
  } finally {
    appender.closeSync();
  }
  return codes.size > 0 ? STAGE : STAGE_WITHOUT_PM;
}

const VECTOR_ROWS = 2048;
const STAGE_TYPES = [INTEGER, DOUBLE, DOUBLE, DOUBLE, DOUBLE, INTEGER];

/**
 * Appends the batches' rates (each row numbered by its batch) through one data chunk of
 * VECTOR_ROWS rows, filled across batch boundaries and appended each time it is full: each value
 * set straight from the columns into the chunk's vectors through the public getColumnVector,
 * setItem and flush that setColumns uses itself. The appender copies a chunk, so one chunk (and
 * its vectors' buffers) serves the whole group, where a chunk a batch slice left ~100 KB of
 * buffers a 2,048 rows for the garbage collector. (With BodyBuffers.ts, the backfill's peak RSS
 * went from 314-334 MB to 295-315 MB: see src/api/BodyBuffers.ts. This part alone moved it less
 * than one run differs from the next.)
 */
function appendStaged(appender: DuckDBAppender, parts: readonly RateColumns[], codes: Map<string, number>): void {
  const chunk = DuckDBDataChunk.create(STAGE_TYPES, VECTOR_ROWS);
  const vectors = STAGE_TYPES.map((_, column) => chunk.getColumnVector(column));
  const vector = (column: number) => vectors[column]!;
  const batchOf = vector(0), from = vector(1), to = vector(2), exc = vector(3), inc = vector(4), paymentMethod = vector(5);
  const append = (rows: number) => {
    for (const written of vectors) written.flush();
    // the last chunk's rows (the vectors are not used again: setting the count drops them)
    if (rows < VECTOR_ROWS) chunk.rowCount = rows;
    appender.appendDataChunk(chunk);
  };
  let i = 0;
  parts.forEach((rates, batch) => {
    for (let row = 0; row < rates.length; row++) {
      const validTo = rates.validTo[row]!;
      const method = rates.paymentMethod[row];
      batchOf.setItem(i, batch);
      from.setItem(i, rates.validFrom[row]!);
      to.setItem(i, Number.isNaN(validTo) ? null : validTo); // NaN: open-ended
      exc.setItem(i, rates.valueExcVat[row]!);
      inc.setItem(i, rates.valueIncVat[row]!);
      paymentMethod.setItem(i, method == null ? 0 : codes.get(method)!);
      if (++i === VECTOR_ROWS) {
        append(i);
        i = 0;
      }
    }
  });
  if (i > 0) append(i);
}

/** Batches with nothing stored to compare with: staged together, one INSERT per table. */
async function insertFresh(warehouse: Warehouse, parts: readonly { batch: RateBatch; rates: RateColumns }[]): Promise<void> {
  const staged = await stage(warehouse, parts.map((p) => p.rates));
  await warehouse.run(`DELETE FROM ${STAGE_BATCHES}`);
  const described = valuesList(parts.map(({ batch, rates }, i) => {
    const unit = batch.kind !== 'standing_charge';
    return [i, batch.tariffCode, unit ? batch.kind : 'standing_charge', batch.runId, unit, unit && hasLongRates(rates)];
  }), ['?', '?', '?', '?', '?', '?']);
  await warehouse.run(`INSERT INTO ${STAGE_BATCHES} VALUES ${described.sql}`, described.params);
  const localised = `(${localisedFrom(staged)}) AS s JOIN ${STAGE_BATCHES} AS b USING (batch)`;
  const anyOf = (test: (p: { batch: RateBatch; rates: RateColumns }) => boolean) => parts.some(test);
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

/** The staged rates with the Europe/London view of valid_from (sql/macros/london_local.sql) and
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
function hasLongRates(rates: RateColumns): boolean {
  for (let i = 0; i < rates.length; i++) {
    const to = rates.validTo[i]!;
    if (Number.isNaN(to) || to - rates.validFrom[i]! !== HALF_HOUR_MS) return true;
  }
  return false;
}

/** One batch that overlaps stored rows, staged alone: revised rows updated (the old values kept
 *  in unit_rate_revisions), new ones inserted, the rest counted unchanged. */
async function mergeStaged(warehouse: Warehouse, batch: RateBatch, rates: RateColumns, staged: string): Promise<WriteCounts> {
  const unit = batch.kind !== 'standing_charge';
  const table = unit ? 'unit_rates' : 'standing_charges';
  const rateType = unit ? batch.kind : 'standing_charge';
  const typeMatch = unit ? 'AND u.rate_type = $rate_type' : '';
  const durationSet = unit ? ', duration_us = epoch_us(c.new_valid_to) - epoch_us(u.valid_from)' : '';
  const params = { tariff: batch.tariffCode, rate_type: rateType, run: batch.runId };
  const range = rates.startRange()!;
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE stage_batch AS ${localisedFrom(staged)}`);
  const bounds = { lo: new Date(range.earliest).toISOString(), hi: new Date(range.latest).toISOString() };
  const total = rates.length;
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
