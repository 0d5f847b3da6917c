// Runs a read-only query on the warehouse and prints its rows: `tariffs sql`, `products`, `tariffs`.
import { DuckDBTypeId, type DuckDBResultReader } from '@duckdb/node-api';
import { rowsToJs, type JsRow } from '../store/rowsToJs.js';
import { Warehouse } from '../store/Warehouse.js';
import { configFrom, formatOf, loggerFor, type CommonFlags } from './common.js';
import { terminalWidth, writeRows } from './output.js';
import { renderExactTable, type TableLayout } from './table.js';

/** `layout`: a listing for people (products, tariffs), whose table fits the terminal by leaving
 *  columns out; without, an analyst's query, whose table shows every column (src/cli/table.ts). */
export async function printQuery(flags: CommonFlags, sql: string, layout?: TableLayout): Promise<void> {
  const config = await configFrom(flags);
  const format = formatOf(flags);
  const warehouse = await Warehouse.open(config.db, { readOnly: true, logger: await loggerFor(config, flags) });
  try {
    const reader = await warehouse.reader(sql);
    // exactly the columns selected; DOUBLEs without the noise of their last bits (see withoutNoise)
    const rows = withoutNoise(rowsToJs(reader), reader);
    const columns = reader.columnNames();
    // DECIMALs with their scale, as DuckDB prints them: 92.90, not 92.9 (in JSON still a number)
    const decimals = layout ? [] : withScale(rows, reader);
    if (format === 'json' && decimals.length > 0) {
      process.stdout.write(jsonWithExactNumbers(rows, columns, decimals));
    } else if (format === 'table' && !layout) {
      const instants = columns.filter((_c, i) => reader.columnTypes()[i]!.typeId === DuckDBTypeId.TIMESTAMP_TZ);
      process.stdout.write(renderExactTable(rows, columns, terminalWidth(), instants, decimals));
    } else {
      writeRows(rows, format, columns, false, layout);
    }
  } finally {
    warehouse.close();
  }
}

/** Significant digits a DOUBLE is printed with. A double holds 15-17; a mean or sum of doubles
 *  (summed by parallel threads, too) carries noise in the last of them (8.323875000000001),
 *  never in the first 12. */
export const DOUBLE_DIGITS = 12;

/** DOUBLE and FLOAT columns to DOUBLE_DIGITS significant digits; every other value as it is. */
function withoutNoise(rows: JsRow[], reader: DuckDBResultReader): JsRow[] {
  const names = reader.columnNames();
  const floating = reader.columnTypes().flatMap((type, i) =>
    (type.typeId === DuckDBTypeId.DOUBLE || type.typeId === DuckDBTypeId.FLOAT ? [names[i]!] : []));
  if (floating.length === 0) return rows;
  for (const row of rows) {
    for (const name of floating) {
      const value = row[name];
      if (typeof value === 'number' && Number.isFinite(value)) row[name] = Number(value.toPrecision(DOUBLE_DIGITS));
    }
  }
  return rows;
}

/** DECIMAL columns as their exact text, every digit of their scale (DuckDB's own DECIMAL value
 *  prints so); returns the columns changed. */
function withScale(rows: JsRow[], reader: DuckDBResultReader): string[] {
  const names = reader.columnNames();
  const decimals = reader.columnTypes().flatMap((type, i) => (type.typeId === DuckDBTypeId.DECIMAL ? [i] : []));
  if (decimals.length === 0) return [];
  const values = reader.getRows();
  for (let r = 0; r < rows.length; r++) {
    for (const i of decimals) {
      const value = values[r]![i];
      rows[r]![names[i]!] = value === null || value === undefined ? null : String(value);
    }
  }
  return decimals.map((i) => names[i]!);
}

/** The rows as `JSON.stringify(rows, null, 2)` writes them, but the `exact` columns (numbers as
 *  text) written as JSON numbers with every digit: `"total_gbp": 92.90`. */
function jsonWithExactNumbers(rows: readonly JsRow[], columns: readonly string[], exact: readonly string[]): string {
  if (rows.length === 0) return '[]\n';
  const objects = rows.map((row) => {
    const fields = columns.filter((c, i) => columns.indexOf(c) === i).map((c) => {
      const value = row[c];
      const text = exact.includes(c) && typeof value === 'string' ? value : JSON.stringify(value ?? null, null, 2).replace(/\n/g, '\n    ');
      return `    ${JSON.stringify(c)}: ${text}`;
    });
    return fields.length === 0 ? '  {}' : `  {\n${fields.join(',\n')}\n  }`;
  });
  return `[\n${objects.join(',\n')}\n]\n`;
}
