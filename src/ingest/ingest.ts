// One recorded ingest run: open the job's working file (WriteSession: exit 75 if another job keeps
// it past the busy timeout), run the use cases the request names (useCases.ts), record the run and
// publish the analysts' file. A run lasts at most max_run_seconds, then stops as on SIGTERM.
import type { Logger } from 'pino';
import { OctopusClient } from '../api/OctopusClient.js';
import { credentialsFrom, type AuthMode } from '../api/credentials.js';
import { normaliseBaseUrl } from '../api/urls.js';
import type { HttpClientOptions } from '../api/HttpClient.js';
import type { Config } from '../config/loadConfig.js';
import { anySignal, deadlineSignal } from '../abortSignals.js';
import { UsageError } from '../errors.js';
import { describeOrder } from '../time/index.js';
import { finishRun, startRun, type RunStatus } from '../store/ingestRuns.js';
import { STORAGE_CODES, StorageError } from '../store/StorageError.js';
import type { Warehouse } from '../store/Warehouse.js';
import { forgetTariffWithoutRates } from '../store/writeCatalog.js';
import { WriteSession } from '../store/WriteSession.js';
import type { EmptyRates } from './emptyRates.js';
import type { Progress } from './ingestRates.js';
import type { TariffOutcome } from './TariffOutcomes.js';
import type { MissingResource } from './optionalResources.js';
import type { IngestTarget, TargetRequest } from './resolveTargets.js';
import { USE_CASES, type Run, type Tally, type UseCaseName } from './useCases.js';

export { defaultFromOf } from './useCases.js';
export type { UseCaseName } from './useCases.js';

export interface IngestRequest extends TargetRequest {
  from?: Date;
  to?: Date;
  /** The use cases to run, in this order; without it, every one (products only unless noProducts). */
  useCases?: UseCaseName[];
  /** Skip refreshing the products list. */
  noProducts?: boolean;
  /** Skip the accounts' consumption readings (`--no-consumption`; config `consumption: false` too);
   *  the accounts' meter points and agreements are stored all the same. */
  noConsumption?: boolean;
  /** Which dispatch lists to refresh for accounts on Intelligent Octopus Go (default both). */
  dispatchKinds?: ('planned' | 'completed')[];
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
  /** Intelligent Octopus Go dispatches (accounts on such a tariff only): planned ones added and
   *  superseded, completed ones added. */
  dispatches_planned: number;
  dispatches_superseded: number;
  dispatches_completed: number;
  /** Power Up / Power Down events added, earlier versions superseded, and events of another
   *  region left out. */
  flexibility_inserted: number;
  flexibility_superseded: number;
  flexibility_ignored: number;
}

const INGEST_MEMORY_LIMIT = '48MB';

/** The use cases a request names: its `useCases`, else those its flags (the CLI's and the jobs'
 *  public contract) stand for. */
export function useCasesOf(request: IngestRequest): UseCaseName[] {
  if (request.useCases) return request.useCases;
  const products: UseCaseName[] = request.noProducts ? [] : ['products'];
  return [...products, 'rates', 'accounts', 'dispatches', 'flexibility'];
}

export async function runIngest(request: IngestRequest, context: IngestContext): Promise<IngestSummary> {
  if (request.from && request.to && request.from >= request.to) {
    throw new UsageError(`--from must be before --to (the window is half-open: [from, to)), ${describeOrder(request.from, request.to)}`);
  }
  const { config } = context;
  const started = Date.now();
  const client = clientOf(context);
  const limitMs = config.maxRunSeconds > 0 ? config.maxRunSeconds * 1000 : Infinity;
  const timeLimit = deadlineSignal(limitMs, () => new Error(timeLimitMessage(config.maxRunSeconds)));
  const stop = anySignal([context.signal, timeLimit.signal]);
  let session: WriteSession | undefined;
  try {
    const job = request.job ?? 'ingest';
    session = await openSession(config.db, context, job);
    const now = context.now ?? (() => new Date());
    const runId = await startRun(session.warehouse, job, now());
    const run: RecordedRun = {
      request, config, job, runId, now, started, client, session,
      // GraphQL wants a token: the configured one, else one obtained (once a run) from the API key
      tokenCredentials: credentialsFrom(config, client.baseUrl, 'token'), signal: stop.signal, progress: context.progress, onTargets: context.onTargets,
      // Bound once each: a job's logger already carries `job` (pino would print a key twice).
      logger: context.logger.child('job' in context.logger.bindings() ? { run_id: runId } : { run_id: runId, job }),
      timedOut: () => timeLimit.expired() && !context.signal?.aborted, // the time limit aborts `signal` too
    };
    const tally: Tally = { products: 0, targets: [], missing: [], empty: [] };
    try {
      for (const name of useCasesOf(request)) await USE_CASES[name](run, tally);
    } catch (error) {
      return await stoppedRun(run, tally, error);
    }
    return await finishedRun(run, tally);
  } finally {
    timeLimit.dispose();
    stop.dispose();
    session?.close();
    await client.close();
  }
}

/** A run as the recording steps see it. */
interface RecordedRun extends Run {
  /** Date.now() at the start, for the summary's seconds. */
  started: number;
  /** Whether max_run_seconds stopped the run (rather than the caller). */
  timedOut: () => boolean;
}

function clientOf(context: IngestContext): OctopusClient {
  const { config } = context;
  return new OctopusClient({
    baseUrl: config.baseUrl,
    credentials: credentialsFrom(config, normaliseBaseUrl(config.baseUrl), context.authMode ?? config.authMode),
    logger: context.logger,
    connections: config.concurrency,
    ...context.http,
  });
}

/** The job's working file (WriteSession: exit 75 if another job keeps it past the busy timeout). */
function openSession(db: string, context: IngestContext, job: string): Promise<WriteSession> {
  // little memory and one thread (the writes are few, large statements; fetching wants the other
  // core); row groups kept as committed (docs/decisions/ingest-pipeline.md)
  return WriteSession.open(db, {
    logger: context.logger, busyTimeoutMs: context.busyTimeoutMs ?? 0, memoryLimit: INGEST_MEMORY_LIMIT, threads: 1, keepRowGroups: true,
    purpose: job,
  });
}

/** A step threw: the run is recorded as failed (or interrupted) with what was committed before,
 *  and published. Stopped by the time limit, or the file or disk failed: the caller gets a
 *  summary (printed even so); anything else is thrown on. */
async function stoppedRun(run: RecordedRun, fetched: Tally, error: unknown): Promise<IngestSummary> {
  const timedOut = run.timedOut();
  const message = timedOut ? timeLimitMessage(run.config.maxRunSeconds) : (error as Error).message;
  const status: RunStatus = run.signal.aborted ? 'interrupted' : 'failed';
  await finishRun(run.session.warehouse, run.runId, status, { requests: run.client.http.requestCount }, run.now(), message).catch(() => undefined);
  run.progress?.working?.(`publishing ${run.config.db}`);
  await run.session.publish().catch(() => undefined);
  if (!timedOut && !(error instanceof StorageError)) throw error;
  // counts of a step cut short are not reported
  const summary = summaryOf({ run, status, fetched: { ...fetched, rates: undefined, consumption: undefined }, errors: [message] });
  run.logger.warn({ ...summary, errors: undefined }, `ingest ${status}`);
  return summary;
}

/** Every step ran: the run's status from its tariffs and meters, recorded, and the analysts'
 *  file published. A failure of the file or the disk meanwhile (a full disk at the final
 *  CHECKPOINT, say) fails the run; what was committed is in the WAL, replayed on the next open. */
async function finishedRun(run: RecordedRun, fetched: Tally): Promise<IngestSummary> {
  run.progress?.working?.('recording the run');
  const failures = fetched.rates?.tariffs.filter((t) => !t.ok) ?? [];
  const meterFailures = fetched.consumption?.meters.filter((m) => !m.ok) ?? [];
  const status: RunStatus = fetched.rates?.interrupted ? 'interrupted'
    // a failure of the file or the disk is the run's, not one tariff's
    : failures.some((f) => STORAGE_CODES.has(f.errorCode ?? '')) ? 'failed'
    : failures.length + meterFailures.length > 0 ? 'partial' : 'ok';
  let storageError = await storageFailure(() => forgetUnknownTariffs(run.session.warehouse, failures)); // rewrites their errors
  const errors = [...failures.map((f) => f.error ?? f.tariffCode), ...meterFailures.map((m) => m.error ?? `${m.meterPoint}:${m.serial}`)];
  if (fetched.rates?.interrupted && run.timedOut()) errors.push(timeLimitMessage(run.config.maxRunSeconds));
  const summary = summaryOf({ run, status, fetched, errors });
  storageError ??= await storageFailure(async () => {
    await finishRun(run.session.warehouse, run.runId, status, {
      pages: summary.pages, inserted: summary.inserted, updated: summary.updated, unchanged: summary.unchanged,
      requests: summary.requests, tariffsOk: fetched.targets.length - failures.length, tariffsFailed: failures.length,
      missingOptional: fetched.missing, emptyRequired: fetched.empty,
    }, run.now(), errors.length ? errors.join('; ') : undefined);
    run.progress?.working?.(`publishing ${run.config.db}`);
    await run.session.publish();
  });
  if (storageError) {
    const failed = { ...summary, status: 'failed' as const, errors: [...summary.errors, storageError.message] };
    run.logger.error({ ...failed, errors: undefined, err: { code: storageError.code, message: storageError.message } }, 'ingest failed');
    return failed;
  }
  const { run_id: _run, job: _job, errors: _errors, ...counts } = summary;
  run.logger.info({ ...counts, missing_optional: fetched.missing.length || undefined, empty: fetched.empty.length || undefined }, `ingest ${status}`);
  return summary;
}

/** Runs `step`; a StorageError it throws is returned (the run records it), anything else thrown on. */
async function storageFailure(step: () => Promise<void>): Promise<StorageError | undefined> {
  try {
    await step();
    return undefined;
  } catch (error) {
    if (error instanceof StorageError) return error;
    throw error;
  }
}

function timeLimitMessage(seconds: number): string {
  return `stopped after max_run_seconds (${seconds} s): what was committed is kept; the next run continues from there`;
}

function summaryOf({ run, status, fetched, errors }: { run: RecordedRun; status: RunStatus; fetched: Tally; errors: string[] }): IngestSummary {
  const { rates, consumption, dispatches, flexibility } = fetched;
  return {
    run_id: run.runId, job: run.job, status, tariffs: fetched.targets.length,
    tariffs_failed: rates?.tariffs.filter((t) => !t.ok).length ?? 0, products: fetched.products,
    inserted: rates?.inserted ?? 0, updated: rates?.updated ?? 0, unchanged: rates?.unchanged ?? 0,
    pages: rates?.pages ?? 0, requests: run.client.http.requestCount,
    seconds: Math.round((Date.now() - run.started) / 10) / 100,
    errors,
    missing_optional: fetched.missing,
    empty: fetched.empty,
    consumption_meters: consumption?.meters.length ?? 0,
    consumption_inserted: consumption?.inserted ?? 0,
    consumption_updated: consumption?.updated ?? 0,
    warnings: [...consumption?.warnings ?? [], ...dispatches?.warnings ?? [], ...flexibility?.warnings ?? []],
    dispatches_planned: dispatches?.planned_inserted ?? 0,
    dispatches_superseded: dispatches?.planned_superseded ?? 0,
    dispatches_completed: dispatches?.completed_inserted ?? 0,
    flexibility_inserted: flexibility?.inserted ?? 0,
    flexibility_superseded: flexibility?.superseded ?? 0,
    flexibility_ignored: flexibility?.ignored ?? 0,
  };
}

/** A tariff whose standard rates answer 404 does not exist: say so plainly, and drop it from
 *  `tariffs` unless rates of it were stored before (a code that once existed stays listed). */
async function forgetUnknownTariffs(warehouse: Warehouse, failures: TariffOutcome[]): Promise<void> {
  for (const f of failures) {
    if (f.errorStatus !== 404 || f.errorKind !== 'standard') continue;
    f.error = `unknown tariff ${f.tariffCode}: the API has no standard unit rates for it (404); check the code `
      + `(\`tariffs regions --list --product PRODUCT\` lists a product's tariff codes)`;
    await forgetTariffWithoutRates(warehouse, f.tariffCode);
  }
}
