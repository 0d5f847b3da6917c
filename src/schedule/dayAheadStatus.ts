// Is tomorrow complete? Per tracked tariff, from stored data only: the half-hours of tomorrow's
// Europe/London day in rate_slots against london_days.slots (46/48/50). The day-ahead watch
// fetches while some live half-hourly tariff is short of them, so a missed or extra tick costs
// at most one query.
import { localDayBounds, addLocalDays, localDateOf } from '../time/index.js';
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
  // SQL kept here rather than in sql/: it answers the scheduler's question only, with bound values.
  const rows = await warehouse.all(`
    WITH latest AS (
        SELECT tariff_code,
               max(valid_from) AS latest_from,
               arg_max(coalesce(valid_to = valid_from + INTERVAL 30 MINUTE, false), valid_from) AS half_hourly
        FROM unit_rates
        GROUP BY tariff_code
    ), tomorrow AS (
        SELECT tariff_code, count(DISTINCT slot_start) AS stored
        FROM rate_slots
        WHERE local_date = CAST($tomorrow AS DATE)
        GROUP BY tariff_code
    )
    SELECT l.tariff_code, l.latest_from, l.half_hourly, coalesce(t.stored, 0) AS stored
    FROM latest AS l LEFT JOIN tomorrow AS t USING (tariff_code)`, { tomorrow });
  const day = await warehouse.one('SELECT slots FROM london_days WHERE local_date = CAST($tomorrow AS DATE)', { tomorrow });
  const expected = (day?.slots as number | undefined) ?? 48;
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
