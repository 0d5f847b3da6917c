// `tariffs consumption import`: a consumption CSV into the warehouse for one meter, in one
// transaction (a bad row fails the file before anything is written), recorded as an ingest run.
import type { Logger } from 'pino';
import { silentLogger } from '../log/createLogger.js';
import { finishRun, startRun } from '../store/ingestRuns.js';
import type { Warehouse } from '../store/Warehouse.js';
import { upsertMeterPoint, writeConsumption, type ConsumptionCounts } from '../store/writeConsumption.js';
import { gasKwh } from './gasKwh.js';
import type { MeterRef } from './parseMeter.js';
import { readConsumptionCsv, type CsvLayout } from './readConsumptionCsv.js';

export interface ImportConsumptionRequest {
  text: string;
  /** File path or 'stdin', for messages. */
  source: string;
  meter: Required<MeterRef>;
  isExport: boolean;
  fuel: 'electricity' | 'gas';
  /** The file's unit: gas meters may report m³. */
  unit: 'kWh' | 'm3';
  calorificValue: number;
  now?: () => Date;
  logger?: Logger;
}

export interface ImportConsumptionSummary extends ConsumptionCounts {
  run_id: number;
  meter_point: string;
  serial: string;
  layout: CsvLayout;
  rows: number;
  first_interval_start: string | null;
  last_interval_end: string | null;
}

export async function importConsumptionFile(warehouse: Warehouse, request: ImportConsumptionRequest): Promise<ImportConsumptionSummary> {
  const now = request.now ?? (() => new Date());
  const logger = request.logger ?? silentLogger();
  // Parse everything first: a bad row stops the import before the database is touched.
  const { layout, readings } = readConsumptionCsv(request.text, request.source);
  const runId = await startRun(warehouse, 'consumption-import', now());
  try {
    const counts = await warehouse.transaction(async () => {
      await upsertMeterPoint(warehouse, {
        meterPoint: request.meter.meterPoint, fuel: request.fuel, isExport: request.isExport,
        serials: [request.meter.serial], accountNumber: null,
      }, now());
      return writeConsumption(warehouse, {
        meterPoint: request.meter.meterPoint, serial: request.meter.serial, source: 'file', runId, now: now(),
        readings: readings.map((r) => ({
          startMs: r.startMs, endMs: r.endMs,
          kwh: request.unit === 'm3' ? gasKwh(r.value, request.calorificValue) : r.value,
          rawValue: r.value, rawUnit: request.unit,
          supplierCostIncVat: r.supplierCostIncVat, supplierStandingChargeIncVat: r.supplierStandingChargeIncVat,
        })),
      });
    });
    await finishRun(warehouse, runId, 'ok', { inserted: counts.inserted, updated: counts.updated, unchanged: counts.unchanged }, now());
    let first = Infinity;
    let last = -Infinity;
    for (const r of readings) {
      first = Math.min(first, r.startMs);
      last = Math.max(last, r.endMs);
    }
    const summary: ImportConsumptionSummary = {
      run_id: runId, meter_point: request.meter.meterPoint, serial: request.meter.serial, layout, rows: readings.length, ...counts,
      first_interval_start: readings.length ? new Date(first).toISOString() : null,
      last_interval_end: readings.length ? new Date(last).toISOString() : null,
    };
    logger.info(summary, 'consumption imported');
    return summary;
  } catch (error) {
    await finishRun(warehouse, runId, 'failed', {}, now(), (error as Error).message).catch(() => undefined);
    throw error;
  }
}
