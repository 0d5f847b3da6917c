// Tables for people (`--format table`, the default on a terminal). They show what a person reads:
// Europe/London wall times (no milliseconds; the offset only in the hour that happens twice when
// the clocks go back) rather than UTC and local both, no column that is empty in every row, no
// rate_type when every row is `standard`, prices to 2 decimals, and they fit the terminal: columns
// give way by importance (a command's answer columns never; see TableLayout) and the footer names
// every one left out, then long text is shortened with …; a single wide row is shown as
// `field  value` lines. `tariffs sql` gets renderExactTable: every column and digit the query
// returned, instants as wall times, one `field  value` block per row when the table is too wide.
// CSV and JSON keep every field and every digit.
import { formatLocal, instantsOfLondonWall } from '../time/index.js';
import { wrapWords } from './wrapHelp.js';

export type Row = Record<string, unknown>;

/** An instant as ISO 8601 text: with an offset (`2024-10-27T01:30:00+01:00`) or in UTC (`…Z`). */
const INSTANT_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:\d{2}|Z)$/;
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
    if (c === 'at' && present.has('local')) return false; // schedule --list: the same instant
    return true;
  });
}

/** One cell as a person reads it; a wall time on the row's own local_date shows as HH:MM. */
export function humanCell(column: string, value: unknown, localDate?: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    return POUNDS_COLUMN.test(column) || PRICE_COLUMN.test(column) ? value.toFixed(2) : String(value);
  }
  if (typeof value === 'string') {
    if (INSTANT_ISO.test(value)) return wallTime(new Date(value), typeof localDate === 'string' ? localDate : undefined);
    return value;
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * An instant as a person reads it: Europe/London wall time, `2024-10-27 14:30` (seconds only when
 * not :00, never milliseconds), the date left out when it is `localDate` (the row's own day), and
 * the offset added where the wall time happens twice: `2023-10-29 01:30 +01:00` and `+00:00`.
 */
export function wallTime(instant: Date, localDate?: string): string {
  const local = formatLocal(instant); // 2024-10-27T01:30:00+00:00
  const date = local.slice(0, 10);
  const seconds = local.slice(17, 19);
  const ambiguous = instantsOfLondonWall(Date.parse(`${local.slice(0, 19)}Z`)).length > 1;
  return `${date === localDate ? '' : `${date} `}${local.slice(11, 16)}${seconds === '00' ? '' : `:${seconds}`}${ambiguous ? ` ${local.slice(19)}` : ''}`;
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
    if (wide > width) return renderRecord(columns, cells, width);
  }
  if (width !== undefined && rows.length > 1) columns = fitted(rows, columns, width, layout);
  const cells = rows.map((r) => columns.map((c) => humanCell(c, r[c], r.local_date)));
  const numeric = columns.map((c) => rows.length > 0 && rows.every((r) => r[c] === null || typeof r[c] === 'number'));
  if (width !== undefined) {
    shorten(columns, cells, columns.map((c) => isText(rows, c, layout)), width);
  }
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((line) => line[i]!.length)));
  const hidden = humanColumns(rows, allColumns).filter((c) => !columns.includes(c) && !constant.includes(c));
  const fmt = (line: string[]) =>
    line.map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  const lines = [...(title ? [width === undefined ? title : shortened(title, width)] : []), fmt(columns), fmt(widths.map((w) => '-'.repeat(w))), ...cells.map(fmt)];
  const count = `${rows.length} row${rows.length === 1 ? '' : 's'}`;
  const more = `${hidden.length} more column${hidden.length === 1 ? '' : 's'}`;
  const footer = hidden.length === 0 ? count : wrapped(`${count}; ${more} with --format csv or json:`, hidden, width);
  return `${lines.join('\n')}\n${footer}\n`;
}

/** Text shortened to `max` characters, ending in … when cut. */
function shortened(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}\u2026`;
}

/** The last resort when the columns left are still too wide: the widest `text` column is shortened
 *  (to no less than its name or 10 characters), then the next, until the table fits. */
function shorten(columns: readonly string[], cells: string[][], text: readonly boolean[], width: number): void {
  const widthOf = (i: number) => Math.max(columns[i]!.length, ...cells.map((line) => line[i]!.length));
  const total = () => columns.reduce((a, _c, i) => a + widthOf(i), 0) + 2 * (columns.length - 1);
  const floor = (i: number) => textFloor(columns[i]!);
  for (let over = total() - width; over > 0; over = total() - width) {
    const candidates = columns.map((_c, i) => i).filter((i) => text[i] && widthOf(i) > floor(i));
    if (candidates.length === 0) return;
    const widest = candidates.reduce((a, b) => (widthOf(b) > widthOf(a) ? b : a));
    const max = Math.max(floor(widest), widthOf(widest) - over);
    for (const line of cells) line[widest] = shortened(line[widest]!, max);
  }
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
  // key columns: the last declared leaves first, while shortening free text (see shorten) would
  // not make room
  const shortest = (c: string) => (isText(rows, c, layout) ? Math.min(widthOf(c), textFloor(c)) : widthOf(c));
  const keys = layout.key ?? [];
  for (let k = keys.length - 1; k >= 0; k--) {
    for (let i = kept.length - 1; i >= 0; i--) {
      if (kept.reduce((a, c) => a + shortest(c), 0) + 2 * (kept.length - 1) <= width) return kept;
      if (rank(kept[i]!) === 1 && matches([keys[k]!], kept[i]!)) kept.splice(i, 1);
    }
  }
  return kept;
}

/** Free text (names, descriptions: words) that is not the answer: what shorten() may cut; codes,
 *  instants and numbers never. */
function isText(rows: readonly Row[], column: string, layout: TableLayout): boolean {
  return !matches(layout.answer, column) && rows.some((r) => typeof r[column] === 'string' && r[column].includes(' '))
    && rows.every((r) => r[column] === null || r[column] === undefined || (typeof r[column] === 'string' && !INSTANT_ISO.test(r[column])));
}

/** How short shorten() cuts a column: its name, or 10 characters. */
const textFloor = (column: string) => Math.max(10, column.length);

/** One record as `field  value` lines: a wide single row (a run's summary) on a narrow terminal;
 *  a long value continues under itself. */
function renderRecord(columns: readonly string[], cells: readonly string[], width?: number): string {
  const pad = Math.max(...columns.map((c) => c.length));
  const lines = columns.flatMap((c, i) => {
    const head = `${c.padEnd(pad)}  `;
    if (width === undefined || head.length + cells[i]!.length <= width) return [`${head}${cells[i]}`.trimEnd()];
    return wrapWords(cells[i]!, Math.max(10, width - head.length), '', '').map((l, j) => `${j === 0 ? head : ' '.repeat(head.length)}${l}`.trimEnd());
  });
  return `${lines.join('\n')}\n`;
}

/** A value as the query returned it; an instant (`…Z`, from a TIMESTAMPTZ: rowsToJs) as a wall time. */
function exactCell(value: unknown, instant: boolean): string {
  if (value === null || value === undefined) return '';
  if (instant && typeof value === 'string' && INSTANT_ISO.test(value)) return wallTime(new Date(value));
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * `tariffs sql`: every column selected and every digit, instants (the `instants` columns) as
 * Europe/London wall times. When the table is wider than `width`, each row is a block of
 * `column  value` lines instead (as psql's expanded display), so nothing is cut or left out.
 */
export function renderExactTable(
  rows: readonly Row[], cols: readonly string[], width?: number, instants: readonly string[] = [],
  /** Columns of numbers given as their exact text (DECIMALs with their scale): aligned right too. */
  exactNumbers: readonly string[] = [],
): string {
  if (cols.length === 0) return '(no rows)\n';
  const count = `${rows.length} row${rows.length === 1 ? '' : 's'}`;
  const body = rows.map((r) => cols.map((c) => exactCell(r[c], instants.includes(c))));
  const widths = cols.map((c, i) => Math.max(c.length, ...body.map((line) => line[i]!.length)));
  if (width !== undefined && widths.reduce((a, w) => a + w, 0) + 2 * (cols.length - 1) > width) {
    const blocks = body.map((line, r) => `${`-[ row ${r + 1} ]${'-'.repeat(width)}`.slice(0, Math.min(width, 40))}\n${renderRecord(cols, line, width)}`);
    return `${blocks.join('')}${count}\n`;
  }
  const numeric = cols.map((c) => exactNumbers.includes(c) || (rows.length > 0 && rows.every((r) => r[c] === null || typeof r[c] === 'number')));
  const fmt = (line: string[]) =>
    line.map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  const lines = [fmt([...cols]), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(fmt)];
  return `${lines.join('\n')}\n${count}\n`;
}
