// Dispatches as they were seen (sql/migrations/012_dispatches.sql): upserts keyed by kind,
// account, device and start/end, so that writing the same answer twice changes nothing but
// last_seen_at. A planned dispatch that a successful answer for its device no longer lists, while
// it has not ended yet, is superseded (kept, with superseded_at); one that comes back is current
// again. Completed dispatches are only ever added to (a late one is inserted when it arrives).
import type { Dispatch, SmartDevice } from '../api/DispatchClient.js';
import type { Warehouse } from './Warehouse.js';
import { valuesList } from './valuesList.js';

export type DispatchKind = 'planned' | 'completed';
export type FetchKind = 'devices' | DispatchKind;

export interface DispatchWrite {
  inserted: number;
  superseded: number;
}

export async function upsertDevices(warehouse: Warehouse, accountNumber: string, devices: readonly SmartDevice[], now: Date): Promise<void> {
  if (devices.length === 0) return;
  const values = valuesList(devices.map((d) => [d.deviceId, d.deviceType, d.provider]),
    ['?', '$account', '?', '?', 'CAST($now AS TIMESTAMPTZ)', 'CAST($now AS TIMESTAMPTZ)']);
  await warehouse.run(`INSERT INTO smart_devices VALUES ${values.sql}
    ON CONFLICT (device_id) DO UPDATE SET account_number = excluded.account_number, device_type = excluded.device_type,
      provider = excluded.provider, last_seen_at = excluded.last_seen_at`,
  { ...values.params, account: accountNumber, now: now.toISOString() });
}

/** Stores one answer of a kind for an account (planned: for one device); returns what it added
 *  and, for planned dispatches, how many earlier ones it superseded. */
export async function writeDispatches(
  warehouse: Warehouse, kind: DispatchKind, accountNumber: string, deviceId: string, dispatches: readonly Dispatch[],
  now: Date, runId: number,
): Promise<DispatchWrite> {
  const params = { kind, account: accountNumber, device: deviceId, now: now.toISOString(), run: runId };
  return warehouse.transaction(async () => {
    const before = await countOf(warehouse, params);
    if (dispatches.length > 0) {
      // one row per start/end: an answer listing a span twice keeps the last
      const unique = new Map(dispatches.map((d) => [`${d.start}|${d.end}`, d]));
      const values = valuesList(
        [...unique.values()].map((d) => [new Date(d.start).toISOString(), new Date(d.end).toISOString(), d.deltaKwh, d.type, d.source, d.location]),
        ['$kind', '$account', '$device', 'CAST(? AS TIMESTAMPTZ)', 'CAST(? AS TIMESTAMPTZ)', 'CAST(? AS DOUBLE)', '?', '?', '?',
          'CAST($now AS TIMESTAMPTZ)', 'CAST($now AS TIMESTAMPTZ)', 'CAST(NULL AS TIMESTAMPTZ)', '$run', '$run'],
      );
      await warehouse.run(`INSERT INTO dispatches VALUES ${values.sql}
        ON CONFLICT (kind, account_number, device_id, start_at, end_at) DO UPDATE SET
          delta_kwh = excluded.delta_kwh, dispatch_type = excluded.dispatch_type, source = excluded.source,
          location = excluded.location, last_seen_at = excluded.last_seen_at, superseded_at = NULL, run_id = excluded.run_id`,
      { ...values.params, ...params });
    }
    let superseded = 0;
    if (kind === 'planned') {
      // not in this answer (its rows now carry this run's id), and not ended: the plan changed
      const row = await warehouse.one(`SELECT count(*)::INTEGER AS n FROM dispatches
        WHERE kind = $kind AND account_number = $account AND device_id = $device AND superseded_at IS NULL
          AND run_id <> $run AND end_at > CAST($now AS TIMESTAMPTZ)`, params);
      superseded = Number(row?.n ?? 0);
      if (superseded > 0) {
        await warehouse.run(`UPDATE dispatches SET superseded_at = CAST($now AS TIMESTAMPTZ), run_id = $run
          WHERE kind = $kind AND account_number = $account AND device_id = $device AND superseded_at IS NULL
            AND run_id <> $run AND end_at > CAST($now AS TIMESTAMPTZ)`, params);
      }
    }
    const after = await countOf(warehouse, params);
    return { inserted: after - before, superseded };
  });
}

/** One dispatch question and its outcome (error_code: GraphQL errorCode or the client's code). */
export async function recordDispatchFetch(
  warehouse: Warehouse, fetch: {
    accountNumber: string; deviceId?: string; kind: FetchKind; outcome: 'ok' | 'unavailable' | 'failed';
    errorCode?: string | null; listed?: number | null;
  }, now: Date, runId: number,
): Promise<void> {
  await warehouse.run(`INSERT INTO dispatch_fetches VALUES ($account, $device, $kind, CAST($now AS TIMESTAMPTZ), $outcome, $code, CAST($listed AS INTEGER), $run)`, {
    account: fetch.accountNumber, device: fetch.deviceId ?? '', kind: fetch.kind, now: now.toISOString(), outcome: fetch.outcome,
    code: fetch.errorCode ?? null, listed: fetch.listed ?? null, run: runId,
  });
}

async function countOf(warehouse: Warehouse, params: { kind: string; account: string; device: string }): Promise<number> {
  const row = await warehouse.one(`SELECT count(*)::INTEGER AS n FROM dispatches
    WHERE kind = $kind AND account_number = $account AND device_id = $device`, params);
  return Number(row?.n ?? 0);
}
