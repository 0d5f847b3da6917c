// The DuckDB file: opening it (read-write or read-only; openInstance.ts retries while it is busy, a
// new file starts as the template's copy), its schema brought up to date (prepareSchema.ts), and
// the queries, prepared statements and transactions every caller runs on it.
import { existsSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { DuckDBConnection, DuckDBInstance, DuckDBResultReader } from '@duckdb/node-api';
import type { Logger } from 'pino';
import { DatabaseBusyError, ERROR_CODES, TariffsError } from '../errors.js';
import { silentLogger } from '../log/createLogger.js';
import { sqlDir, warehouseTemplatePath } from '../paths.js';
import { openInstance } from './openInstance.js';
import { PreparedQuery, referenced, type Params } from './PreparedQuery.js';
import { prepareSchema } from './prepareSchema.js';
import { removeStaleSpill } from './removeStaleSpill.js';
import { rowsToJs, type JsRow } from './rowsToJs.js';
import { seedFromTemplate } from './seedFromTemplate.js';
import { asStorageError } from './StorageError.js';
import { ensureWritableDirectory } from './writableDirectory.js';

// Their homes are the modules named for them; many callers import them from here.
export { dependencyOrder } from './createDefinitions.js';
export { openInstance } from './openInstance.js';
export { PreparedQuery, type Params } from './PreparedQuery.js';
export { SchemaError } from './SchemaError.js';

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
      throw new TariffsError(ERROR_CODES.NO_DATABASE, `no database at ${file} (run \`tariffs ingest --db ${file}\` first)`);
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
      await prepareSchema(warehouse, warehouse.sqlDirectory, logger);
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
}

/** A memory size such as '64MB' (a literal: settings cannot be bound parameters). */
function memoryLimitValue(value: string): string {
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i.test(value)) throw new TariffsError(ERROR_CODES.DB_OPEN, `invalid memory limit '${value}'`);
  return value;
}
