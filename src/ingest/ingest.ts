// One ingest run end to end: open the warehouse for writing (exit 75 if another process has it),
// refresh products, resolve the tracked tariffs, fetch and store their rates, record the run,
// CHECKPOINT. The CLI command, the scheduler's jobs and the demo all call this.
import type { Logger } from 'pino';
import { OctopusClient } from '../api/OctopusClient.js';
import { credentialsFrom, type AuthMode } from '../api/credentials.js';
import { normaliseBaseUrl } from '../api/urls.js';
import type { HttpClientOptions } from '../api/HttpClient.js';
import type { Config } from '../config/loadConfig.js';
import { UsageError } from '../errors.js';
import { finishRun, startRun, type RunStatus } from '../store/ingestRuns.js';
import { Warehouse } from '../store/Warehouse.js';
import { upsertTariffs } from '../store/writeCatalog.js';
import { localDateOf, localDayBounds, parseUserDateTime } from '../time/index.js';
import { ingestConsumption, type IngestConsumptionResult } from './ingestConsumption.js';
import { ingestRates, type IngestRatesResult, type Progress } from './ingestRates.js';
import { resolveTargets, type IngestTarget, type TargetRequest } from './resolveTargets.js';
import { refreshProducts } from './refreshProducts.js';

export interface IngestRequest extends TargetRequest {
  from?: Date;
  to?: Date;
  /** Skip refreshing the products list. */
  noProducts?: boolean;
  /** Skip the accounts' consumption (`--no-consumption`; config `consumption: false` too). */
  noConsumption?: boolean;
  /** Only refresh products (the `products` job). */
  productsOnly?: boolean;
  job?: string;
}

export interface IngestContext {
  config: Config;
  logger: Logger;
  now?: () => Date;
  signal?: AbortSignal;
  progress?: Progress;
  /** Wait this long for another writer to finish before giving up with exit 75. */
  busyTimeoutMs?: number;
  http?: HttpClientOptions;
  authMode?: AuthMode;
  /** Called once the targets are known (the progress bar sizes itself). */
  onTargets?: (targets: IngestTarget[]) => void;
}

export interface IngestSummary {
  run_id: number;
  job: string;
  status: RunStatus;
  tariffs: number;
  tariffs_failed: number;
  products: number;
  inserted: number;
  updated: number;
  unchanged: number;
  pages: number;
  requests: number;
  seconds: number;
  errors: string[];
  /** The accounts' meters whose consumption was fetched, and what it stored. */
  consumption_meters: number;
  consumption_inserted: number;
  consumption_updated: number;
  /** Optional resources that were not available (named), the run succeeding without them. */
  warnings: string[];
}

const DAY_MS = 86_400_000;
const INGEST_MEMORY_LIMIT = '48MB';
/** Meter readings arrive late, for days: each incremental run re-reads the last week. */
const CONSUMPTION_LOOKBACK_MS = 7 * DAY_MS;

/** The start of a never-seen tariff: the config's default_from, else two years back. */
export function defaultFromOf(config: Config, now: Date): Date {
  if (config.defaultFrom) return parseUserDateTime(config.defaultFrom, 'default_from');
  return localDayBounds(localDateOf(new Date(now.getTime() - 730 * DAY_MS))).start;
}

export async function runIngest(request: IngestRequest, context: IngestContext): Promise<IngestSummary> {
  const { config } = context;
  const now = context.now ?? (() => new Date());
  const started = Date.now();
  const job = request.job ?? 'ingest';
  if (request.from && request.to && request.from >= request.to) {
    throw new UsageError('--from must be before --to (the window is half-open: [from, to))');
  }
  const client = new OctopusClient({
    baseUrl: config.baseUrl,
    credentials: credentialsFrom(config, normaliseBaseUrl(config.baseUrl), context.authMode ?? config.authMode),
    logger: context.logger,
    connections: config.concurrency,
    ...context.http,
  });
  let warehouse: Warehouse | undefined;
  try {
    // Writing needs little memory, and DuckDB would otherwise keep what it wrote cached.
    warehouse = await Warehouse.open(config.db, {
      logger: context.logger, busyTimeoutMs: context.busyTimeoutMs ?? 0, memoryLimit: INGEST_MEMORY_LIMIT,
    });
    const runId = await startRun(warehouse, job, now());
    const logger = context.logger.child({ run_id: runId, job });
    let products = 0;
    let result: IngestRatesResult | undefined;
    let consumption: IngestConsumptionResult | undefined;
    let targets: IngestTarget[] = [];
    try {
      if (!request.noProducts) {
        products = (await refreshProducts(client, warehouse, now(), context.signal)).products;
        logger.info({ products }, 'products refreshed');
      }
      if (!request.productsOnly) {
        targets = await resolveTargets(client, request);
        await upsertTariffs(warehouse, targets, now());
        context.onTargets?.(targets);
        result = await ingestRates({
          warehouse, client, logger, targets, runId, now, from: request.from, to: request.to,
          defaultFrom: defaultFromOf(config, now()), lookbackMs: config.lookbackHours * 3600_000,
          concurrency: config.concurrency, signal: context.signal, progress: context.progress,
        });
        if (config.consumption && !request.noConsumption && (request.accounts?.length ?? 0) > 0 && !result.interrupted) {
          consumption = await ingestConsumption({
            warehouse, client, logger, accounts: request.accounts ?? [], runId, now, from: request.from, to: request.to,
            defaultFrom: defaultFromOf(config, now()), lookbackMs: CONSUMPTION_LOOKBACK_MS,
            calorificValue: config.gasCalorificValue, gasUnit: config.gasUnit, signal: context.signal,
          });
        }
      }
    } catch (error) {
      await finishRun(warehouse, runId, context.signal?.aborted ? 'interrupted' : 'failed',
        { requests: client.http.requestCount }, now(), (error as Error).message).catch(() => undefined);
      throw error;
    }
    const rateFailures = result?.tariffs.filter((t) => !t.ok).length ?? 0;
    const failures: { error?: string | undefined; tariffCode: string }[] = [
      ...(result?.tariffs.filter((t) => !t.ok) ?? []),
      ...(consumption?.meters.filter((m) => !m.ok).map((m) => ({ error: m.error, tariffCode: `${m.meterPoint}:${m.serial}` })) ?? []),
    ];
    const status: RunStatus = result?.interrupted ? 'interrupted' : failures.length > 0 ? 'partial' : 'ok';
    const summary: IngestSummary = {
      run_id: runId, job, status, tariffs: targets.length, tariffs_failed: rateFailures, products,
      inserted: result?.inserted ?? 0, updated: result?.updated ?? 0, unchanged: result?.unchanged ?? 0,
      pages: result?.pages ?? 0, requests: client.http.requestCount,
      seconds: Math.round((Date.now() - started) / 10) / 100,
      errors: failures.map((f) => f.error ?? f.tariffCode),
      consumption_meters: consumption?.meters.length ?? 0,
      consumption_inserted: consumption?.inserted ?? 0,
      consumption_updated: consumption?.updated ?? 0,
      warnings: consumption?.warnings ?? [],
    };
    await finishRun(warehouse, runId, status, {
      pages: summary.pages, inserted: summary.inserted, updated: summary.updated, unchanged: summary.unchanged,
      requests: summary.requests, tariffsOk: targets.length - rateFailures, tariffsFailed: rateFailures,
    }, now(), summary.errors.length ? summary.errors.join('; ') : undefined);
    await warehouse.checkpoint();
    logger.info({ ...summary, errors: undefined }, `ingest ${status}`);
    return summary;
  } finally {
    warehouse?.close();
    await client.close();
  }
}
