// The accounts' meters, agreements and half-hourly consumption into the warehouse. Incremental:
// each meter continues from its cursor less a look-back (readings arrive late, for days), else
// from its earliest agreement (not before the default start); idempotent (upserts, revisions
// kept). The consumption endpoints are not in the documented interface, so they are optional
// resources: a 404/410/400 or exhausted retries is one warning naming the meter, the resource,
// the URL and the status, and the run carries on; a block or rate limit fails the meter instead.
import type { Logger } from 'pino';
import type { AccountMeters, ConsumptionRecord } from '../api/consumptionSchemas.js';
import { ApiError, ApiValidationError, HttpStatusError, RetriesExhaustedError, refusedByApi } from '../api/errors.js';
import type { OctopusClient } from '../api/OctopusClient.js';
import type { Warehouse } from '../store/Warehouse.js';
import { moveConsumptionCursor, readConsumptionCursor } from '../store/consumptionCursors.js';
import {
  replaceAgreements, upsertMeterPoint, writeConsumption, type ConsumptionReading,
} from '../store/writeConsumption.js';
import { HALF_HOUR_MS } from '../time/index.js';
import { gasKwh } from './gasKwh.js';
import { parseInstant } from '../time/parseInstant.js';

export interface IngestConsumptionOptions {
  warehouse: Warehouse;
  client: OctopusClient;
  logger: Logger;
  accounts: readonly string[];
  runId: number;
  now: () => Date;
  from?: Date | undefined;
  to?: Date | undefined;
  defaultFrom: Date;
  lookbackMs: number;
  calorificValue: number;
  gasUnit: 'kWh' | 'm3';
  signal?: AbortSignal | undefined;
  /** false: store the accounts' meter points and agreements only, not their readings
   *  (`--no-consumption`: a household that imports its supplier's CSV still has its agreements). */
  readings?: boolean;
}

export interface ConsumptionMeterResult {
  meterPoint: string;
  serial: string;
  ok: boolean;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Records outside the requested period or not a half-hour long: not stored. */
  skipped: number;
  warning?: string;
  error?: string;
}

export interface IngestConsumptionResult {
  meters: ConsumptionMeterResult[];
  inserted: number;
  updated: number;
  unchanged: number;
  pages: number;
  warnings: string[];
}

/** Page size the real API allows for consumption (25,000 half-hours: 520 days). */
export const CONSUMPTION_PAGE_SIZE = 25_000;
const OPTIONAL_STATUSES = new Set([400, 404, 410]);

export async function ingestConsumption(options: IngestConsumptionOptions): Promise<IngestConsumptionResult> {
  const { warehouse, client, logger } = options;
  const result: IngestConsumptionResult = { meters: [], inserted: 0, updated: 0, unchanged: 0, pages: 0, warnings: [] };
  for (const accountNumber of options.accounts) {
    const account = await client.accountMeters(accountNumber, { signal: options.signal });
    const meters = await storeMeters(warehouse, account, options.now());
    if (options.readings === false) continue;
    for (const meter of meters) {
      if (options.signal?.aborted) return result;
      const outcome = await ingestMeter(options, meter, result);
      result.meters.push(outcome);
      result.inserted += outcome.inserted;
      result.updated += outcome.updated;
      result.unchanged += outcome.unchanged;
      if (outcome.warning) {
        result.warnings.push(outcome.warning);
        logger.warn({ meter_point: meter.meterPoint, serial: meter.serial }, outcome.warning);
      } else if (outcome.ok) {
        logger.info({ meter_point: meter.meterPoint, serial: meter.serial, inserted: outcome.inserted, updated: outcome.updated }, 'consumption stored');
      }
    }
  }
  return result;
}

interface MeterTarget {
  fuel: 'electricity' | 'gas';
  meterPoint: string;
  serial: string;
  isExport: boolean;
  /** Earliest agreement start, ms (NaN when none). */
  firstAgreementMs: number;
}

/** meter_points and agreements from the account (the account is the source of truth). */
async function storeMeters(warehouse: Warehouse, account: AccountMeters, now: Date): Promise<MeterTarget[]> {
  const targets: MeterTarget[] = [];
  await warehouse.transaction(async () => {
    for (const property of account.properties) {
      const points = [
        ...property.electricity_meter_points.map((p) => ({ fuel: 'electricity' as const, point: p.mpan, isExport: p.is_export, meters: p.meters, agreements: p.agreements })),
        ...property.gas_meter_points.map((p) => ({ fuel: 'gas' as const, point: p.mprn, isExport: false, meters: p.meters, agreements: p.agreements })),
      ];
      for (const p of points) {
        const serials = [...new Set(p.meters.map((m) => m.serial_number))].sort();
        await upsertMeterPoint(warehouse, { meterPoint: p.point, fuel: p.fuel, isExport: p.isExport, serials, accountNumber: account.number }, now);
        await replaceAgreements(warehouse, p.point, p.agreements.map((a) => ({
          meterPoint: p.point, tariffCode: a.tariff_code, validFrom: a.valid_from, validTo: a.valid_to, accountNumber: account.number,
        })), now);
        const firstAgreementMs = Math.min(...p.agreements.map((a) => Date.parse(a.valid_from)).filter(Number.isFinite));
        for (const serial of serials) targets.push({ fuel: p.fuel, meterPoint: p.point, serial, isExport: p.isExport, firstAgreementMs });
      }
    }
  });
  return targets;
}

async function ingestMeter(options: IngestConsumptionOptions, meter: MeterTarget, totals: IngestConsumptionResult): Promise<ConsumptionMeterResult> {
  const { warehouse, client } = options;
  const base = { meterPoint: meter.meterPoint, serial: meter.serial, inserted: 0, updated: 0, unchanged: 0, skipped: 0 };
  const cursor = await readConsumptionCursor(warehouse, meter.meterPoint, meter.serial);
  const now = options.now();
  const from = options.from ?? (cursor
    ? new Date(Date.parse(String(cursor.fetched_until)) - options.lookbackMs)
    : new Date(Math.max(options.defaultFrom.getTime(), Number.isFinite(meter.firstAgreementMs) ? meter.firstAgreementMs : 0)));
  const to = options.to ?? new Date(Math.floor(now.getTime() / HALF_HOUR_MS) * HALF_HOUR_MS);
  if (from >= to) return { ...base, ok: true };
  const readings: ConsumptionReading[] = [];
  let skipped = 0;
  const unit = meter.fuel === 'gas' ? options.gasUnit : 'kWh';
  try {
    for await (const page of client.consumption(meter.fuel, meter.meterPoint, meter.serial, { from, to },
      { pageSize: CONSUMPTION_PAGE_SIZE, orderBy: 'period', signal: options.signal })) {
      totals.pages++;
      for (const record of page.records) {
        const reading = readingOf(record, unit, options.calorificValue);
        // The server may return a little outside the requested period: store only what is inside.
        if (!reading || reading.startMs < from.getTime() || reading.startMs >= to.getTime()) skipped++;
        else readings.push(reading);
      }
    }
  } catch (error) {
    const status = error instanceof ApiError ? error.status : undefined;
    const optional = (error instanceof HttpStatusError || error instanceof ApiValidationError) && status !== undefined && OPTIONAL_STATUSES.has(status);
    // a block or rate limit says nothing of whether the server offers consumption: the meter fails
    // (the run is partial, its message the block's) and the next run asks again
    if (!refusedByApi(error) && (optional || error instanceof RetriesExhaustedError)) {
      const url = (error as ApiError).url;
      return {
        ...base, ok: true,
        warning: `consumption of ${meter.fuel} meter ${meter.meterPoint}:${meter.serial} not available ` +
          `(optional resource ${meter.fuel}-meter-points/…/consumption/, GET ${url}: ${status ?? (error as ApiError).code}); skipped`,
      };
    }
    if (options.signal?.aborted) throw error;
    return { ...base, ok: false, error: `consumption of ${meter.meterPoint}:${meter.serial}: ${(error as Error).message}` };
  }
  const counts = await warehouse.transaction(async () => {
    const written = await writeConsumption(warehouse, {
      meterPoint: meter.meterPoint, serial: meter.serial, source: 'api', runId: options.runId, readings, now,
    });
    await moveConsumptionCursor(warehouse, { meterPoint: meter.meterPoint, serial: meter.serial, from, to, runId: options.runId, now });
    return written;
  });
  return { ...base, ...counts, skipped, ok: true };
}

function readingOf(record: ConsumptionRecord, unit: 'kWh' | 'm3', calorificValue: number): ConsumptionReading | undefined {
  const startMs = parseInstant(record.interval_start)!;
  const endMs = parseInstant(record.interval_end)!;
  if (endMs - startMs !== HALF_HOUR_MS || startMs % HALF_HOUR_MS !== 0) return undefined;
  const kwh = unit === 'm3' ? gasKwh(record.consumption, calorificValue) : record.consumption;
  return { startMs, endMs, kwh, rawValue: record.consumption, rawUnit: unit };
}
