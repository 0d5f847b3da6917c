// `tariffs migrate --vacuum`: gives back the space a file gained through kills and rewrites.
// In DuckDB 1.5.5 neither CHECKPOINT, FORCE CHECKPOINT nor VACUUM shrinks a file; copying every
// object into a fresh file does. The copy is written beside the database, checked table by table,
// and renamed over it while this process still holds the write lock, so no other process can open
// the old file in between; a failure leaves the database as it was.
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ERROR_CODES, TariffsError } from '../errors.js';
import { fsyncPath } from './fsyncPath.js';
import { quoteIdentifier } from './quoteIdentifier.js';
import type { Warehouse } from './Warehouse.js';

export interface VacuumResult {
  bytesBefore: number;
  bytesAfter: number;
}

export async function vacuumWarehouse(warehouse: Warehouse): Promise<VacuumResult> {
  if (warehouse.readOnly) throw new TariffsError(ERROR_CODES.DB_OPEN, `vacuum needs ${warehouse.file} open for writing`);
  const path = warehouse.path;
  const fresh = join(dirname(path), `.${basename(path)}.vacuum-${process.pid}.tmp`);
  rmSync(fresh, { force: true });
  rmSync(`${fresh}.wal`, { force: true });
  await warehouse.checkpoint(); // everything in the file itself, nothing left in the WAL
  const bytesBefore = statSync(path).size;
  const main = (await warehouse.one('SELECT current_database() AS name'))!.name as string;
  const source = quoteIdentifier(main);
  let attached = false;
  try {
    await warehouse.run(`ATTACH '${fresh.replace(/'/g, "''")}' AS tariffs_vacuum`);
    attached = true;
    await warehouse.run(`COPY FROM DATABASE ${source} TO tariffs_vacuum`);
    // every table holds the same rows in the copy
    const tables = await warehouse.all(`SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = $db AND NOT temporary`, { db: main });
    for (const t of tables) {
      const name = `${quoteIdentifier(t.schema_name as string)}.${quoteIdentifier(t.table_name as string)}`;
      const row = await warehouse.one(`SELECT (SELECT count(*) FROM ${source}.${name}) AS a, (SELECT count(*) FROM tariffs_vacuum.${name}) AS b`);
      if (row!.a !== row!.b) throw new TariffsError(ERROR_CODES.VACUUM, `vacuum of ${warehouse.file}: table ${t.table_name} copied ${row!.b} of ${row!.a} rows; the database is unchanged`);
    }
    // views and macros are recreated from sql/ on the next open
    await warehouse.run(`DELETE FROM tariffs_vacuum.main.schema_state WHERE key = 'definitions'`);
    await warehouse.run('DETACH tariffs_vacuum');
    attached = false;
    if (existsSync(`${fresh}.wal`)) throw new TariffsError(ERROR_CODES.VACUUM, `vacuum of ${warehouse.file}: the copy was not checkpointed; the database is unchanged`);
    fsyncPath(fresh);
    renameSync(fresh, path);
  } catch (error) {
    if (attached) await warehouse.run('DETACH tariffs_vacuum').catch(() => undefined);
    rmSync(fresh, { force: true });
    rmSync(`${fresh}.wal`, { force: true });
    throw error;
  }
  return { bytesBefore, bytesAfter: statSync(path).size };
}
