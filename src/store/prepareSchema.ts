// Brings a warehouse's schema up to date when it opens: the numbered migrations of
// sql/migrations/ applied in order and recorded, and the views and macros of sql/ (re)created when
// their definitions changed (a fingerprint of them is kept in schema_state).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Logger } from 'pino';
import { asTemporary, createDefinitions, type DefinitionFile } from './createDefinitions.js';
import { SchemaError } from './SchemaError.js';
import { readDefinitions } from './sqlDefinitions.js';
import type { Warehouse } from './Warehouse.js';

interface Migration {
  name: string;
  version: number;
  sql: string;
}

/** The migrations and definitions below `directory`, applied to `warehouse` (read-only: checked,
 *  and newer definitions used as TEMP objects for the session). */
export async function prepareSchema(warehouse: Warehouse, directory: string, logger: Logger): Promise<void> {
  const migrations = readMigrations(join(directory, 'migrations'));
  const definitions: DefinitionFile[] = readDefinitions(directory)
    .map(({ name, sql, path }) => ({ name, sql, path: relative(join(directory, '..'), path) }));
  const fingerprint = hashOf(definitions);
  const run = (sql: string) => warehouse.run(sql);
  if (warehouse.readOnly) {
    const state = await schemaState(warehouse);
    const latest = migrations.at(-1)?.version ?? 0;
    if (state.version < latest) {
      throw new SchemaError(
        `database ${warehouse.file} was written by an older tariffs; run \`tariffs migrate --db ${warehouse.file}\` once`,
      );
    }
    // Views and macros changed since the file was last written: this session uses the current
    // definitions as TEMP objects (which shadow the stored ones) instead of refusing to run.
    if (state.fingerprint !== fingerprint) await createDefinitions(run, definitions.map(asTemporary));
    return;
  }
  // The bookkeeping tables made if missing, then what they hold, in two statements: every ingest
  // opens the file before its first request.
  await warehouse.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL);
    CREATE TABLE IF NOT EXISTS schema_state (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`);
  const found = (await warehouse.one(`SELECT (SELECT coalesce(list(version), []) FROM schema_migrations) AS versions,
    (SELECT value FROM schema_state WHERE key = 'definitions') AS fingerprint`))!;
  const applied = new Set((found.versions as number[]).map(Number));
  const current = found.fingerprint === fingerprint;
  // The pending migrations and the definitions in one transaction: all of it or none (a new
  // file is ready in one commit rather than eight, each a WAL sync).
  const pending = migrations.filter((m) => !applied.has(m.version));
  if (pending.length === 0 && current) return;
  await warehouse.transaction(async () => {
    for (const migration of pending) {
      logger.info({ migration: migration.name }, 'applying migration');
      await warehouse.run(migration.sql);
      await warehouse.run('INSERT INTO schema_migrations VALUES ($1, $2, now())', [migration.version, migration.name]);
    }
    if (!current || pending.length > 0) {
      await createDefinitions(run, definitions);
      await warehouse.run(`INSERT OR REPLACE INTO schema_state VALUES ('definitions', $1)`, [fingerprint]);
    }
  });
  await warehouse.checkpoint();
}

/** The newest migration applied and the definitions' fingerprint, as a read-only session sees them. */
async function schemaState(warehouse: Warehouse): Promise<{ version: number; fingerprint: string | undefined }> {
  const tables = await warehouse.all(
    `SELECT table_name FROM information_schema.tables WHERE table_name IN ('schema_migrations', 'schema_state')`,
  );
  if (tables.length < 2) return { version: 0, fingerprint: undefined };
  const version = (await warehouse.one('SELECT coalesce(max(version), 0) AS v FROM schema_migrations'))!.v as number;
  const row = await warehouse.one(`SELECT value FROM schema_state WHERE key = 'definitions'`);
  return { version, fingerprint: row?.value as string | undefined };
}

/** sql/migrations/NNN_name.sql, by name. */
function readMigrations(directory: string): Migration[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory).filter((f) => f.endsWith('.sql')).sort().map((f) => {
    const m = /^(\d+)_/.exec(f);
    if (!m) throw new SchemaError(`migration ${f} must be named NNN_name.sql`);
    return { name: f.replace(/\.sql$/, ''), version: Number(m[1]), sql: readFileSync(join(directory, f), 'utf8') };
  });
}

/** The definitions' fingerprint: their names and SQL, not where they were read. */
function hashOf(files: readonly DefinitionFile[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f.name}\n${f.sql}\n`);
  return hash.digest('hex');
}
