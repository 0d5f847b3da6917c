// The DuckDB file: opening it (read-write or read-only, with "busy" detected and retried briefly),
// applying numbered migrations and (re)creating the views and macros of sql/, running queries.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DuckDBConnection, DuckDBInstance, type DuckDBPreparedStatement, type DuckDBResultReader, type DuckDBValue } from '@duckdb/node-api';
import type { Logger } from 'pino';
import { DatabaseBusyError, TariffsError } from '../errors.js';
import { silentLogger } from '../log/createLogger.js';
import { sqlDir, warehouseTemplatePath } from '../paths.js';
import { readDefinitions } from './sqlDefinitions.js';
import { rowsToJs, type JsRow } from './rowsToJs.js';
import { duckdbErrorKind, lockHolder } from './duckdbErrors.js';
import { asStorageError } from './StorageError.js';
import { storageCompatibilityConfig } from './storageCompatibility.js';
import { ensureWritableDirectory } from './writableDirectory.js';

export type Params = DuckDBValue[] | Record<string, DuckDBValue>;

const IN_MEMORY = ':memory:';

export interface OpenOptions {
  readOnly?: boolean;
  logger?: Logger;
  /** Keep retrying for this long while another process holds the file; then DatabaseBusyError. */
  busyTimeoutMs?: number;
  /** Directory holding migrations/, public/ and internal/ (tests point elsewhere). */
  sqlDirectory?: string;
  /** DuckDB's memory_limit, e.g. '128MB': DuckDB otherwise caches what it writes, up to most of RAM. */
  memoryLimit?: string;
  /** DuckDB's worker threads for this session (default: one per core). */
  threads?: number;
  /** What a new file starts as a copy of: the build's template by default (paths.ts), or none. */
  template?: string | false;
  /** Checkpoints leave row groups as they are (DuckDB's max_vacuum_tasks = 0): see runIngest. */
  keepRowGroups?: boolean;
  /** The name errors give the file (a job's working file is named by the `--db` it publishes). */
  displayName?: string;
}

export class SchemaError extends TariffsError {
  override readonly name = 'SchemaError';
  constructor(message: string) {
    super('SCHEMA', message);
  }
}

interface SqlFile {
  name: string;
  version?: number;
  sql: string;
}

export class Warehouse {
  private constructor(
    /** The file as errors name it. */
    readonly file: string,
    /** Where it is. */
    readonly path: string,
    readonly instance: DuckDBInstance,
    readonly connection: DuckDBConnection,
    readonly readOnly: boolean,
    private readonly logger: Logger,
    /** Where the views' and macros' definitions were read. */
    private readonly sqlDirectory: string,
  ) {}

  static async open(file: string, options: OpenOptions = {}): Promise<Warehouse> {
    const logger = options.logger ?? silentLogger();
    const readOnly = options.readOnly ?? false;
    // DuckDB's name for a database in memory (for tools and tests), not a file of that name.
    if (file === IN_MEMORY) return Warehouse.openPath(file, IN_MEMORY, { ...options, readOnly: false }, logger, false);
    const path = resolve(file);
    if (readOnly && !existsSync(path)) {
      throw new TariffsError('NO_DATABASE', `no database at ${file} (run \`tariffs ingest --db ${file}\` first)`);
    }
    if (!readOnly) ensureWritableDirectory(dirname(path), file);
    const template = readOnly || options.sqlDirectory !== undefined ? false : options.template ?? warehouseTemplatePath();
    if (template !== false && seedFromTemplate(path, template)) {
      try {
        return await Warehouse.openPath(options.displayName ?? file, path, options, logger, true);
      } catch (error) {
        if (error instanceof DatabaseBusyError) throw error;
        // a template DuckDB cannot use: the file (only the copy) is made the usual way
        logger.debug({ template, err: (error as Error).message }, 'the warehouse template was not usable');
        rmSync(path, { force: true });
        rmSync(`${path}.wal`, { force: true });
      }
    }
    return Warehouse.openPath(options.displayName ?? file, path, options, logger, false);
  }

  private static async openPath(file: string, path: string, options: OpenOptions, logger: Logger, seeded: boolean): Promise<Warehouse> {
    const readOnly = options.readOnly ?? false;
    const instance = await openInstance(path, readOnly, options.busyTimeoutMs ?? 0, file);
    // DuckDB spills to <db>.tmp/ and removes it when it closes, but a killed process leaves it.
    // Holding the write lock, no other process has the file open: what is there is stale.
    if (!readOnly && path !== IN_MEMORY) removeStaleSpill(path, file, logger);
    const connection = await Warehouse.connectTo(instance);
    const warehouse = new Warehouse(file, path, instance, connection, readOnly, logger, options.sqlDirectory ?? sqlDir());
    try {
      await warehouse.prepareSchema(warehouse.sqlDirectory);
      if (seeded) await connection.run('UPDATE schema_migrations SET applied_at = now()'); // this file's, not the build's
      // Set after the schema work (building the calendar needs more), for the session's writes.
      if (options.memoryLimit) await connection.run(`SET memory_limit = '${memoryLimitValue(options.memoryLimit)}'`);
      if (options.threads !== undefined) await connection.run(`SET threads = ${Math.max(1, Math.floor(options.threads))}`);
      if (options.keepRowGroups) await connection.run('SET max_vacuum_tasks = 0');
    } catch (error) {
      warehouse.close();
      throw asStorageError(file, error);
    }
    return warehouse;
  }

  /** A connection whose session runs in UTC, whatever the machine's zone: our SQL works out
   *  instants as instants and London fields with london_local, never in the session's zone. */
  private static async connectTo(instance: DuckDBInstance): Promise<DuckDBConnection> {
    const connection = await instance.connect();
    try {
      await connection.run("SET TimeZone = 'UTC'");
    } catch (error) {
      connection.closeSync();
      throw error;
    }
    return connection;
  }

  async run(sql: string, params?: Params): Promise<void> {
    await this.guard(this.connection.run(sql, referenced(sql, params)));
  }

  async reader(sql: string, params?: Params): Promise<DuckDBResultReader> {
    return this.guard(this.connection.runAndReadAll(sql, referenced(sql, params)));
  }

  /** A damaged file or a full disk is reported naming the file and what to do. */
  private async guard<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      throw asStorageError(this.file, error);
    }
  }

  /** Rows as plain objects: instants as ISO `...Z` strings, numbers (counts too) as numbers. `T`
   *  names the columns the SQL selects (the SQL is the type's source of truth, as in any driver). */
  async all<T extends object = JsRow>(sql: string, params?: Params): Promise<T[]> {
    return rowsToJs(await this.reader(sql, params)) as T[];
  }

  async one(sql: string, params?: Params): Promise<JsRow | undefined> {
    return (await this.all(sql, params))[0];
  }

  /** `sql` prepared once, to be run with one set of parameters after another; close it when done.
   *  DuckDB may still bind and plan it again for each run's values (it does for a table macro
   *  whose arguments are parameters): what a loop saves is a statement per run, not the planning. */
  async prepare(sql: string): Promise<PreparedQuery> {
    return new PreparedQuery(sql, await this.guard(this.connection.prepare(sql)), (work) => this.guard(work));
  }

  /** Runs `fn` inside BEGIN … COMMIT; any error rolls everything back. */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.run('BEGIN TRANSACTION');
    try {
      const result = await fn();
      await this.run('COMMIT');
      return result;
    } catch (error) {
      await this.connection.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  async checkpoint(): Promise<void> {
    await this.run('CHECKPOINT');
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }

  private async prepareSchema(directory: string): Promise<void> {
    const migrations = readSqlFiles(join(directory, 'migrations'), true);
    const definitions = readDefinitions(directory).map(({ name, sql }) => ({ name, sql }));
    const fingerprint = hashOf(definitions);
    if (this.readOnly) {
      const state = await this.schemaState();
      const latest = migrations.at(-1)?.version ?? 0;
      if (state.version < latest) {
        throw new SchemaError(
          `database ${this.file} was written by an older tariffs; run \`tariffs migrate --db ${this.file}\` once`,
        );
      }
      // Views and macros changed since the file was last written: this session uses the current
      // definitions as TEMP objects (which shadow the stored ones) instead of refusing to run.
      if (state.fingerprint !== fingerprint) await createInDependencyOrder(this, definitions.map(asTemporary));
      return;
    }
    // The bookkeeping tables made if missing, then what they hold, in two statements: every ingest
    // opens the file before its first request.
    await this.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMPTZ NOT NULL);
      CREATE TABLE IF NOT EXISTS schema_state (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`);
    const found = (await this.one(`SELECT (SELECT coalesce(list(version), []) FROM schema_migrations) AS versions,
      (SELECT value FROM schema_state WHERE key = 'definitions') AS fingerprint`))!;
    const applied = new Set((found.versions as number[]).map(Number));
    const current = found.fingerprint === fingerprint;
    // The pending migrations and the definitions in one transaction: all of it or none (a new
    // file is ready in one commit rather than eight, each a WAL sync).
    const pending = migrations.filter((m) => !applied.has(m.version!));
    if (pending.length === 0 && current) return;
    await this.transaction(async () => {
      for (const migration of pending) {
        this.logger.info({ migration: migration.name }, 'applying migration');
        await this.run(migration.sql);
        await this.run('INSERT INTO schema_migrations VALUES ($1, $2, now())', [migration.version!, migration.name]);
      }
      if (!current || pending.length > 0) {
        await createInDependencyOrder(this, definitions);
        await this.run(`INSERT OR REPLACE INTO schema_state VALUES ('definitions', $1)`, [fingerprint]);
      }
    });
    await this.checkpoint();
  }

  private async schemaState(): Promise<{ version: number; fingerprint: string | undefined }> {
    const tables = await this.all(
      `SELECT table_name FROM information_schema.tables WHERE table_name IN ('schema_migrations', 'schema_state')`,
    );
    if (tables.length < 2) return { version: 0, fingerprint: undefined };
    const version = (await this.one('SELECT coalesce(max(version), 0) AS v FROM schema_migrations'))!.v as number;
    const row = await this.one(`SELECT value FROM schema_state WHERE key = 'definitions'`);
    return { version, fingerprint: row?.value as string | undefined };
  }
}

/** A file that does not exist yet (nor its WAL) becomes a copy of the build's template: the schema
 *  work of a new file (the calendar, the views and macros, a commit and a checkpoint) is done
 *  once, at build time; prepareSchema then finds it current, or brings an
 *  older template up to date. The copy is made beside the file and linked into place, which fails
 *  if the file appeared meanwhile: a file is never half-copied nor replaced. Anything amiss (no
 *  template, no hard links here): false, and the file is made the usual way. */
function seedFromTemplate(path: string, template: string): boolean {
  if (existsSync(path) || existsSync(`${path}.wal`) || !existsSync(template)) return false;
  const copy = `${path}.seed-${process.pid}.tmp`;
  try {
    copyFileSync(template, copy);
    linkSync(copy, path);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(copy, { force: true });
  }
}

function removeStaleSpill(path: string, shown: string, logger: Logger): void {
  const spill = `${path}.tmp`;
  try {
    if (!existsSync(spill) || !statSync(spill).isDirectory()) return;
    rmSync(spill, { recursive: true, force: true });
    logger.info({ db: shown, spill: `${shown}.tmp` }, 'removed the spill folder a killed process left behind');
  } catch (error) {
    logger.warn({ db: shown, err: (error as Error).message }, `could not remove the stale spill folder ${shown}.tmp`);
  }
}

/** A statement of Warehouse.prepare: its rows for each set of parameters. */
export class PreparedQuery {
  constructor(private readonly sql: string, private readonly statement: DuckDBPreparedStatement,
    private readonly guard: <T>(work: Promise<T>) => Promise<T>) {}

  async all<T extends object = JsRow>(params: Params): Promise<T[]> {
    this.statement.bind(referenced(this.sql, params) ?? []);
    return rowsToJs(await this.guard(this.statement.runAndReadAll())) as T[];
  }

  close(): void {
    this.statement.destroySync();
  }
}

/** Named parameters the statement uses: one parameter object can serve several statements. */
function referenced(sql: string, params: Params | undefined): Params | undefined {
  if (params === undefined || Array.isArray(params)) return params;
  const names = new Set(Array.from(sql.matchAll(/\$([A-Za-z_]\w*)/g), (m) => m[1]!));
  const used: Record<string, DuckDBValue> = {};
  for (const [key, value] of Object.entries(params)) if (names.has(key)) used[key] = value;
  return used;
}

/** A memory size such as '64MB' (a literal: settings cannot be bound parameters). */
function memoryLimitValue(value: string): string {
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i.test(value)) throw new TariffsError('DB_OPEN', `invalid memory limit '${value}'`);
  return value;
}

/** A DuckDB instance on `path`, retried every 200 ms while another process holds the file; after
 *  busyTimeoutMs, DatabaseBusyError naming `shown` (with `busyMessage` when given). */
export async function openInstance(
  path: string, readOnly: boolean, busyTimeoutMs: number, shown: string, busyMessage?: (holder: string) => string,
): Promise<DuckDBInstance> {
  const config: Record<string, string> = storageCompatibilityConfig(); // files older DuckDB releases can read
  if (readOnly) config.access_mode = 'READ_ONLY';
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      return await DuckDBInstance.create(path, config);
    } catch (error) {
      if (duckdbErrorKind(error) !== 'busy') {
        const storage = asStorageError(shown, error);
        if (storage !== error) throw storage;
        throw new TariffsError('DB_OPEN', `cannot open database ${shown}: ${(error as Error).message}`, { cause: error });
      }
      if (Date.now() >= deadline) {
        const holder = lockHolder(error);
        throw new DatabaseBusyError(shown, { cause: error, message: busyMessage?.(holder ? `process ${holder}` : 'another process') });
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

function readSqlFiles(directory: string, numbered = false): SqlFile[] {
  if (!existsSync(directory)) return [];
  const files = readdirSync(directory).filter((f) => f.endsWith('.sql')).sort();
  return files.map((f) => {
    const file: SqlFile = { name: f.replace(/\.sql$/, ''), sql: readFileSync(join(directory, f), 'utf8') };
    if (numbered) {
      const m = /^(\d+)_/.exec(f);
      if (!m) throw new SchemaError(`migration ${f} must be named NNN_name.sql`);
      file.version = Number(m[1]);
    }
    return file;
  });
}

/** Files after the files whose names their SQL mentions, comments aside (in their order otherwise). */
export function dependencyOrder(files: readonly SqlFile[]): SqlFile[] {
  const code = new Map(files.map((f) => [f, f.sql.replace(/--.*$/gm, '')]));
  const mentions = new Map(files.map((f) => [f, files.filter((g) => g !== f && new RegExp(`\\b${g.name}\\b`).test(code.get(f)!))]));
  const done = new Set<SqlFile>();
  const ordered: SqlFile[] = [];
  const visit = (file: SqlFile, path: Set<SqlFile>) => {
    if (done.has(file) || path.has(file)) return; // a cycle: the retries settle it
    path.add(file);
    for (const dependency of mentions.get(file)!) visit(dependency, path);
    path.delete(file);
    done.add(file);
    ordered.push(file);
  };
  for (const file of files) visit(file, new Set());
  return ordered;
}

function asTemporary(file: SqlFile): SqlFile {
  return { ...file, sql: file.sql.replace(/CREATE\s+OR\s+REPLACE\s+(VIEW|MACRO|FUNCTION)\b/gi, 'CREATE OR REPLACE TEMP $1') };
}

function hashOf(files: SqlFile[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f.name}\n${f.sql}\n`);
  return hash.digest('hex');
}

/** Views and macros may refer to each other: each is created after those it names (a failed
 *  CREATE costs as much as one that works), and what still fails is tried again until done. */
async function createInDependencyOrder(warehouse: Warehouse, files: SqlFile[]): Promise<void> {
  let pending = dependencyOrder(files);
  while (pending.length > 0) {
    const failed: { file: SqlFile; error: unknown }[] = [];
    for (const file of pending) {
      try {
        await warehouse.run(file.sql);
      } catch (error) {
        failed.push({ file, error });
      }
    }
    if (failed.length === pending.length) {
      const first = failed[0]!;
      throw new SchemaError(`cannot create ${first.file.name}: ${(first.error as Error).message}`);
    }
    pending = failed.map((f) => f.file);
  }
}
