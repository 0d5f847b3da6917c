// The parts a run is composed of, each fetching and storing one kind of thing: products, rates
// (with what is missing or empty), the accounts' consumption, and Intelligent Octopus Go
// dispatches, Power Up / Power Down events. runIngest (ingest.ts) runs the ones a request names inside one recorded run.
import type { Logger } from 'pino';
import { DispatchClient } from '../api/DispatchClient.js';
import { FlexibilityClient } from '../api/FlexibilityClient.js';
import type { Credentials } from '../api/HttpClient.js';
import type { OctopusClient } from '../api/OctopusClient.js';
import type { Config } from '../config/loadConfig.js';
import type { WriteSession } from '../store/WriteSession.js';
import { upsertTariffs } from '../store/writeCatalog.js';
import { localDateOf, localDayBounds, parseUserDateTime } from '../time/index.js';
import { describeEmptyRates, type EmptyRates } from './emptyRates.js';
import { ingestConsumption, type IngestConsumptionResult } from './ingestConsumption.js';
import { ingestDispatches, type IngestDispatchesResult } from './ingestDispatches.js';
import { ingestFlexibility, type IngestFlexibilityResult } from './ingestFlexibility.js';
import { ingestRates, type IngestRatesResult, type Progress } from './ingestRates.js';
import { applyLinkedKinds } from './linkedKinds.js';
import { recordOptionalOutcomes, type MissingResource } from './optionalResources.js';
import { refreshProducts } from './refreshProducts.js';
import { resolveTargets, type IngestTarget, type TargetRequest } from './resolveTargets.js';

export type UseCaseName = 'products' | 'rates' | 'accounts' | 'dispatches' | 'flexibility';

/** What the use cases of one run share. */
export interface Run {
  request: TargetRequest & { from?: Date | undefined; to?: Date | undefined; noConsumption?: boolean | undefined;
    dispatchKinds?: ('planned' | 'completed')[] | undefined; };
  config: Config;
  job: string;
  runId: number;
  now: () => Date;
  client: OctopusClient;
  /** GraphQL's credentials (the configured token, else one obtained from the API key), shared by
   *  the use cases of the run so that a key is exchanged for a token once. */
  tokenCredentials: Credentials | undefined;
  session: WriteSession;
  logger: Logger;
  /** Aborted on SIGTERM/SIGINT (the caller's signal) or at max_run_seconds. */
  signal: AbortSignal;
  progress?: Progress | undefined;
  /** Called once the targets are known (the progress bar sizes itself). */
  onTargets?: ((targets: IngestTarget[]) => void) | undefined;
}

/** What a run has fetched and stored so far (filled in as it goes, so that a run stopped half-way
 *  still says what it got). */
export interface Tally {
  products: number;
  targets: IngestTarget[];
  rates?: IngestRatesResult;
  consumption?: IngestConsumptionResult;
  dispatches?: IngestDispatchesResult;
  flexibility?: IngestFlexibilityResult;
  missing: MissingResource[];
  empty: EmptyRates[];
}

const DAY_MS = 86_400_000;
/** Meter readings arrive late, for days: each incremental run re-reads the last week. */
const CONSUMPTION_LOOKBACK_MS = 7 * DAY_MS;

/** The start of a never-seen tariff: the config's default_from, else two years back. */
export function defaultFromOf(config: Config, now: Date): Date {
  if (config.defaultFrom) return parseUserDateTime(config.defaultFrom, 'default_from');
  return localDayBounds(localDateOf(new Date(now.getTime() - 730 * DAY_MS))).start;
}

export const USE_CASES: Record<UseCaseName, (run: Run, tally: Tally) => Promise<void>> = {
  async products(run, tally) {
    const refreshed = await refreshProducts(run.client, run.session.warehouse, run.now(), run.signal);
    tally.products = refreshed.products;
    run.logger.info({ products: tally.products, added: refreshed.added, withdrawn: refreshed.withdrawn }, 'products refreshed');
  },

  /** The tracked tariffs' rates; then what is empty (with a hint) and which optional resources are missing. */
  async rates(run, tally) {
    const { request, client, logger, signal, now } = run;
    const warehouse = run.session.warehouse;
    const targets = tally.targets = await resolveTargets(client, request,
      (notice, message) => logger.warn({ product: notice.product, tariffs: notice.tariffs, night_band: notice.band ?? null }, message));
    await applyLinkedKinds(client, warehouse, targets, logger, signal);
    await upsertTariffs(warehouse, targets, now());
    run.onTargets?.(targets);
    const rates = tally.rates = await ingestRates({
      warehouse, client, logger, targets, runId: run.runId, now, from: request.from, to: request.to,
      defaultFrom: defaultFromOf(run.config, now()), lookbackMs: run.config.lookbackHours * 3600_000,
      concurrency: run.config.concurrency, signal, progress: run.progress,
    });
    tally.missing = rates.tariffs.filter((t) => t.ok).flatMap((t) => t.missing); // a failed tariff's own error says enough
    const empties = rates.tariffs.filter((t) => t.ok && t.empty.length > 0)
      .map((t) => ({ target: targets.find((x) => x.tariffCode === t.tariffCode)!, kinds: t.empty }));
    if (empties.length > 0 && !signal.aborted) {
      const described = await describeEmptyRates(client, logger, empties, signal);
      tally.empty = described.empty;
      tally.missing = [...tally.missing, ...described.missing];
    }
    await recordOptionalOutcomes(warehouse, run.runId, now(), rates.optionalPresent, tally.missing);
  },

  /** The accounts' consumption readings (their meters and agreements are stored all the same). */
  async accounts(run, tally) {
    const accounts = run.request.accounts ?? [];
    if (accounts.length === 0 || run.signal.aborted) return;
    const { config, now } = run;
    tally.consumption = await ingestConsumption({
      readings: config.consumption && !run.request.noConsumption,
      warehouse: run.session.warehouse, client: run.client, logger: run.logger, accounts, runId: run.runId, now,
      from: run.request.from, to: run.request.to, defaultFrom: defaultFromOf(config, now()), lookbackMs: CONSUMPTION_LOOKBACK_MS,
      calorificValue: config.gasCalorificValue, gasUnit: config.gasUnit, signal: run.signal,
    });
  },

  /** Intelligent Octopus Go dispatches of the accounts on such a tariff. */
  async dispatches(run, tally) {
    const accounts = run.request.accounts ?? [];
    if (accounts.length === 0 || run.signal.aborted) return;
    const client = new DispatchClient(run.client.http, run.client.baseUrl, run.tokenCredentials);
    tally.dispatches = await ingestDispatches({
      warehouse: run.session.warehouse, client, logger: run.logger, accounts, runId: run.runId, now: run.now, signal: run.signal,
      kinds: run.request.dispatchKinds,
    });
  },

  /** Power Up and Power Down events of the accounts' import meter points (their region only). */
  async flexibility(run, tally) {
    const accounts = run.request.accounts ?? [];
    if (accounts.length === 0 || run.signal.aborted) return;
    const client = new FlexibilityClient(run.client.http, run.client.baseUrl, run.tokenCredentials);
    tally.flexibility = await ingestFlexibility({
      warehouse: run.session.warehouse, client, logger: run.logger, accounts, runId: run.runId, now: run.now, signal: run.signal,
    });
  },
};
