// "Is it now?" for scripts: today's window (price_windows per Europe/London local day) and whether
// an instant lies inside it, with the window in progress and the next one; also as blocks
// (selection_blocks over today's and tomorrow's windows), moved by an offset to act on them.
import type { Warehouse } from '../store/Warehouse.js';
import { addLocalDays, localDateOf, localDayBounds } from '../time/index.js';
import { cheapestWindows, windowsCall, type CheapestWindowsRequest, type WindowRow } from './cheapestWindows.js';
import { rangeCoverage } from './rangeCoverage.js';
import { blockSeries, selectionBlocks, type BlockRow, type SelectionSummary } from './selectionBlocks.js';

export type CheckRequest = Omit<CheapestWindowsRequest, 'perDay' | 'band' | 'from' | 'to'> & {
  now: Date;
  /** Act this many minutes after each block starts (negative: before); default 0. "Today" is
   *  then the local day of now − offset. */
  offsetMinutes?: number;
};

export interface CheckedWindow extends WindowRow {
  min_inc_vat: number;
  max_inc_vat: number;
}

/** What every check answers about the blocks of its selection. */
export interface BlockCheck {
  /** The offset the blocks were moved by, minutes (act_start = start + offset). */
  offset_minutes: number;
  /** True when now lies in a block moved by the offset: [act_start, act_end). */
  active: boolean;
  /** The block now lies in (moved by the offset), or null. */
  current_block: BlockRow | null;
  /** The first block whose act_start is after now, or null. */
  next_block: BlockRow | null;
  /** Every block of the selection (today's and tomorrow's local days), with its state. */
  blocks: BlockRow[];
  /** The selection as a whole: half-hours, mean, min and max inc VAT; null when nothing was selected. */
  selection: SelectionSummary | null;
}

export interface CheckResult extends BlockCheck {
  /** The instant checked, UTC `...Z`. */
  now: string;
  /** The Europe/London day of `now` (of now − offset with an offset). */
  local_date: string;
  /** True when `now` (− offset) lies inside today's window: [start, end). */
  in_window: boolean;
  /** Today's window, whether or not `now` is in it; null when none qualifies. */
  today: CheckedWindow | null;
  /** The window `now` (− offset) lies in, or null. */
  current: CheckedWindow | null;
  /** The first window (today's or tomorrow's) starting after `now` (− offset), or null. */
  next: CheckedWindow | null;
}

/** Windows of today and tomorrow (local days), so that "next" can be tomorrow's. */
export async function checkWindow(warehouse: Warehouse, request: CheckRequest): Promise<CheckResult> {
  const { now, offsetMinutes = 0, ...rest } = request;
  const { today, from, to } = checkedDays(now, offsetMinutes);
  const windowRequest = { ...rest, perDay: true, from, to };
  const rows = await cheapestWindows(warehouse, windowRequest);
  const at = now.getTime() - offsetMinutes * 60_000;
  const todays = rows.find((r) => r.local_date === today);
  const current = rows.find((r) => Date.parse(r.start) <= at && at < Date.parse(r.end));
  const next = rows.filter((r) => Date.parse(r.start) > at).sort((a, b) => a.start.localeCompare(b.start))[0];
  const spread = async (row: WindowRow | undefined): Promise<CheckedWindow | null> => {
    if (!row) return null;
    const [coverage] = (await rangeCoverage(warehouse, { tariff: row.tariff_code, from: new Date(row.start), to: new Date(row.end) }))
      .filter((c) => c.payment_method === row.payment_method && c.rate_type === row.rate_type);
    return { ...row, min_inc_vat: coverage!.min_inc_vat, max_inc_vat: coverage!.max_inc_vat };
  };
  // the windows' half-hours as the selection: rate_slots is filtered by constants first (the view
  // then reads one tariff over two days)
  const { call, params } = await windowsCall(warehouse, windowRequest);
  const selection = `(SELECT list({payment_method: s.payment_method, rate_type: s.rate_type, slot_start: s.slot_start,
      value_inc_vat: s.value_inc_vat, value_exc_vat: s.value_exc_vat})
    FROM ${call} AS c
    JOIN (SELECT * FROM rate_slots WHERE tariff_code = $tariff AND slot_start >= CAST($from AS TIMESTAMPTZ)
            AND slot_start < CAST($to AS TIMESTAMPTZ)) AS s
      ON s.rate_type = c.rate_type AND s.payment_method IS NOT DISTINCT FROM c.payment_method
     AND s.slot_start >= c.start AND s.slot_start < c."end")`;
  const series = todays ?? rows[0];
  const blocks = await blockCheck(warehouse, { selection, params, at: now, offsetMinutes, rounded: request.rounded }, series);
  return {
    now: now.toISOString().replace('.000Z', 'Z'),
    local_date: today,
    in_window: todays !== undefined && current === todays,
    today: await spread(todays),
    current: await spread(current),
    next: await spread(next),
    ...blocks,
  };
}

/** The local day checked (that of now − offset), and the range of it and the next day. */
export function checkedDays(now: Date, offsetMinutes: number): { today: string; from: Date; to: Date } {
  const today = localDateOf(new Date(now.getTime() - offsetMinutes * 60_000));
  return { today, from: localDayBounds(today).start, to: localDayBounds(addLocalDays(today, 1)).end };
}

/** The blocks of one series of the selection (`series`, or the first one's) as a BlockCheck. */
export async function blockCheck(
  warehouse: Warehouse, request: Parameters<typeof selectionBlocks>[1],
  series: { payment_method: string | null; rate_type: string } | undefined,
): Promise<BlockCheck> {
  const found = await selectionBlocks(warehouse, request);
  const key = series ? blockSeries(series) : found.blocks[0] ? blockSeries(found.blocks[0]) : undefined;
  const blocks = found.blocks.filter((b) => blockSeries(b) === key);
  const current = blocks.find((b) => b.state === 'current') ?? null;
  return {
    offset_minutes: request.offsetMinutes,
    active: current !== null,
    current_block: current,
    next_block: blocks.find((b) => b.state === 'next') ?? null,
    blocks,
    selection: key === undefined ? null : found.summaries.get(key) ?? null,
  };
}
