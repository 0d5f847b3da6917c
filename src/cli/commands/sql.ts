// `tariffs sql`, `tariffs products`, `tariffs tariffs`, `tariffs migrate`: reading the warehouse
// back (read-only, so the scheduler can keep writing between queries) and upgrading its schema.
import { Command } from 'commander';
import { DuckDBTypeId, type DuckDBResultReader } from '../../store/duckdb.js';
import { rowsToJs, type JsRow } from '../../store/rowsToJs.js';
import { vacuumWarehouse } from '../../store/vacuumWarehouse.js';
import { Warehouse } from '../../store/Warehouse.js';
import { WriteSession } from '../../store/WriteSession.js';
import { action } from '../run.js';
import { busyTimeoutMsOf, configFrom, formatOf, loggerFor, withBusyTimeout, withDb, withFormat, type CommonFlags } from '../common.js';
import { terminalWidth, writeRows } from '../output.js';
import { renderExactTable, type TableLayout } from '../table.js';

/** `layout`: a listing for people (products, tariffs), whose table fits the terminal by leaving
 *  columns out; without, an analyst's query, whose table shows every column (src/cli/table.ts). */
async function query(flags: CommonFlags, sql: string, layout?: TableLayout): Promise<void> {
  const config = configFrom(flags);
  const format = formatOf(flags);
  const warehouse = await Warehouse.open(config.db, { readOnly: true, logger: loggerFor(config, flags) });
  try {
    const reader = await warehouse.reader(sql);
    // exactly the columns selected; DOUBLEs without the noise of their last bits (see withoutNoise)
    const rows = withoutNoise(rowsToJs(reader), reader);
    const columns = reader.columnNames();
    if (format === 'table' && !layout) {
      const instants = columns.filter((_c, i) => reader.columnTypes()[i]!.typeId === DuckDBTypeId.TIMESTAMP_TZ);
      process.stdout.write(renderExactTable(rows, columns, terminalWidth(), instants));
    } else {
      writeRows(rows, format, columns, false, layout);
    }
  } finally {
    warehouse.close();
  }
}

/** Significant digits a DOUBLE is printed with. A double holds 15-17; a mean or sum of doubles
 *  (summed by parallel threads, too) carries noise in the last of them (8.323875000000001,
 *  26.938625000000602 over 81,403 prices), never in the first 12. */
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

export function register(program: Command): void {
  const sql = program
    .command('sql')
    .description('run a read-only SQL query against the warehouse')
    .argument('<query>', 'SQL, e.g. "SELECT * FROM rate_slots LIMIT 5"');
  withFormat(withDb(sql));
  sql.addHelpText('after', '\nJSON output is an array of row objects; instants are ISO 8601 UTC strings (...Z), numbers are numbers.\n' +
    `DOUBLE values are printed to ${DOUBLE_DIGITS} significant digits, without the float noise of their last bits ` +
    '(8.323875000000001 prints as 8.323875); DECIMALs and integers exactly. CAST(x AS DECIMAL(18, 9)) shows more.\n' +
    'A table shows every column selected and TIMESTAMPTZ values as Europe/London wall time (the offset only in the hour ' +
    'the clocks go back, when it happens twice); when it is wider than the terminal, each row is a block of ' +
    '"column  value" lines.');
  sql.action(action(async (text: string, flags: CommonFlags) => query(flags, text)));

  const products = program.command('products').description('list the products stored in the warehouse');
  withFormat(withDb(products));
  products.action(action(async (flags: CommonFlags) => query(flags, `
    SELECT code, display_name, brand, direction, is_variable, is_green, is_tracker, is_prepay, is_business,
           available_from, available_to, last_seen_at
    FROM products ORDER BY code`, { answer: ['code'], key: ['display_name', 'available_from', 'available_to', 'direction'] })));

  const tariffs = program.command('tariffs').description('list the tariffs stored in the warehouse, with their rate coverage');
  withFormat(withDb(tariffs));
  tariffs.action(action(async (flags: CommonFlags) => query(flags, `
    SELECT t.tariff_code, t.product_code, t.fuel, t.register, t.region,
           count(u.valid_from) AS unit_rates, min(u.valid_from) AS first_valid_from, max(u.valid_from) AS last_valid_from
    FROM tariffs AS t LEFT JOIN unit_rates AS u USING (tariff_code)
    GROUP BY ALL ORDER BY t.tariff_code`, { answer: ['tariff_code', 'unit_rates'], key: ['first_valid_from', 'last_valid_from', 'region'] })));

  const migrate = program.command('migrate').description('create or upgrade the warehouse schema (ingest does this too)')
    .option('--vacuum', 'also rewrite the file compactly (gives back the space kills and rewrites left)');
  withBusyTimeout(withDb(migrate));
  migrate.addHelpText('after', `
--vacuum copies everything into a fresh file beside the job's working file (room for one more
copy is needed), checks it table by table, renames it over the working file and publishes it as
the database; CHECKPOINT and VACUUM do not shrink a DuckDB file. Readers are never locked out;
exit 75 when another tariffs job is writing for longer than --busy-timeout.`);
  migrate.action(action(async (flags: CommonFlags & { vacuum?: boolean; busyTimeout?: string }) => {
    const config = configFrom(flags);
    const session = await WriteSession.open(config.db, { logger: loggerFor(config, flags), busyTimeoutMs: busyTimeoutMsOf(flags), purpose: 'migrate' });
    try {
      if (flags.vacuum) {
        const { bytesBefore, bytesAfter } = await vacuumWarehouse(session.warehouse);
        await session.reopen(); // the copy's views and macros are made again
        await session.publish();
        process.stdout.write(`${config.db}: schema up to date; vacuumed ${megabytes(bytesBefore)} -> ${megabytes(bytesAfter)}\n`);
        return;
      }
      await session.publish();
    } finally {
      session.close();
    }
    process.stdout.write(`${config.db}: schema up to date\n`);
  }));
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}
