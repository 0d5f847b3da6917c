// The dispatches of the accounts on an Intelligent Octopus Go tariff (issue 28), into the
// warehouse: the account's devices, each device's planned dispatches, the account's completed
// ones (src/api/DispatchClient.ts → src/store/writeDispatches.ts). Incremental by nature: each
// answer is the platform's current list, stored as seen (planned ones superseded, never deleted;
// late completed ones added when they come). Dispatches are an optional resource (README
// "Required and optional resources"): a server without GraphQL (the strict `--profile spec`
// sandbox answers 404), KT-CT-4340 (planned dispatches unavailable), KT-CT-1199 (rate limited) or
// a failed request is a warning, given once per run and kind of failure, and the run goes on.
import type { Logger } from 'pino';
import type { DispatchClient, SmartDevice } from '../api/DispatchClient.js';
import { ApiError, GraphqlError } from '../api/errors.js';
import type { Warehouse } from '../store/Warehouse.js';
import { iogAccountsOf } from '../store/readMeters.js';
import { recordDispatchFetch, upsertDevices, writeDispatches, type FetchKind } from '../store/writeDispatches.js';

export interface IngestDispatchesOptions {
  warehouse: Warehouse;
  client: DispatchClient;
  logger: Logger;
  /** Accounts to ask about; only those with an Intelligent Octopus Go agreement are asked. */
  accounts: readonly string[];
  runId: number;
  now: () => Date;
  /** Which lists to fetch (default both): the scheduler asks for planned ones more often. */
  kinds?: readonly ('planned' | 'completed')[];
  signal?: AbortSignal | undefined;
}

export interface IngestDispatchesResult {
  accounts: number;
  devices: number;
  planned_inserted: number;
  planned_superseded: number;
  completed_inserted: number;
  warnings: string[];
}

export async function ingestDispatches(options: IngestDispatchesOptions): Promise<IngestDispatchesResult> {
  const { warehouse, client, logger, runId, now, signal } = options;
  const kinds = new Set(options.kinds ?? ['planned', 'completed']);
  const result: IngestDispatchesResult = {
    accounts: 0, devices: 0, planned_inserted: 0, planned_superseded: 0, completed_inserted: 0, warnings: [],
  };
  const warned = new Set<string>();
  const fail = async (accountNumber: string, kind: FetchKind, deviceId: string | undefined, error: unknown): Promise<void> => {
    if (!(error instanceof ApiError)) throw error;
    const graphql = error instanceof GraphqlError ? error : undefined;
    // a token that could not be obtained wraps the HTTP failure (a server without GraphQL: 404)
    const status = error.status ?? (error.cause instanceof ApiError ? error.cause.status : undefined);
    const code = graphql?.errorCode ?? (status !== undefined ? `HTTP ${status}` : error.code);
    await recordDispatchFetch(warehouse, {
      accountNumber, deviceId, kind, outcome: graphql?.unavailable ? 'unavailable' : 'failed', errorCode: graphql?.errorCode ?? error.code,
    }, now(), runId);
    const key = `${kind}|${code}`;
    if (warned.has(key)) return;
    warned.add(key);
    const what = graphql?.unavailable ? 'planned dispatches unavailable (KT-CT-4340); the plans stored earlier are kept'
      : graphql?.rateLimited ? 'dispatches rate limited (KT-CT-1199); asked again at the next run'
        : `${kind === 'devices' ? 'devices and dispatches' : `${kind} dispatches`} not available (${code}); rates are used without them`;
    const warning = `optional resource missing: ${what} — POST ${error.url}`;
    result.warnings.push(warning);
    logger.warn({ resource: 'dispatches', kind, account: accountNumber, device: deviceId, url: error.url, status: status ?? null, code }, warning);
  };

  for (const accountNumber of await iogAccounts(warehouse, options.accounts)) {
    if (signal?.aborted) break;
    result.accounts++;
    let devices: SmartDevice[];
    try {
      devices = kinds.has('planned') ? await client.devices(accountNumber, signal) : [];
      if (kinds.has('planned')) {
        await upsertDevices(warehouse, accountNumber, devices, now());
        await recordDispatchFetch(warehouse, { accountNumber, kind: 'devices', outcome: 'ok', listed: devices.length }, now(), runId);
      }
    } catch (error) {
      await fail(accountNumber, 'devices', undefined, error);
      // no GraphQL at all (404): asking for completed dispatches would fail the same way
      if (error instanceof ApiError && !(error instanceof GraphqlError)) continue;
      devices = [];
    }
    result.devices += devices.length;
    for (const device of devices) {
      if (signal?.aborted) break;
      try {
        const planned = await client.plannedDispatches(device.deviceId, signal);
        const wrote = await writeDispatches(warehouse, 'planned', accountNumber, device.deviceId, planned, now(), runId);
        await recordDispatchFetch(warehouse, { accountNumber, deviceId: device.deviceId, kind: 'planned', outcome: 'ok', listed: planned.length }, now(), runId);
        result.planned_inserted += wrote.inserted;
        result.planned_superseded += wrote.superseded;
      } catch (error) {
        await fail(accountNumber, 'planned', device.deviceId, error);
      }
    }
    if (!kinds.has('completed') || signal?.aborted) continue;
    try {
      const completed = await client.completedDispatches(accountNumber, signal);
      const wrote = await writeDispatches(warehouse, 'completed', accountNumber, '', completed, now(), runId);
      await recordDispatchFetch(warehouse, { accountNumber, kind: 'completed', outcome: 'ok', listed: completed.length }, now(), runId);
      result.completed_inserted += wrote.inserted;
    } catch (error) {
      await fail(accountNumber, 'completed', undefined, error);
    }
  }
  if (result.accounts > 0) logger.info({ ...result, warnings: result.warnings.length || undefined }, 'dispatches refreshed');
  return result;
}

/** The accounts among `accounts` with an agreement on an Intelligent Octopus Go tariff: one with
 *  a night band (four-rate EV, tariffs.night_start_minutes) or an INTELLI product code. */
export async function iogAccounts(warehouse: Warehouse, accounts: readonly string[]): Promise<string[]> {
  if (accounts.length === 0) return [];
  return iogAccountsOf(warehouse, accounts);
}
