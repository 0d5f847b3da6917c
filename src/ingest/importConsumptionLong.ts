// `tariffs consumption import` of a long file (meter_point[, serial], interval_start, kwh; CSV or
// Parquet): DuckDB reads it into a temp table, SQL checks every row, one transaction stores it all.
import type { Logger } from 'pino';
import { silentLogger } from '../log/createLogger.js';
import { finishRun, startRun } from '../store/ingestRuns.js';
import type { Warehouse } from '../store/Warehouse.js';
import { mergeConsumption, upsertMeterPointsOf, type ConsumptionCounts } from '../store/writeConsumption.js';
import {
  column, csvHeader, FileRowError, firstBadRow, formatOf, instantOf, locate, numberOf, openTableFile, problemSql,
  readError, textOf, type Check,
} from './tableFile.js';

export interface ImportLongRequest {
  path: string;
  /** The path, or 'stdin', for messages. */
  source: string;
  isExport: boolean;
  fuel: 'electricity' | 'gas';
  now?: () => Date;
  logger?: Logger;
}

export interface ImportLongSummary extends ConsumptionCounts {
  run_id: number;
  layout: 'long-csv' | 'long-parquet';
  meters: number;
  rows: number;
  first_interval_start: string | null;
  last_interval_end: string | null;
}

const STAGE = 'stage_consumption_file';
const EXPECTED = "meter_point, interval_start, kwh (and optionally serial)";
const METER_RE = '[0-9A-Za-z_-]{4,20}';
const SERIAL_RE = '[0-9A-Za-z_-]{1,40}';

/** A Parquet file, or a CSV whose header has a meter_point column. */
export function isLongFile(path: string): boolean {
  return formatOf(path) === 'parquet' || csvHeader(path).some((name) => name.toLowerCase() === 'meter_point');
}

export async function importConsumptionLong(warehouse: Warehouse, request: ImportLongRequest): Promise<ImportLongSummary> {
  const now = request.now ?? (() => new Date());
  const logger = request.logger ?? silentLogger();
  try {
    const staged = await stage(warehouse, request);
    const runId = await startRun(warehouse, 'consumption-import', now());
    try {
      const at = now();
      const counts = await warehouse.transaction(async () => {
        await upsertMeterPointsOf(warehouse, STAGE, request.fuel, request.isExport, at);
        return mergeConsumption(warehouse, rowsOf(runId), runId, at);
      });
      await finishRun(warehouse, runId, 'ok', { ...counts }, now());
      const summary: ImportLongSummary = { run_id: runId, ...staged, ...counts };
      logger.info(summary, 'consumption imported');
      return summary;
    } catch (error) {
      await finishRun(warehouse, runId, 'failed', {}, now(), (error as Error).message).catch(() => undefined);
      throw error;
    }
  } finally {
    await warehouse.run(`DROP TABLE IF EXISTS temp.${STAGE}`).catch(() => undefined);
  }
}

/** The staged rows as consumption rows of the run. */
function rowsOf(runId: number): string {
  return `(SELECT meter_point, serial, interval_start, interval_start + INTERVAL 30 MINUTE AS interval_end,
                  l.local_date, l.settlement_period, kwh, kwh AS raw_value, 'kWh' AS raw_unit, 'file' AS source,
                  CAST(NULL AS DOUBLE) AS supplier_cost_inc_vat, CAST(NULL AS DOUBLE) AS supplier_standing_charge_inc_vat,
                  CAST(${Math.trunc(runId)} AS BIGINT) AS run_id
           FROM (SELECT *, london_local(interval_start) AS l FROM temp.${STAGE}))`;
}

/** Reads the file into the staging table and checks it; throws the first bad row's error. */
async function stage(warehouse: Warehouse, request: ImportLongRequest): Promise<Omit<ImportLongSummary, 'run_id' | keyof ConsumptionCounts>> {
  const file = await openTableFile(warehouse, request.path, request.source);
  const mp = column(file, 'meter_point', true, EXPECTED);
  const serial = column(file, 'serial', false, EXPECTED);
  const start = column(file, 'interval_start', true, EXPECTED);
  const kwh = column(file, 'kwh', true, EXPECTED);
  const instant = instantOf(file, start);
  const number = numberOf(file, kwh);
  const checks: Check[] = [
    { column: mp.name, when: 'mp IS NULL', detail: "'is empty'" },
    { column: mp.name, when: `NOT regexp_full_match(mp, '${METER_RE}')`, detail: "'''' || mp || ''' is not an MPAN or MPRN'" },
    ...(serial ? [{ column: serial.name, when: `sn IS NOT NULL AND NOT regexp_full_match(sn, '${SERIAL_RE}')`, detail: "'''' || sn || ''' is not a meter serial'" }] : []),
    { column: start.name, when: 'ts_raw IS NULL', detail: "'is empty'" },
    ...instant.checks('ts', 'ts_raw'),
    { column: start.name, when: 'epoch_us(ts) % 1800000000 <> 0', detail: "'''' || ts_raw || ''' does not start a half-hour'" },
    { column: kwh.name, when: 'v_raw IS NULL', detail: "'is empty'" },
    ...number.checks('v', 'v_raw'),
    { column: kwh.name, when: 'v < 0', detail: "'''' || v_raw || ''' is negative'" },
  ];
  try {
    await warehouse.run('SET preserve_insertion_order = true'); // rowid is the row's place in the file
    await warehouse.run(`CREATE OR REPLACE TEMP TABLE ${STAGE} AS
      SELECT mp AS meter_point, coalesce(sn, '') AS serial, ts AS interval_start, v AS kwh, ${problemSql(checks)} AS problem
      FROM (SELECT ${textOf(mp)} AS mp, ${serial ? textOf(serial) : 'CAST(NULL AS VARCHAR)'} AS sn,
                   ${textOf(start)} AS ts_raw, ${instant.value} AS ts, ${textOf(kwh)} AS v_raw, ${number.value} AS v
            FROM ${file.relation})`);
  } catch (error) {
    throw readError(request.source, error);
  }
  const bad = await firstBadRow(warehouse, file, STAGE);
  const duplicate = await warehouse.one(`
    WITH twice AS (
        SELECT meter_point, serial, interval_start FROM ${STAGE} WHERE problem IS NULL GROUP BY ALL HAVING count(*) > 1
    ), rows AS (
        SELECT s.rowid AS r, min(s.rowid) OVER (PARTITION BY s.meter_point, s.serial, s.interval_start) AS first,
               s.meter_point, s.serial, s.interval_start
        FROM ${STAGE} AS s SEMI JOIN twice USING (meter_point, serial, interval_start)
    )
    SELECT r, first, meter_point, serial, strftime(interval_start AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS at
    FROM rows WHERE r > first ORDER BY r LIMIT 1`);
  if (duplicate && (!bad || Number(duplicate.r) < bad.index)) {
    const who = `meter ${String(duplicate.meter_point)}${duplicate.serial ? `:${String(duplicate.serial)}` : ''}`;
    throw new FileRowError(request.source, await locate(file, Number(duplicate.r)), start.name,
      `the half-hour ${String(duplicate.at)} of ${who} is already on ${await locate(file, Number(duplicate.first))}`);
  }
  if (bad) throw await bad.error();
  const totals = (await warehouse.one(`
    SELECT count(*) AS rows, count(DISTINCT meter_point) AS meters, min(interval_start) AS first, max(interval_start) AS last
    FROM ${STAGE}`))!;
  const iso = (value: unknown, plusMs = 0) => (value == null ? null : new Date(new Date(value as string | Date).getTime() + plusMs).toISOString());
  return {
    layout: file.format === 'csv' ? 'long-csv' : 'long-parquet',
    meters: Number(totals.meters), rows: Number(totals.rows),
    first_interval_start: iso(totals.first), last_interval_end: iso(totals.last, 1_800_000),
  };
}
