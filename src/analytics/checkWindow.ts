// "Is it now?" for scripts: today's chosen window (per Europe/London local day, as
// cheapest_window_per_day picks it) and whether an instant lies inside it; with the window now in
// progress, if any, and the next one to start, each with its mean, min and max price.
import type { Warehouse } from '../store/Warehouse.js';
import { addLocalDays, localDateOf, localDayBounds } from '../time/index.js';
import { cheapestWindows, type CheapestWindowsRequest, type WindowRow } from './cheapestWindows.js';
import { rangeCoverage } from './rangeCoverage.js';

export type CheckRequest = Omit<CheapestWindowsRequest, 'perDay' | 'band' | 'from' | 'to'> & { now: Date };

export interface CheckedWindow extends WindowRow {
  min_inc_vat: number;
  max_inc_vat: number;
}

export interface CheckResult {
  /** The instant checked, UTC `...Z`. */
  now: string;
  /** The Europe/London day of `now`. */
  local_date: string;
  /** True when `now` lies inside today's window: [start, end). */
  in_window: boolean;
  /** Today's window, whether or not `now` is in it; null when none qualifies. */
  today: CheckedWindow | null;
  /** The window `now` lies in, or null. */
  current: CheckedWindow | null;
  /** The first window (today's or tomorrow's) starting after `now`, or null. */
  next: CheckedWindow | null;
}

/** Windows of today and tomorrow (local days), so that "next" can be tomorrow's. */
export async function checkWindow(warehouse: Warehouse, request: CheckRequest): Promise<CheckResult> {
  const today = localDateOf(request.now);
  const from = localDayBounds(today).start;
  const to = localDayBounds(addLocalDays(today, 1)).end;
  const { now, ...rest } = request;
  const rows = await cheapestWindows(warehouse, { ...rest, perDay: true, from, to });
  const at = now.getTime();
  const todays = rows.find((r) => r.local_date === today);
  const current = rows.find((r) => Date.parse(r.start) <= at && at < Date.parse(r.end));
  const next = rows.filter((r) => Date.parse(r.start) > at).sort((a, b) => a.start.localeCompare(b.start))[0];
  const spread = async (row: WindowRow | undefined): Promise<CheckedWindow | null> => {
    if (!row) return null;
    const [coverage] = (await rangeCoverage(warehouse, { tariff: row.tariff_code, from: new Date(row.start), to: new Date(row.end) }))
      .filter((c) => c.payment_method === row.payment_method && c.rate_type === row.rate_type);
    return { ...row, min_inc_vat: coverage!.min_inc_vat, max_inc_vat: coverage!.max_inc_vat };
  };
  return {
    now: now.toISOString().replace('.000Z', 'Z'),
    local_date: today,
    in_window: todays !== undefined && current === todays,
    today: await spread(todays),
    current: await spread(current),
    next: await spread(next),
  };
}
