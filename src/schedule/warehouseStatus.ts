// What `tariffs status` shows: per tracked tariff its latest stored slot, whether tomorrow is
// complete and the holes of the last 7 days; per job its last recorded run; per meter how fresh
// its readings are. Read-only.
import { missingSlotsByTariff } from '../analytics/gaps.js';
import {
  jobStatus, latestSlots, meterFreshnessAt, missingOptionalResources, quietTariffs as quietTariffRows, tariffsWithSlots, withdrawnTariffs,
  type MeterStatus,
} from '../analytics/warehouseFacts.js';
import type { BusyAttempt } from '../store/busyAttempts.js';
import type { Warehouse } from '../store/Warehouse.js';
import { addLocalDays, formatLocal, formatUtc, localDateOf, localDayBounds } from '../time/index.js';
import { dayAheadStatus, type DayAheadState } from './dayAheadStatus.js';
import { JOB_NAMES } from './Job.js';
import type { TrackedSelection, TrackedSource } from './trackedTariffs.js';

export type { MeterStatus } from '../analytics/warehouseFacts.js';


export interface TariffStatus {
  tariff: string;
  source: TrackedSource;
  /** Start of the newest stored half-hour (an open-ended rate has none: null). */
  latest_slot_utc: string | null;
  latest_slot_local: string | null;
  tomorrow: string;
  /** Half-hours of tomorrow stored / in the day, e.g. "46/46". */
  tomorrow_slots: string;
  /** null when the tariff has no day-ahead prices (not half-hourly, ended, never fetched). */
  tomorrow_complete: boolean | null;
  state: DayAheadState;
  /** Missing half-hours of the last 7 local days and tomorrow, as the gaps view counts them (null: none stored). */
  gaps_7d: number | null;
  /** Optional resources (standing charges, product detail) the latest attempt could not get. */
  missing_optional: MissingOptional[];
  /** When a products refresh last saw the tariff's product leave the list (null: listed, or unknown). */
  product_withdrawn_at: string | null;
  /** The Europe/London day of the last rate, when every rate ended before today although the
   *  tariff's rates URL answered since (a quiet tariff; null otherwise). */
  rates_stopped_on: string | null;
}

export interface MissingOptional {
  resource: string;
  /** HTTP status of the failure, else the client's error code. */
  status: number | string | null;
  checked_at: string;
}

export interface JobRunStatus {
  job: string;
  run_id: number | null;
  started_at: string | null;
  finished_at: string | null;
  status: string;
  rows_inserted: number | null;
  rows_updated: number | null;
  error: string | null;
  /** Attempts since that run that found another tariffs job writing (they retry soon; not failures). */
  busy_attempts: number;
  /** The latest of them (null: none since the run). */
  last_busy_at: string | null;
}

export interface WarehouseStatus {
  now: string;
  tariffs: TariffStatus[];
  jobs: JobRunStatus[];
  meters: MeterStatus[];
}

/** `pendingBusy`: attempts noted beside the file and not yet moved into busy_attempts (busyAttempts.ts). */
export async function warehouseStatus(
  warehouse: Warehouse, selection: TrackedSelection, now: Date, pendingBusy: readonly BusyAttempt[] = [],
): Promise<WarehouseStatus> {
  const today = localDateOf(now);
  const windowFrom = localDayBounds(addLocalDays(today, -6)).start;
  const windowTo = localDayBounds(addLocalDays(today, 1)).end;
  const dayAhead = await dayAheadStatus(warehouse, selection, now);
  // The status facts are relations of sql/public (latest_slots, withdrawn_tariffs, job_status …).
  const latest = new Map((await latestSlots(warehouse)).map((r) => [r.tariff_code as string, r]));
  // the tariffs with a half-hour stored in the last 7 local days and tomorrow, and their gaps there
  const stored = new Set((await tariffsWithSlots(warehouse, windowFrom, windowTo)).map((r) => String(r.tariff_code)));
  const gaps = await missingSlotsByTariff(warehouse, { from: windowFrom, to: windowTo });
  const missing = new Map<string, MissingOptional[]>();
  for (const r of await missingOptionalResources(warehouse)) {
    const list = missing.get(r.tariff_code as string) ?? [];
    list.push({ resource: r.resource as string, status: (r.http_status ?? r.error_code ?? null) as number | string | null, checked_at: r.checked_at as string });
    missing.set(r.tariff_code as string, list);
  }
  const withdrawn = new Map((await withdrawnTariffs(warehouse)).map((r) => [r.tariff_code as string, r.seen_at as string]));
  const quiet = await quietTariffs(warehouse, localDayBounds(today).start);
  const tariffs = dayAhead.map((t): TariffStatus => {
    const l = latest.get(t.tariffCode);
    const latestSlot = l && l.open_ended !== true && typeof l.latest_slot === 'string' ? new Date(l.latest_slot) : null;
    const dayAheadKnown = t.state === 'complete' || t.state === 'incomplete';
    return {
      tariff: t.tariffCode,
      source: t.source,
      latest_slot_utc: latestSlot ? formatUtc(latestSlot) : null,
      latest_slot_local: latestSlot ? formatLocal(latestSlot) : null,
      tomorrow: t.tomorrow,
      tomorrow_slots: `${t.stored}/${t.expected}`,
      tomorrow_complete: dayAheadKnown ? t.state === 'complete' : null,
      state: t.state,
      gaps_7d: stored.has(t.tariffCode) ? gaps.get(t.tariffCode) ?? 0 : null,
      missing_optional: missing.get(t.tariffCode) ?? [],
      product_withdrawn_at: withdrawn.get(t.tariffCode) ?? null,
      rates_stopped_on: quiet.get(t.tariffCode) ?? null,
    };
  });
  // job_status counts the stored busy attempts; those still beside the file are added here
  const byJob = new Map((await jobStatus(warehouse)).map((r) => [r.job as string, r]));
  const pending = pendingBusy.map((a) => ({ job: a.job, at: Date.parse(a.attempted_at) }));
  const known = new Set([...byJob.keys(), ...pending.map((b) => b.job)]);
  const names = [...JOB_NAMES, ...[...known].filter((j) => !(JOB_NAMES as readonly string[]).includes(j)).sort()];
  const jobs = names.map((job): JobRunStatus => {
    const row = byJob.get(job);
    const run = row && row.run_id !== null ? row : undefined;
    const since = run ? Date.parse(run.started_at as string) : -Infinity;
    const waiting = pending.filter((b) => b.job === job && b.at > since).map((b) => b.at);
    const storedBusy = row?.last_busy_at ? [Date.parse(row.last_busy_at as string)] : [];
    const count = Number(row?.busy_attempts ?? 0) + waiting.length;
    const latestBusy = [...storedBusy, ...waiting];
    const last = latestBusy.length > 0 ? formatUtc(new Date(Math.max(...latestBusy))) : null;
    if (!run) {
      return {
        job, run_id: null, started_at: null, finished_at: null, status: count > 0 ? 'busy' : 'never',
        rows_inserted: null, rows_updated: null, error: null, busy_attempts: count, last_busy_at: last,
      };
    }
    return {
      job, run_id: run.run_id as number, started_at: run.started_at as string, finished_at: run.finished_at as string | null,
      status: run.status as string, rows_inserted: run.rows_inserted as number | null, rows_updated: run.rows_updated as number | null,
      error: run.error as string | null, busy_attempts: count, last_busy_at: last,
    };
  });
  const meters = await meterFreshnessAt(warehouse, now);
  return { now: formatUtc(now), tariffs, jobs, meters };
}

/** Tariffs whose every unit rate ended by `todayStart` although a fetch of their unit rates
 *  succeeded after that end (their URL answers, with nothing new): tariff → the last rate's day. */
async function quietTariffs(warehouse: Warehouse, todayStart: Date): Promise<Map<string, string>> {
  const rows = await quietTariffRows(warehouse, todayStart);
  return new Map(rows.map((r) => [r.tariff_code as string, localDateOf(new Date(Date.parse(r.ended as string) - 1))]));
}
