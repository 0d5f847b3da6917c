// `tariffs consumption import` of a long file (meter_point[, serial], interval_start, kwh; CSV or
// Parquet): DuckDB reads it into a temp table, SQL checks every row, one transaction stores it all.
import type { Logger } from 'pino';
import { silentLogger } from '../log/createLogger.js';
import { finishRun, startRun } from '../store/ingestRuns.js';
import type { Warehouse } from '../store/Warehouse.js';
import { mergeConsumption, upsertMeterPointsOf, type ConsumptionCounts } from '../store/writeConsumption.js';
import {
  CONSUMPTION_STAGE, dropConsumptionStage, firstRepeatedHalfHour, stageConsumptionFile, stagedConsumptionRows, stagedConsumptionTotals,
} from '../store/writeConsumptionFile.js';
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
        await upsertMeterPointsOf(warehouse, CONSUMPTION_STAGE, request.fuel, request.isExport, at);
        return mergeConsumption(warehouse, stagedConsumptionRows(runId), runId, at);
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
    await dropConsumptionStage(warehouse);
  }
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
    await stageConsumptionFile(warehouse, {
      relation: file.relation, mp: textOf(mp), serial: serial ? textOf(serial) : 'CAST(NULL AS VARCHAR)',
      startRaw: textOf(start), start: instant.value, kwhRaw: textOf(kwh), kwh: number.value, problem: problemSql(checks),
    });
  } catch (error) {
    throw readError(request.source, error);
  }
  const bad = await firstBadRow(warehouse, file, CONSUMPTION_STAGE);
  const duplicate = await firstRepeatedHalfHour(warehouse);
  if (duplicate && (!bad || duplicate.row < bad.index)) {
    const who = `meter ${duplicate.meter_point}${duplicate.serial ? `:${duplicate.serial}` : ''}`;
    throw new FileRowError(request.source, await locate(file, duplicate.row), start.name,
      `the half-hour ${duplicate.at} of ${who} is already on ${await locate(file, duplicate.first)}`);
  }
  if (bad) throw await bad.error();
  const totals = await stagedConsumptionTotals(warehouse);
  const iso = (value: unknown, plusMs = 0) => (value == null ? null : new Date(new Date(value as string | Date).getTime() + plusMs).toISOString());
  return {
    layout: file.format === 'csv' ? 'long-csv' : 'long-parquet',
    meters: totals.meters, rows: totals.rows,
    first_interval_start: iso(totals.first), last_interval_end: iso(totals.last, 1_800_000),
  };
}
