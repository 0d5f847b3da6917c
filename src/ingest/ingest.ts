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
import { describeEmptyRates, type EmptyRates } from './emptyRates.js';
import { ingestRates, type IngestRatesResult, type Progress, type TariffOutcome } from './ingestRates.js';
import { recordOptionalOutcomes, type MissingResource } from './optionalResources.js';
import { resolveTargets, type IngestTarget, type TargetRequest } from './resolveTargets.js';
import { refreshProducts } from './refreshProducts.js';

export interface IngestRequest extends TargetRequest {
  from?: Date;
  to?: Date;
  /** Skip refreshing the products list. */
  noProducts?: boolean;
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
  /** Optional resources this run could not get (each also logged as one warning). */
  missing_optional: MissingResource[];
  /** Required rate kinds that came back empty, with a hint where the product's detail has one. */
  empty: EmptyRates[];
}

const DAY_MS = 86_400_000;
const INGEST_MEMORY_LIMIT = '48MB';

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
    // Bound once each: a job's logger already carries `job` (pino would print a key twice).
    const logger = context.logger.child('job' in context.logger.bindings() ? { run_id: runId } : { run_id: runId, job });
    let products = 0;
    let result: IngestRatesResult | undefined;
    let targets: IngestTarget[] = [];
    let missing: MissingResource[] = [];
    let empty: EmptyRates[] = [];
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
        missing = result.tariffs.filter((t) => t.ok).flatMap((t) => t.missing); // a failed tariff's own error says enough
        const empties = result.tariffs.filter((t) => t.ok && t.empty.length > 0)
          .map((t) => ({ target: targets.find((x) => x.tariffCode === t.tariffCode)!, kinds: t.empty }));
        if (empties.length > 0 && !context.signal?.aborted) {
          const described = await describeEmptyRates(client, logger, empties, context.signal);
          empty = described.empty;
          missing = [...missing, ...described.missing];
        }
        await recordOptionalOutcomes(warehouse, runId, now(), result.optionalPresent, missing);
      }
    } catch (error) {
      await finishRun(warehouse, runId, context.signal?.aborted ? 'interrupted' : 'failed',
        { requests: client.http.requestCount }, now(), (error as Error).message).catch(() => undefined);
      throw error;
    }
    const failures = result?.tariffs.filter((t) => !t.ok) ?? [];
    await forgetUnknownTariffs(warehouse, failures);
    const status: RunStatus = result?.interrupted ? 'interrupted' : failures.length > 0 ? 'partial' : 'ok';
    const summary: IngestSummary = {
      run_id: runId, job, status, tariffs: targets.length, tariffs_failed: failures.length, products,
      inserted: result?.inserted ?? 0, updated: result?.updated ?? 0, unchanged: result?.unchanged ?? 0,
      pages: result?.pages ?? 0, requests: client.http.requestCount,
      seconds: Math.round((Date.now() - started) / 10) / 100,
      errors: failures.map((f) => f.error ?? f.tariffCode),
      missing_optional: missing,
      empty,
    };
    await finishRun(warehouse, runId, status, {
      pages: summary.pages, inserted: summary.inserted, updated: summary.updated, unchanged: summary.unchanged,
      requests: summary.requests, tariffsOk: targets.length - failures.length, tariffsFailed: failures.length,
      missingOptional: missing, emptyRequired: empty,
    }, now(), summary.errors.length ? summary.errors.join('; ') : undefined);
    await warehouse.checkpoint();
    const { run_id: _run, job: _job, errors: _errors, ...counts } = summary;
    logger.info({ ...counts, missing_optional: missing.length || undefined, empty: empty.length || undefined }, `ingest ${status}`);
    return summary;
  } finally {
    warehouse?.close();
    await client.close();
  }
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
