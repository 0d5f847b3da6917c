// Writes one batch of fetched rates for one tariff and rate kind: appender into a temp staging
// table, dedupe, keep revised prices in unit_rate_revisions, update changed rows, insert new ones,
// and move the tariff's cursor — all in one transaction, so a batch is stored whole or not at all.
import type { DuckDBAppender } from '@duckdb/node-api';
import { RateColumns } from './RateColumns.js';
import type { Warehouse } from './Warehouse.js';
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

const STAGE = 'stage_rates';

/** Creates the per-connection staging table (temp: never written to the file). */
export async function prepareStaging(warehouse: Warehouse): Promise<void> {
  await warehouse.run(`CREATE TEMP TABLE IF NOT EXISTS ${STAGE} (
    valid_from_ms DOUBLE, valid_to_ms DOUBLE, value_exc_vat DOUBLE, value_inc_vat DOUBLE, payment_method VARCHAR)`);
}

/** Writes one batch in its own transaction. */
export async function writeRateBatch(warehouse: Warehouse, batch: RateBatch): Promise<WriteCounts> {
  return (await writeRateBatches(warehouse, [batch]))[0]!;
}

/** Writes batches in one transaction, each with its cursor, in order: all of them or none. One
 *  commit for several batches saves its fixed cost (a WAL sync) when the writer has a queue. */
export async function writeRateBatches(warehouse: Warehouse, batches: readonly RateBatch[]): Promise<WriteCounts[]> {
  return warehouse.transaction(async () => {
    const counts: WriteCounts[] = [];
    for (const batch of batches) counts.push(await stageAndMerge(warehouse, batch));
    return counts;
  });
}

async function stageAndMerge(warehouse: Warehouse, batch: RateBatch): Promise<WriteCounts> {
  await warehouse.run(`DELETE FROM ${STAGE}`);
  const rates = batch.rates.deduped();
  if (rates.length > 0) {
    const appender = await warehouse.connection.createAppender(STAGE, 'main', 'temp');
    try {
      appendRates(appender, rates);
    } finally {
      appender.closeSync();
    }
  }
  const counts = rates.length > 0 ? await mergeStaged(warehouse, batch, rates) : { inserted: 0, updated: 0, unchanged: 0 };
  await moveCursor(warehouse, batch);
  return counts;
}

function appendRates(appender: DuckDBAppender, rates: RateColumns): void {
  const { validFrom, validTo, valueExcVat, valueIncVat, paymentMethod } = rates;
  for (let i = 0; i < rates.length; i++) {
    appender.appendDouble(validFrom[i]!);
    const to = validTo[i]!;
    if (Number.isNaN(to)) appender.appendNull();
    else appender.appendDouble(to);
    appender.appendDouble(valueExcVat[i]!);
    appender.appendDouble(valueIncVat[i]!);
    const pm = paymentMethod[i];
    if (pm == null) appender.appendNull();
    else appender.appendVarchar(pm);
    appender.endRow();
  }
}

/** The staged rates with the Europe/London view of valid_from, by arithmetic on london_days: d1 is
 *  the UTC date an hour later (the local date is d1, or the day before when the instant precedes
 *  d1's start, which happens only in GMT), and the offset is the day's, switched at its change. */
const LOCALISED = `
    WITH typed AS (
        SELECT to_timestamp(valid_from_ms / 1000) AS valid_from, to_timestamp(valid_to_ms / 1000) AS valid_to,
               value_exc_vat, value_inc_vat, payment_method
        FROM ${STAGE}
    ), keyed AS (
        SELECT *, epoch_us(valid_from) AS us,
               DATE '1970-01-01' + CAST((epoch_us(valid_from) // 1000000 + 3600) // 86400 AS INTEGER) AS d1
        FROM typed
    ), placed AS (
        SELECT k.*, k.valid_from >= d.day_start AS same_day, d.day_start, d.prev_day_start,
               CASE WHEN k.valid_from < d.day_start THEN 0
                    WHEN d.change_at IS NOT NULL AND k.valid_from >= d.change_at THEN d.end_offset_minutes
                    ELSE d.start_offset_minutes END AS offset_minutes
        FROM keyed AS k
        JOIN london_days AS d ON d.local_date = k.d1
    )
    SELECT valid_from, valid_to, value_exc_vat, value_inc_vat, payment_method,
           coalesce(payment_method, '') AS pm_key,
           CASE WHEN same_day THEN d1 ELSE d1 - 1 END AS local_date,
           make_timestamp(us + offset_minutes * 60000000::BIGINT) AS local_start,
           CAST(offset_minutes AS SMALLINT) AS utc_offset_minutes,
           CAST((us - epoch_us(CASE WHEN same_day THEN day_start ELSE prev_day_start END)) // 1800000000 + 1 AS SMALLINT)
             AS settlement_period
    FROM placed`;


/** Any rate longer than a half-hour, or open-ended? (They are mirrored in long_unit_rates.) */
function hasLongRates(rates: RateColumns): boolean {
  for (let i = 0; i < rates.length; i++) {
    const to = rates.validTo[i]!;
    if (Number.isNaN(to) || to - rates.validFrom[i]! !== HALF_HOUR_MS) return true;
  }
  return false;
}

async function mergeStaged(warehouse: Warehouse, batch: RateBatch, rates: RateColumns): Promise<WriteCounts> {
  const unit = batch.kind !== 'standing_charge';
  const table = unit ? 'unit_rates' : 'standing_charges';
  const rateType = unit ? batch.kind : 'standing_charge';
  const typeMatch = unit ? 'AND u.rate_type = $rate_type' : '';
  const params = { tariff: batch.tariffCode, rate_type: rateType, run: batch.runId };
  const range = rates.startRange()!;
  // Stored rows of this tariff and kind lie within the span its cursor records; a batch outside
  // it (a backfill's usual case) has nothing to compare with: one INSERT straight from staging.
  const stored = await warehouse.one(`SELECT epoch_ms(earliest_valid_from) AS earliest, epoch_ms(latest_valid_from) AS latest
    FROM ingest_cursors WHERE tariff_code = $tariff AND rate_kind = $kind`, { tariff: batch.tariffCode, kind: batch.kind });
  const overlaps = stored?.earliest != null && stored.latest != null
    && range.earliest <= (stored.latest as number) && range.latest >= (stored.earliest as number);
  const long = unit && hasLongRates(rates);
  if (!overlaps) {
    await warehouse.run(`INSERT INTO ${table} SELECT ${insertColumns(unit)} FROM (${LOCALISED}) AS s`, params);
    if (long) {
      await warehouse.run(`INSERT INTO long_unit_rates
        SELECT $tariff, $rate_type, to_timestamp(valid_from_ms / 1000), to_timestamp(valid_to_ms / 1000),
               value_exc_vat, value_inc_vat, payment_method
        FROM ${STAGE}
        WHERE valid_to_ms IS NULL OR valid_to_ms - valid_from_ms <> ${HALF_HOUR_MS}`, params);
    }
    return { inserted: rates.length, updated: 0, unchanged: 0 };
  }
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE stage_batch AS ${LOCALISED}`);
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
      SET valid_to = c.new_valid_to, value_exc_vat = c.new_exc, value_inc_vat = c.new_inc, run_id = $run
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

function insertColumns(unit: boolean): string {
  return unit
    ? `$tariff, $rate_type, s.valid_from, s.valid_to, s.value_exc_vat, s.value_inc_vat, s.payment_method,
       s.local_date, $run, s.local_start, s.utc_offset_minutes, s.settlement_period`
    : `$tariff, s.valid_from, s.valid_to, s.value_exc_vat, s.value_inc_vat, s.payment_method, s.local_date, $run`;
}

async function moveCursor(warehouse: Warehouse, batch: RateBatch): Promise<void> {
  const range = batch.rates.startRange();
  const iso = (t: number | undefined) => (t === undefined ? null : new Date(t).toISOString());
  await warehouse.run(`INSERT INTO ingest_cursors AS c
      VALUES ($tariff, $kind, CAST($from AS TIMESTAMPTZ), CAST($until AS TIMESTAMPTZ),
              CAST($latest AS TIMESTAMPTZ), CAST($earliest AS TIMESTAMPTZ), $run, now())
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
      updated_at = excluded.updated_at`, {
    tariff: batch.tariffCode, kind: batch.kind, from: batch.window.from.toISOString(),
    until: batch.window.until.toISOString(), latest: iso(range?.latest), earliest: iso(range?.earliest), run: batch.runId,
  });
}
