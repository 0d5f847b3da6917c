// Tables for people (`--format table`, the default on a terminal). They show what a person reads:
// Europe/London wall times rather than UTC and local both, no column that is empty in every row, no
// rate_type when every row is `standard`, prices to 2 decimals, and they fit the terminal: columns
// that do not fit are left out (and said so), a single wide row is shown as `field  value` lines.
// CSV and JSON keep every field and every digit.
import { clockChanges } from '../time/index.js';

export type Row = Record<string, unknown>;

const LOCAL_ISO = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):\d{2}([+-]\d{2}):\d{2}$/;
const PRICE_COLUMN = /(^|_)(inc_vat|exc_vat|price|p_kwh)$|^value_/;
/** Series columns: when every row shares one value, it is said once above the table. */
const SERIES_COLUMNS = ['product_code', 'tariff_code', 'payment_method', 'rate_type'];
/** What gives way first on a narrow terminal (then columns from the right). */
const GIVES_WAY = [/_exc_vat$/, /^p10_|^p90_/, /^off_peak_/, /^median_/, /^expected_slots$|^day_slots$/, /^peak_/, /^settlement_period$/];

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
export function renderHumanTable(rows: readonly Row[], allColumns: readonly string[], width?: number): string {
  let columns = humanColumns(rows, allColumns);
  if (columns.length === 0) return '(no rows)\n';
  const constant = rows.length > 1
    ? columns.filter((c) => SERIES_COLUMNS.includes(c) && rows.every((r) => r[c] === rows[0]![c]))
    : [];
  const title = constant.map((c) => (c.endsWith('_code') ? String(rows[0]![c]) : `${c}: ${String(rows[0]![c])}`)).join(', ');
  columns = columns.filter((c) => !constant.includes(c));
  if (width !== undefined && rows.length > 1) columns = fitted(rows, columns, width);
  const cells = rows.map((r) => columns.map((c) => humanCell(c, r[c], r.local_date)));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((line) => line[i]!.length)));
  const numeric = columns.map((c) => rows.length > 0 && rows.every((r) => r[c] === null || typeof r[c] === 'number'));
  const tableWidth = (shown: number) => widths.slice(0, shown).reduce((a, w) => a + w, 0) + 2 * (shown - 1);
  let shown = columns.length;
  if (width !== undefined) {
    if (rows.length === 1 && tableWidth(shown) > width) return renderRecord(columns, cells[0]!);
    while (shown > 1 && tableWidth(shown) > width) shown--;
  }
  const hiddenEarlier = humanColumns(rows, allColumns).filter((c) => !columns.includes(c) && !constant.includes(c));
  const fmt = (line: string[]) =>
    line.slice(0, shown).map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  const lines = [...(title ? [title] : []), fmt(columns), fmt(widths.map((w) => '-'.repeat(w))), ...cells.map(fmt)];
  const hidden = [...hiddenEarlier, ...columns.slice(shown)];
  const count = `${rows.length} row${rows.length === 1 ? '' : 's'}`;
  const more = `${hidden.length} more column${hidden.length === 1 ? '' : 's'}`;
  const named = `${count}; ${more} (${hidden.join(', ')}) with --format csv or json`;
  const footer = hidden.length === 0 ? count
    : width === undefined || named.length <= width ? named : `${count}; ${more} with --format csv or json`;
  return `${lines.join('\n')}\n${footer}\n`;
}

/** The columns that fit `width`, the ones in GIVES_WAY leaving first, in that order. */
function fitted(rows: readonly Row[], columns: readonly string[], width: number): string[] {
  const widthOf = (c: string) => Math.max(c.length, ...rows.map((r) => humanCell(c, r[c], r.local_date).length));
  const total = (cols: readonly string[]) => cols.reduce((a, c) => a + widthOf(c), 0) + 2 * (cols.length - 1);
  let kept = [...columns];
  for (const pattern of GIVES_WAY) {
    if (total(kept) <= width) break;
    for (let i = kept.length - 1; i >= 0 && total(kept) > width; i--) if (pattern.test(kept[i]!)) kept.splice(i, 1);
  }
  return kept;
}

/** One record as `field  value` lines: a wide single row (a run's summary) on a narrow terminal. */
function renderRecord(columns: readonly string[], cells: readonly string[]): string {
  const pad = Math.max(...columns.map((c) => c.length));
  return `${columns.map((c, i) => `${c.padEnd(pad)}  ${cells[i]}`.trimEnd()).join('\n')}\n`;
}
