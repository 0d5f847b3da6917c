// Renders result rows (plain objects of strings, numbers, booleans, nulls) as a table, CSV or JSON
// on stdout. JSON is an array of row objects; CSV quoting is left to csv-stringify. Tables are for
// people (src/cli/table.ts): chosen columns, 2-decimal prices, the terminal's width.
import { stringify } from 'csv-stringify/sync';
import { UsageError } from '../errors.js';
import { columnsOf } from './columns.js';
import { renderExactTable, renderHumanTable, type TableLayout } from './table.js';

export type OutputFormat = 'table' | 'csv' | 'json';
export type Row = Record<string, unknown>;

export const FORMATS: OutputFormat[] = ['table', 'csv', 'json'];

/** `--format` when given, else a table on a TTY and JSON when piped (scripts want structure). */
export function resolveFormat(flag: string | undefined, isTTY = process.stdout.isTTY === true): OutputFormat {
  if (flag === undefined) return isTTY ? 'table' : 'json';
  if (!(FORMATS as string[]).includes(flag)) {
    throw new UsageError(`--format: '${flag}' is not one of ${FORMATS.join(', ')}`);
  }
  return flag as OutputFormat;
}

/** Columns of the terminal stdout is, when it is one (else COLUMNS, when set: src/cli/columns.ts). */
export function terminalWidth(stream: NodeJS.WriteStream = process.stdout): number | undefined {
  return columnsOf(stream);
}

/** `exact`: a table of exactly the columns and values given (an analyst's own SELECT). */
export function render(objects: readonly object[], format: OutputFormat, columns?: string[], width = terminalWidth(), exact = false, layout?: TableLayout): string {
  const rows = objects as readonly Row[];
  const cols = columns ?? (rows[0] ? Object.keys(rows[0]) : []);
  switch (format) {
    case 'json':
      return `${JSON.stringify(rows, null, 2)}\n`;
    case 'csv':
      return stringify(rows.map((r) => cols.map((c) => cell(r[c]))), { header: true, columns: cols });
    case 'table':
      return exact ? renderExactTable(rows, cols, width) : renderHumanTable(rows, cols, width, layout);
  }
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function writeRows(rows: readonly object[], format: OutputFormat, columns?: string[], exact = false, layout?: TableLayout): void {
  process.stdout.write(render(rows, format, columns, terminalWidth(), exact, layout));
}
