// One ingest run end to end: open the job's working file (WriteSession: exit 75 if another job
// keeps it past the busy timeout), refresh products, resolve the tracked tariffs, fetch and store
// their rates, record the run, CHECKPOINT and publish the analysts' file (never locked meanwhile). The CLI command, the scheduler's jobs and the demo all call this. A run lasts at
// most max_run_seconds: then it stops as on SIGTERM (the current write finishes, the run is
// recorded as interrupted), so a stuck server cannot hold the database for ever.
import type { Logger } from 'pino';
import { OctopusClient } from '../api/OctopusClient.js';
import { credentialsFrom, type AuthMode } from '../api/credentials.js';
import { normaliseBaseUrl } from '../api/urls.js';
import type { HttpClientOptions } from '../api/HttpClient.js';
import type { Config } from '../config/loadConfig.js';
import { anySignal, deadlineSignal } from '../abortSignals.js';
import { UsageError } from '../errors.js';
import { finishRun, startRun, type RunStatus } from '../store/ingestRuns.js';
import { STORAGE_CODES, StorageError } from '../store/StorageError.js';
import type { Warehouse } from '../store/Warehouse.js';
import { WriteSession } from '../store/WriteSession.js';
import { upsertTariffs } from '../store/writeCatalog.js';
import { localDateOf, localDayBounds, parseUserDateTime } from '../time/index.js';
import { ingestConsumption, type IngestConsumptionResult } from './ingestConsumption.js';
import { describeEmptyRates, type EmptyRates } from './emptyRates.js';
import { ingestRates, type IngestRatesResult, type Progress } from './ingestRates.js';
import type { TariffOutcome } from './TariffOutcomes.js';
import { recordOptionalOutcomes, type MissingResource } from './optionalResources.js';
import { resolveTargets, type IngestTarget, type TargetRequest } from './resolveTargets.js';
import { refreshProducts } from './refreshProducts.js';

export interface IngestRequest extends TargetRequest {
  from?: Date;
  to?: Date;
  /** Skip refreshing the products list. */
  noProducts?: boolean;
  /** Skip the accounts' consumption readings (`--no-consumption`; config `consumption: false` too);
   *  the accounts' meter points and agreements are stored all the same. */
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
  /** Wait this long for another tariffs job writing the database before giving up with exit 75. */
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
  /** Optional resources this run could not get (each also logged as one warning). */
  missing_optional: MissingResource[];
  /** Required rate kinds that came back empty, with a hint where the product's detail has one. */
  empty: EmptyRates[];
  /** The accounts' meters whose consumption was fetched, and what it stored. */
  consumption_meters: number;
  consumption_inserted: number;
  consumption_updated: number;
  /** Consumption a server did not offer (each also logged as one warning), the run succeeding without it. */
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
  let session: WriteSession | undefined;
  const limitMs = config.maxRunSeconds > 0 ? config.maxRunSeconds * 1000 : Infinity;
  const timeLimit = deadlineSignal(limitMs, () => new Error(timeLimitMessage(config.maxRunSeconds)));
  const stop = anySignal([context.signal, timeLimit.signal]);
  const signal = stop.signal;
  try {
    // Writing needs little memory, and DuckDB would otherwise keep what it wrote cached. One
    // thread: the writes are many small statements, and the fetching wants the other core (a
    // backfill of 14 tariffs: 4.9 s of CPU instead of 5.8 s, and a steadier time). Row groups kept
    // as committed: the run's first commit (one page, hurried) leaves a small row group, and
    // DuckDB's checkpoint would merge it with up to three whole ones after it, compressing them
    // all again (a backfill of 4 tariffs, 306,416 rates: a final CHECKPOINT of 180-220 ms instead
    // of 30 ms, measured in DuckDB alone). The same setting leaves deleted rows where they are until
    // a checkpoint of another session (the ingest deletes only long_unit_rates rows it replaces).
    session = await WriteSession.open(config.db, {
      logger: context.logger, busyTimeoutMs: context.busyTimeoutMs ?? 0, memoryLimit: INGEST_MEMORY_LIMIT, threads: 1, keepRowGroups: true,
      purpose: job,
    });
    const warehouse = session.warehouse;
    const publish = () => session!.publish();
    const runId = await startRun(warehouse, job, now());
    // Bound once each: a job's logger already carries `job` (pino would print a key twice).
    const logger = context.logger.child('job' in context.logger.bindings() ? { run_id: runId } : { run_id: runId, job });
    let products = 0;
    let result: IngestRatesResult | undefined;
    let consumption: IngestConsumptionResult | undefined;
    let targets: IngestTarget[] = [];
    let missing: MissingResource[] = [];
    let empty: EmptyRates[] = [];
    try {
      if (!request.noProducts) {
        products = (await refreshProducts(client, warehouse, now(), signal)).products;
        logger.info({ products }, 'products refreshed');
      }
      if (!request.productsOnly) {
        targets = await resolveTargets(client, request);
        await upsertTariffs(warehouse, targets, now());
        context.onTargets?.(targets);
        result = await ingestRates({
          warehouse, client, logger, targets, runId, now, from: request.from, to: request.to,
          defaultFrom: defaultFromOf(config, now()), lookbackMs: config.lookbackHours * 3600_000,
          concurrency: config.concurrency, signal, progress: context.progress,
        });
        missing = result.tariffs.filter((t) => t.ok).flatMap((t) => t.missing); // a failed tariff's own error says enough
        const empties = result.tariffs.filter((t) => t.ok && t.empty.length > 0)
          .map((t) => ({ target: targets.find((x) => x.tariffCode === t.tariffCode)!, kinds: t.empty }));
        if (empties.length > 0 && !signal.aborted) {
          const described = await describeEmptyRates(client, logger, empties, signal);
          empty = described.empty;
          missing = [...missing, ...described.missing];
        }
        await recordOptionalOutcomes(warehouse, runId, now(), result.optionalPresent, missing);
        if ((request.accounts?.length ?? 0) > 0 && !result.interrupted) {
          consumption = await ingestConsumption({
            readings: config.consumption && !request.noConsumption,
            warehouse, client, logger, accounts: request.accounts ?? [], runId, now, from: request.from, to: request.to,
            defaultFrom: defaultFromOf(config, now()), lookbackMs: CONSUMPTION_LOOKBACK_MS,
            calorificValue: config.gasCalorificValue, gasUnit: config.gasUnit, signal,
          });
        }
      }
    } catch (error) {
      const timedOut = timeLimit.expired() && !context.signal?.aborted;
      const message = timedOut ? timeLimitMessage(config.maxRunSeconds) : (error as Error).message;
      const runStatus: RunStatus = signal.aborted ? 'interrupted' : 'failed'; // the time limit aborts `signal` too
      await finishRun(warehouse, runId, runStatus, { requests: client.http.requestCount }, now(), message).catch(() => undefined);
      await publish().catch(() => undefined); // what was committed before the failure, and the run's row
      if (!timedOut && !(error instanceof StorageError)) throw error;
      // Stopped by the time limit, or the file or disk failed: recorded if it still can be; the
      // caller gets a summary (printed even so), not a throw.
      const summary = summaryOf(runId, job, runStatus, targets, products, undefined, client, started, [message], missing, empty);
      logger.warn({ ...summary, errors: undefined }, `ingest ${runStatus}`);
      return summary;
    }
    const failures = result?.tariffs.filter((t) => !t.ok) ?? [];
    // a failure of the file or the disk is the run's, not one tariff's
    const storageFailed = failures.some((f) => STORAGE_CODES.has(f.errorCode ?? ''));
    const meterFailures = consumption?.meters.filter((m) => !m.ok) ?? [];
    const status: RunStatus = result?.interrupted ? 'interrupted' : storageFailed ? 'failed'
      : failures.length + meterFailures.length > 0 ? 'partial' : 'ok';
    let storageError: StorageError | undefined;
    try {
      await forgetUnknownTariffs(warehouse, failures); // rewrites the errors of unknown tariffs
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
      storageError = error;
    }
    const errors = [...failures.map((f) => f.error ?? f.tariffCode), ...meterFailures.map((m) => m.error ?? `${m.meterPoint}:${m.serial}`)];
    if (result?.interrupted && timeLimit.expired() && !context.signal?.aborted) errors.push(timeLimitMessage(config.maxRunSeconds));
    const summary = summaryOf(runId, job, status, targets, products, result, client, started, errors, missing, empty, consumption);
    try {
      if (storageError) throw storageError;
      await finishRun(warehouse, runId, status, {
        pages: summary.pages, inserted: summary.inserted, updated: summary.updated, unchanged: summary.unchanged,
        requests: summary.requests, tariffsOk: targets.length - failures.length, tariffsFailed: failures.length,
        missingOptional: missing, emptyRequired: empty,
      }, now(), summary.errors.length ? summary.errors.join('; ') : undefined);
      await publish();
    } catch (error) {
      if (!(error instanceof StorageError)) throw error;
      // e.g. a full disk at the final CHECKPOINT: what was committed is in the WAL, replayed on
      // the next open; the summary still says what happened
      const failed = { ...summary, status: 'failed' as const, errors: [...summary.errors, error.message] };
      logger.error({ ...failed, errors: undefined, err: { code: error.code, message: error.message } }, 'ingest failed');
      return failed;
    }
    const { run_id: _run, job: _job, errors: _errors, ...counts } = summary;
    logger.info({ ...counts, missing_optional: missing.length || undefined, empty: empty.length || undefined }, `ingest ${status}`);
    return summary;
  } finally {
    timeLimit.dispose();
    stop.dispose();
    session?.close();
    await client.close();
  }
}

function timeLimitMessage(seconds: number): string {
  return `stopped after max_run_seconds (${seconds} s): what was committed is kept; the next run continues from there`;
}

function summaryOf(
  runId: number, job: string, status: RunStatus, targets: IngestTarget[], products: number,
  result: IngestRatesResult | undefined, client: OctopusClient, started: number, errors: string[],
  missing: MissingResource[], empty: EmptyRates[], consumption?: IngestConsumptionResult,
): IngestSummary {
  const failed = result?.tariffs.filter((t) => !t.ok).length ?? 0;
  return {
    run_id: runId, job, status, tariffs: targets.length, tariffs_failed: failed, products,
    inserted: result?.inserted ?? 0, updated: result?.updated ?? 0, unchanged: result?.unchanged ?? 0,
    pages: result?.pages ?? 0, requests: client.http.requestCount,
    seconds: Math.round((Date.now() - started) / 10) / 100,
    errors,
    missing_optional: missing,
    empty,
    consumption_meters: consumption?.meters.length ?? 0,
    consumption_inserted: consumption?.inserted ?? 0,
    consumption_updated: consumption?.updated ?? 0,
    warnings: consumption?.warnings ?? [],
  };
}

/** A tariff whose standard rates answer 404 does not exist: say so plainly, and drop it from
 *  `tariffs` unless rates of it were stored before (a code that once existed stays listed). */
async function forgetUnknownTariffs(warehouse: Warehouse, failures: TariffOutcome[]): Promise<void> {
  for (const f of failures) {
    if (f.errorStatus !== 404 || f.errorKind !== 'standard') continue;
    f.error = `unknown tariff ${f.tariffCode}: the API has no standard unit rates for it (404); check the code `
      + `(\`tariffs regions --list --product PRODUCT\` lists a product's tariff codes)`;
    await warehouse.run(`DELETE FROM tariffs WHERE tariff_code = $code
      AND NOT EXISTS (SELECT 1 FROM unit_rates WHERE tariff_code = $code)`, { code: f.tariffCode });
  }
}
