// A new file starts as a copy of the build's template (dist/warehouse-template.duckdb): the same
// warehouse as one made statement by statement, its migrations dated when the file was made; an
// older template is brought up to date, a broken one ignored, and a file that exists is never
// replaced.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqlDir } from '../src/paths.js';
import { buildWarehouseTemplate } from '../src/store/buildWarehouseTemplate.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { opened } from './helpers/warehouseTools.js';

const dir = mkdtempSync(join(tmpdir(), 'tariffs-template-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a warehouse holds, schema and calendar, as comparable text. */
async function describeWarehouse(warehouse: Warehouse): Promise<unknown> {
  const q = (sql: string) => warehouse.all(sql);
  return {
    columns: await q(`SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
      WHERE table_catalog = current_database() ORDER BY ALL`),
    views: await q(`SELECT view_name, sql FROM duckdb_views() WHERE NOT internal AND database_name = current_database() ORDER BY ALL`),
    macros: await q(`SELECT DISTINCT function_name, macro_definition FROM duckdb_functions()
      WHERE function_type IN ('macro', 'table_macro') AND database_name = current_database() AND NOT internal ORDER BY ALL`),
    indexes: await q(`SELECT table_name, sql FROM duckdb_indexes() WHERE database_name = current_database() ORDER BY ALL`),
    migrations: await q('SELECT version, name FROM schema_migrations ORDER BY version'),
    state: await q('SELECT * FROM schema_state ORDER BY key'),
    calendar: await q(`SELECT count(*) AS days, sum(hash(COLUMNS(*))) AS checksum FROM london_days`),
  };
}

/** A file made (or seeded) by opening it, then described as read back from disk (DuckDB prints a
 *  definition it parsed in this session and one it read from a file with different quoting). */
async function made(file: string, options: Parameters<typeof Warehouse.open>[1]): Promise<unknown> {
  await opened(file, options, async () => undefined);
  return opened(file, {}, describeWarehouse);
}

describe('a new warehouse from the template', () => {
  it('equals one made statement by statement, with its migrations dated when the file was made', async () => {
    const template = await buildWarehouseTemplate(join(dir, 'template.duckdb'));
    // a template built long ago
    await opened(template, {}, (w) => w.run(`UPDATE schema_migrations SET applied_at = TIMESTAMPTZ '2001-01-01 00:00:00Z'`));
    expect(existsSync(`${template}.wal`)).toBe(false);
    const scratch = await made(join(dir, 'made.duckdb'), { template: false });
    const before = Date.now();
    const copy = join(dir, 'copy.duckdb');
    expect(await made(copy, { template })).toEqual(scratch);
    const applied = await opened(copy, {}, (w) => w.all('SELECT epoch_ms(applied_at) AS at FROM schema_migrations'));
    expect((scratch as { migrations: unknown[] }).migrations.length).toBeGreaterThan(5);
    for (const row of applied) expect(Number(row.at)).toBeGreaterThanOrEqual(before - 5);
    // nothing left beside the file
    expect(readdirSync(dir).filter((f) => f.startsWith('copy.duckdb')).sort()).toEqual(['copy.duckdb']);
  });

  it('brings an older template up to date', async () => {
    const old = join(dir, 'old-sql');
    mkdirSync(join(old, 'migrations'), { recursive: true });
    const first = readdirSync(join(sqlDir(), 'migrations')).sort()[0]!;
    cpSync(join(sqlDir(), 'migrations', first), join(old, 'migrations', first));
    const template = await buildWarehouseTemplate(join(dir, 'old-template.duckdb'), old);
    const older = await opened(template, { sqlDirectory: old }, (w) => w.all('SELECT version FROM schema_migrations'));
    expect(older).toHaveLength(1);
    expect(await made(join(dir, 'from-old.duckdb'), { template })).toEqual(await made(join(dir, 'made-2.duckdb'), { template: false }));
  });

  it('ignores a template that is not a database', async () => {
    const template = join(dir, 'broken-template.duckdb');
    writeFileSync(template, 'not a database at all');
    expect(await made(join(dir, 'from-broken.duckdb'), { template })).toEqual(await made(join(dir, 'made-3.duckdb'), { template: false }));
  });

  it('never replaces a file that exists', async () => {
    const template = await buildWarehouseTemplate(join(dir, 'template-2.duckdb'));
    const file = join(dir, 'kept.duckdb');
    await opened(file, { template: false }, (w) => w.run(`INSERT INTO schema_state VALUES ('kept', 'yes')`));
    const kept = await opened(file, { template }, (w) => w.one(`SELECT value FROM schema_state WHERE key = 'kept'`));
    expect(kept?.value).toBe('yes');
    expect(existsSync(`${file}.seed-${process.pid}.tmp`)).toBe(false);
  });
});
