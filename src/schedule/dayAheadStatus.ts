// Is tomorrow complete? Per tracked tariff, from stored data only: the half-hours of tomorrow's
// Europe/London day in rate_slots against london_days.slots (46/48/50). The day-ahead watch
// fetches while some live half-hourly tariff is short of them, so a missed or extra tick costs
// at most one query.
import { localDayBounds, addLocalDays, localDateOf } from '../time/index.js';
import { dayAheadFacts, slotsOfDay } from '../analytics/dayAheadFacts.js';
import type { Warehouse } from '../store/Warehouse.js';
import { trackedTariffs, type TrackedSelection, type TrackedTariff } from './trackedTariffs.js';

export type DayAheadState =
  /** Tracked but never fetched: fetch to find out. */
  | 'never-fetched'
  /** Fetched, but the supplier has no unit rates for it. */
  | 'no-rates'
  /** Its latest unit rate is not a half-hour (fixed, day/night, variable): no day-ahead prices. */
  | 'not-half-hourly'
  /** Half-hourly, but nothing stored for today: an ended tariff (the 30-minute job still polls it). */
  | 'not-live'
  | 'incomplete'
  | 'complete';

export interface TariffDayAhead extends TrackedTariff {
  /** Start (UTC) of the newest stored unit rate. */
  latestFrom: string | null;
  tomorrow: string;
  /** Distinct half-hours of tomorrow stored, and how many the day has. */
  stored: number;
  expected: number;
  state: DayAheadState;
}

export async function dayAheadStatus(warehouse: Warehouse, selection: TrackedSelection, now: Date): Promise<TariffDayAhead[]> {
  const today = localDateOf(now);
  const tomorrow = addLocalDays(today, 1);
  const todayStart = localDayBounds(today).start.getTime();
  const tracked = await trackedTariffs(warehouse, selection);
  const rows = await dayAheadFacts(warehouse, tomorrow);
  const expected = (await slotsOfDay(warehouse, tomorrow)) ?? 48;
  const facts = new Map(rows.map((r) => [r.tariff_code as string, r]));
  return tracked.map((t) => {
    const fact = facts.get(t.tariffCode);
    const latestFrom = (fact?.latest_from as string | undefined) ?? null;
    const stored = (fact?.stored as number | undefined) ?? 0;
    let state: DayAheadState;
    if (!fact) state = t.fetched ? 'no-rates' : 'never-fetched';
    else if (fact.half_hourly !== true) state = 'not-half-hourly';
    else if (Date.parse(latestFrom!) < todayStart) state = 'not-live';
    else state = stored >= expected ? 'complete' : 'incomplete';
    return { ...t, latestFrom, tomorrow, stored, expected, state };
  });
}

/** The watch fetches when some tracked tariff is incomplete or has never been fetched. */
export function dayAheadNeedsFetch(rows: readonly TariffDayAhead[]): boolean {
  return rows.some((r) => r.state === 'incomplete' || r.state === 'never-fetched');
}
