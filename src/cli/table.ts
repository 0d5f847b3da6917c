// Tables for people (`--format table`, the default on a terminal). They show what a person reads:
// Europe/London wall times rather than UTC and local both, no column that is empty in every row, no
// rate_type when every row is `standard`, prices to 2 decimals, and they fit the terminal: columns
// give way by importance (a command's answer columns never; see TableLayout) and the footer names
// every one left out; a single wide row is shown as `field  value` lines.
// CSV and JSON keep every field and every digit.
import { clockChanges } from '../time/index.js';

export type Row = Record<string, unknown>;

const LOCAL_ISO = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):\d{2}([+-]\d{2}):\d{2}$/;
const PRICE_COLUMN = /(^|_)(inc_vat|exc_vat|price|p_kwh)$|^value_/;
/** Money in pounds: always pence exact, 0.00 included. */
const POUNDS_COLUMN = /(^|_)gbp$/;
/** Series columns: when every row shares one value, it is said once above the table. */
const SERIES_COLUMNS = ['product_code', 'tariff_code', 'payment_method', 'rate_type'];
/** What gives way first on a narrow terminal (then the other columns from the right, then the key ones). */
const GIVES_WAY = [/_exc_vat$/, /^p10_|^p90_/, /^off_peak_/, /^median_/, /^expected_slots$|^day_slots$/, /^peak_/, /^settlement_period$/];

/** Which of a command's columns matter most on a narrow terminal. `answer`: never give way (money,
 *  prices, the window's times, state); `key`: give way only after every other column. */
export interface TableLayout {
  answer?: readonly (string | RegExp)[];
  key?: readonly (string | RegExp)[];
}

/** For commands that declare nothing: money, state and a window's wall times are the answer. */
const DEFAULT_LAYOUT: TableLayout = { answer: [/(^|_)gbp$/, 'state', 'local_start', 'local_end'] };

const matches = (patterns: TableLayout['answer'], column: string) =>
  (patterns ?? []).some((p) => (typeof p === 'string' ? p === column : p.test(column)));

/** The columns a person reads, in order. */
export function humanColumns(rows: readonly Row[], columns: readonly string[]): string[] {
  const present = new Set(columns);
  return columns.filter((c) => {
    if (rows.length > 0 && rows.every((r) => r[c] === null || r[c] === undefined || r[c] === '')) return false;
    if (c === 'rate_type' && rows.length > 0 && rows.every((r) => r[c] === 'standard')) return false;
    // UTC instants that have a local twin: the wall time is what a person reads
    if ((c === 'start' || c === 'slot_start') && present.has('local_start')) return false;
    if ((c === 'end' || c === 'slot_end') && present.has('local_end')) return false;
    if (c.endsWith('_utc') && present.has(`${c.slice(0, -4)}_local`)) return false;
    if (c === 'day_start_local' && present.has('local_date')) return false; // local midnight, always
    return true;
  });
}

/** One cell as a person reads it; a wall time on the row's own local_date shows as HH:MM. */
export function humanCell(column: string, value: unknown, localDate?: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (POUNDS_COLUMN.test(column)) return value.toFixed(2);
    return PRICE_COLUMN.test(column) && !Number.isInteger(value) ? value.toFixed(2) : String(value);
  }
  if (typeof value === 'string') {
    const m = LOCAL_ISO.exec(value);
    if (m) {
      const [, date, hh, mm, offset] = m;
      // The repeated hour of a fall-back day is ambiguous without its zone.
      const ambiguous = hh === '01' && clockChanges(Number(date!.slice(0, 4))).fallBack === date;
      const zone = ambiguous ? (offset === '+01' ? ' BST' : ' GMT') : '';
      return `${date === localDate ? '' : `${date} `}${hh}:${mm}${zone}`;
    }
    return value;
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Renders rows for a terminal `width` columns wide (undefined: no limit). */
export function renderHumanTable(rows: readonly Row[], allColumns: readonly string[], width?: number, layout: TableLayout = DEFAULT_LAYOUT): string {
  let columns = humanColumns(rows, allColumns);
  if (columns.length === 0) return '(no rows)\n';
  const constant = rows.length > 1
    ? columns.filter((c) => SERIES_COLUMNS.includes(c) && rows.every((r) => r[c] === rows[0]![c]))
    : [];
  const title = constant.map((c) => (c.endsWith('_code') ? String(rows[0]![c]) : `${c}: ${String(rows[0]![c])}`)).join(', ');
  columns = columns.filter((c) => !constant.includes(c));
  if (width !== undefined && rows.length === 1) {
    const cells = columns.map((c) => humanCell(c, rows[0]![c], rows[0]!.local_date));
    const wide = columns.reduce((a, c, i) => a + Math.max(c.length, cells[i]!.length), 0) + 2 * (columns.length - 1);
    if (wide > width) return renderRecord(columns, cells);
  }
  if (width !== undefined && rows.length > 1) columns = fitted(rows, columns, width, layout);
  const cells = rows.map((r) => columns.map((c) => humanCell(c, r[c], r.local_date)));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((line) => line[i]!.length)));
  const numeric = columns.map((c) => rows.length > 0 && rows.every((r) => r[c] === null || typeof r[c] === 'number'));
  const hidden = humanColumns(rows, allColumns).filter((c) => !columns.includes(c) && !constant.includes(c));
  const fmt = (line: string[]) =>
    line.map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  const lines = [...(title ? [title] : []), fmt(columns), fmt(widths.map((w) => '-'.repeat(w))), ...cells.map(fmt)];
  const count = `${rows.length} row${rows.length === 1 ? '' : 's'}`;
  const more = `${hidden.length} more column${hidden.length === 1 ? '' : 's'}`;
  const footer = hidden.length === 0 ? count : wrapped(`${count}; ${more} with --format csv or json:`, hidden, width);
  return `${lines.join('\n')}\n${footer}\n`;
}

/** `head` and then every name, comma-separated, in lines of at most `width` (continued indented). */
function wrapped(head: string, names: readonly string[], width: number | undefined): string {
  const lines = [head];
  names.forEach((name, i) => {
    const item = `${name}${i < names.length - 1 ? ',' : ''}`;
    const last = lines[lines.length - 1]!;
    if (width === undefined || last.length + 1 + item.length <= width) lines[lines.length - 1] = `${last} ${item}`;
    else lines.push(`  ${item}`);
  });
  return lines.join('\n');
}

/** The columns that fit `width`: the layout's answer columns always stay; first the other columns
 *  leave (those in GIVES_WAY first, in that order, then from the right), then the key columns, the
 *  last declared first. Order is kept. Answer columns wider than the terminal are shown even so (it wraps). */
function fitted(rows: readonly Row[], columns: readonly string[], width: number, layout: TableLayout): string[] {
  const widthOf = (c: string) => Math.max(c.length, ...rows.map((r) => humanCell(c, r[c], r.local_date).length));
  const total = (cols: readonly string[]) => cols.reduce((a, c) => a + widthOf(c), 0) + 2 * (cols.length - 1);
  const rank = (c: string) => (matches(layout.answer, c) ? 0 : matches(layout.key, c) ? 1 : 2);
  const kept = [...columns];
  const drop = (leaves: (c: string) => boolean) => {
    for (let i = kept.length - 1; i >= 0 && total(kept) > width; i--) if (leaves(kept[i]!)) kept.splice(i, 1);
  };
  for (const pattern of GIVES_WAY) drop((c) => rank(c) === 2 && pattern.test(c));
  drop((c) => rank(c) === 2);
  // key columns: the last declared leaves first
  const keys = layout.key ?? [];
  for (let k = keys.length - 1; k >= 0; k--) drop((c) => rank(c) === 1 && matches([keys[k]!], c));
  return kept;
}

/** One record as `field  value` lines: a wide single row (a run's summary) on a narrow terminal. */
function renderRecord(columns: readonly string[], cells: readonly string[]): string {
  const pad = Math.max(...columns.map((c) => c.length));
  return `${columns.map((c, i) => `${c.padEnd(pad)}  ${cells[i]}`.trimEnd()).join('\n')}\n`;
}
