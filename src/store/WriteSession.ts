// How every command that writes shares the warehouse with the analysts who read it.
//
// DuckDB lets one process open a file read-write, and a read-write process excludes read-only
// ones (and the reverse). So the job never opens the analysts' file (`--db`) at all: it writes a
// working file of its own, `.<name>.job/warehouse.duckdb` beside it, and after a run that changed
// anything it publishes: CHECKPOINT (the working file then holds everything, its WAL is empty),
// copy it beside `--db` (a reflink where the file system has one: COPYFILE_FICLONE), fsync, and
// rename the copy over `--db` (atomic in one directory), fsync the directory. A reader that has
// the old file open keeps reading that old, consistent snapshot until it reconnects; a reader
// that opens `--db` afterwards sees the new one; nobody ever finds `--db` locked by the job.
//
// Writers exclude each other with `.<name>.job/lock`, a DuckDB file held open read-write for the
// session (the kernel drops the lock when a process dies, unlike a lock file's existence), so the
// working file can also be replaced while it is not open. A writer that finds it held waits up to
// busyTimeoutMs, then DatabaseBusyError (exit 75); the attempt is noted in `busy.jsonl` there
// (busyAttempts.ts) for `tariffs status`, and moved into ingest_runs by the next writer.
//
// `published.json` there records the identity (device, inode, size, mtime) of the file last
// published and the working file's size and mtime at that moment. A writer that finds `--db`
// different (a restored backup, an older tariffs that wrote it directly, a test that built it by
// hand) first adopts it as its working file, so `--db` stays the source of truth; a working file
// unchanged since the last publish is not published again.
//
// Measured on this project's 2-core VM (ext4, no reflink): publishing costs one copy of the
// file plus two fsyncs; `npm run bench` reports it as seconds per GB.
import {
  constants, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, type Stats,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import type { Logger } from 'pino';
import { DatabaseBusyError, UsageError } from '../errors.js';
import { silentLogger } from '../log/createLogger.js';
import { asStorageError, StorageError } from './StorageError.js';
import { fsyncPath } from './fsyncPath.js';
import { drainBusyAttempts, noteBusyAttempt } from './busyAttempts.js';
import { openInstance, Warehouse, type OpenOptions } from './Warehouse.js';

export interface JobPaths {
  /** The analysts' file, `--db`, absolute. */
  db: string;
  folder: string;
  lock: string;
  work: string;
  record: string;
  busyLog: string;
}

/** A command that writes needs a file: DuckDB's `:memory:` would hold nothing after the command
 *  ends, and a path of that name would leave a file called ':memory:' in the working directory. */
export function assertFileDb(db: string): void {
  if (db === ':memory:') throw new UsageError('--db :memory: holds nothing after the command ends: give a file for a command that writes');
}

export function jobPaths(db: string): JobPaths {
  const path = resolve(db);
  const folder = join(dirname(path), `.${basename(path)}.job`);
  return {
    db: path, folder, lock: join(folder, 'lock'), work: join(folder, 'warehouse.duckdb'),
    record: join(folder, 'published.json'), busyLog: join(folder, 'busy.jsonl'),
  };
}

export interface WriteOptions extends OpenOptions {
  /** What is writing (a job's name, `consumption import`…): busy attempts are noted under it. */
  purpose?: string;
}

export interface PublishResult {
  /** False when the working file had not changed since the last publish. */
  published: boolean;
  bytes: number;
  /** The copy, its fsync and the rename. */
  seconds: number;
}

interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

interface PublishRecord {
  published: FileIdentity;
  work: { size: number; mtimeMs: number };
}

/** Writers of one file in this process (DuckDB's lock is per process: it cannot tell them apart). */
const heldHere = new Set<string>();

export class WriteSession {
  private closed = false;

  private constructor(
    private current: Warehouse,
    readonly paths: JobPaths,
    private readonly shown: string,
    private readonly lock: DuckDBInstance,
    private readonly logger: Logger,
    private readonly options: WriteOptions,
  ) {}

  /** The working file, open for writing. */
  get warehouse(): Warehouse {
    return this.current;
  }

  /** Closes and opens the working file again, keeping the lock (after it was replaced, e.g. by
   *  a vacuum: the schema work of an open runs again). */
  async reopen(): Promise<Warehouse> {
    this.current.close();
    this.current = await Warehouse.open(this.paths.work, { ...this.options, busyTimeoutMs: 0, displayName: this.shown });
    return this.current;
  }

  /** Takes the writers' lock (waiting up to busyTimeoutMs), adopts `--db` if it changed behind the
   *  job's back, opens the working file and publishes it if it holds what `--db` does not: what a
   *  killed writer committed, or everything when there is no `--db` yet (then it is published
   *  empty, with its schema, so readers find a warehouse from the first moment). */
  static async open(db: string, options: WriteOptions = {}): Promise<WriteSession> {
    const logger = options.logger ?? silentLogger();
    assertFileDb(db);
    const paths = jobPaths(db);
    mkdirSync(paths.folder, { recursive: true });
    const busyTimeoutMs = options.busyTimeoutMs ?? 0;
    let lock: DuckDBInstance;
    try {
      lock = await takeLock(paths, db, busyTimeoutMs);
    } catch (error) {
      if (error instanceof DatabaseBusyError) noteBusyAttempt(paths.busyLog, { job: options.purpose ?? 'write', waitedMs: busyTimeoutMs, error: error.message });
      throw error;
    }
    try {
      removeStaleCopies(paths);
      await adoptIfChanged(paths, db, busyTimeoutMs, logger);
      const warehouse = await openWorkingFile(paths, db, options, logger);
      const session = new WriteSession(warehouse, paths, db, lock, logger, options);
      try {
        await drainBusyAttempts(warehouse, paths.busyLog);
        await session.publish(); // nothing to copy when the last writer finished (the usual case)
      } catch (error) {
        session.close();
        throw error;
      }
      return session;
    } catch (error) {
      releaseLock(paths, lock);
      throw error;
    }
  }

  /** CHECKPOINT, then, if the working file changed since it was last published, publish it. */
  async publish(): Promise<PublishResult> {
    if (this.closed) throw new Error('publish after close');
    await this.warehouse.checkpoint();
    const work = statSync(this.paths.work);
    const record = readRecord(this.paths.record);
    const current = statOrUndefined(this.paths.db);
    if (record && current && sameFile(record.published, current)
      && record.work.size === work.size && record.work.mtimeMs === work.mtimeMs) {
      return { published: false, bytes: work.size, seconds: 0 };
    }
    const started = performance.now();
    try {
      const published = publishCopy(this.paths, this.shown, this.logger);
      writeRecord(this.paths.record, { published, work: { size: work.size, mtimeMs: work.mtimeMs } });
    } catch (error) {
      const storage = asStorageError(this.shown, error);
      if (storage !== error) throw storage;
      throw new StorageError('DB_IO', this.shown, `cannot publish ${this.shown}: ${(error as Error).message}. `
        + `What was committed is kept in ${this.paths.work}; the next run publishes it`, error);
    }
    const seconds = (performance.now() - started) / 1000;
    this.logger.debug({ db: this.shown, bytes: work.size, seconds: Math.round(seconds * 1000) / 1000 }, 'published');
    return { published: true, bytes: work.size, seconds };
  }

  /** Publishes what changed, then closes the working file and releases the writers' lock. */
  async finish(): Promise<PublishResult> {
    try {
      return await this.publish();
    } finally {
      this.close();
    }
  }

  /** Closes without publishing (what was committed is published by the next writer). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.current.close();
    } catch {
      // a database DuckDB has invalidated may refuse to close cleanly; the lock goes anyway
    }
    releaseLock(this.paths, this.lock);
  }
}

/** Holds the writers' lock of `db` (tests and tools that must keep jobs out): call the result to let go. */
export async function holdWriteLock(db: string, busyTimeoutMs = 0): Promise<() => void> {
  const paths = jobPaths(db);
  mkdirSync(paths.folder, { recursive: true });
  const lock = await takeLock(paths, db, busyTimeoutMs);
  return () => releaseLock(paths, lock);
}

async function takeLock(paths: JobPaths, shown: string, busyTimeoutMs: number): Promise<DuckDBInstance> {
  const busyMessage = (holder: string) => `${shown} is being written by ${holder} (another tariffs job); waited ${busyTimeoutMs / 1000} s`;
  const deadline = Date.now() + busyTimeoutMs;
  while (heldHere.has(paths.lock)) {
    if (Date.now() >= deadline) throw new DatabaseBusyError(shown, { message: busyMessage('this process') });
    await new Promise((r) => setTimeout(r, 50));
  }
  heldHere.add(paths.lock);
  const open = () => openInstance(paths.lock, false, Math.max(0, deadline - Date.now()), shown, busyMessage);
  try {
    try {
      return await open();
    } catch (error) {
      if (!notADuckDBFile(error)) throw error;
      await repairLockFile(paths.lock);
      return await open();
    }
  } catch (error) {
    heldHere.delete(paths.lock);
    throw error;
  }
}

/** What DuckDB says of a file cut short or not its own (it locks a file before it reads it, so
 *  nobody held the file when it said so). */
function notADuckDBFile(error: unknown): boolean {
  const said = `${(error as Error).message ?? ''} ${((error as Error).cause as Error | undefined)?.message ?? ''}`;
  return /not a valid DuckDB database file|Could not read enough bytes|Corrupt database file/i.test(said);
}

/** The lock is a DuckDB file only for its lock: one cut short (a process killed, or a full disk,
 *  while DuckDB created it) would refuse every writer from then on. Its contents are replaced in
 *  place by an empty database's: the same inode, so a process that opened the path meanwhile locks
 *  the same file as this one (removing it could give two writers two lock files). */
async function repairLockFile(lock: string): Promise<void> {
  const fresh = `${lock}.${process.pid}.tmp`;
  rmSync(fresh, { force: true });
  try {
    (await openInstance(fresh, false, 0, fresh)).closeSync();
    copyFileSync(fresh, lock);
  } finally {
    rmSync(fresh, { force: true });
    rmSync(`${fresh}.wal`, { force: true });
  }
}

function releaseLock(paths: JobPaths, lock: DuckDBInstance): void {
  try {
    lock.closeSync();
  } finally {
    heldHere.delete(paths.lock);
  }
}

/** Copies a killed writer left in the folder or beside `--db`. Holding the lock, none is in use. */
function removeStaleCopies(paths: JobPaths): void {
  const prefix = `.${basename(paths.db)}.publish-`;
  for (const name of readdirSync(dirname(paths.db))) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) rmSync(join(dirname(paths.db), name), { force: true });
  }
  for (const name of readdirSync(paths.folder)) {
    if (name.startsWith('adopt-') || (name.startsWith('lock.') && name.endsWith('.tmp'))) rmSync(join(paths.folder, name), { force: true });
  }
}

/** `--db` is not what this job last published: it is adopted as the working file. No `--db` after
 *  one was published (the user removed it): the job starts afresh rather than bring the old
 *  contents back. */
async function adoptIfChanged(paths: JobPaths, shown: string, busyTimeoutMs: number, logger: Logger): Promise<void> {
  const record = readRecord(paths.record);
  const current = statOrUndefined(paths.db);
  if (!current) {
    if (record) {
      logger.info({ db: shown }, 'the warehouse was removed since the last run: starting a new one');
      for (const f of [paths.work, `${paths.work}.wal`, paths.record]) rmSync(f, { force: true });
    }
    return;
  }
  if (record && sameFile(record.published, current) && existsSync(paths.work) && !existsSync(`${paths.db}.wal`)) return;
  await adopt(paths, shown, busyTimeoutMs, logger);
}

/** `--db` becomes the working file (with its WAL, if a writer of another kind left one). A
 *  reader's lock on it is taken meanwhile, so no other program writes it during the copy. */
async function adopt(paths: JobPaths, shown: string, busyTimeoutMs: number, logger: Logger): Promise<void> {
  const wal = `${paths.db}.wal`;
  let reader: DuckDBInstance | undefined;
  try {
    reader = await openInstance(paths.db, true, busyTimeoutMs, shown,
      (holder) => `${shown} is open for writing in ${holder}: analysts' sessions must be read-only; waited ${busyTimeoutMs / 1000} s`);
  } catch (error) {
    if (error instanceof DatabaseBusyError) throw error;
    // e.g. a WAL a read-only open will not replay: the copy below carries it to the working file
  }
  try {
    const copy = join(paths.folder, `adopt-${process.pid}.tmp`);
    copyFileSync(paths.db, copy, constants.COPYFILE_FICLONE);
    if (existsSync(wal)) copyFileSync(wal, `${copy}.wal`);
    rmSync(`${paths.work}.wal`, { force: true });
    if (existsSync(`${copy}.wal`)) renameSync(`${copy}.wal`, `${paths.work}.wal`);
    renameSync(copy, paths.work);
    const work = statSync(paths.work);
    writeRecord(paths.record, { published: identityOf(statSync(paths.db)), work: { size: work.size, mtimeMs: work.mtimeMs } });
    logger.info({ db: shown, bytes: work.size }, `adopted ${shown} as the job's working file`);
  } finally {
    reader?.closeSync();
  }
}

/**
 * Opens the working file. One that DuckDB cannot open is set aside and `--db` adopted in its place:
 * a writer killed at the wrong moment can leave a WAL that DuckDB then fails to replay (DuckDB
 * issues #22124, #25395: UPDATE and upserts in the WAL, as our writes have), and every later run
 * would fail on it, with an error telling the user to move `--db` aside although `--db` is sound.
 * `--db` is always a checkpointed copy, so what is lost is only what the killed writer committed
 * after its last publish (an ingest fetches those rates again). The file set aside (the latest
 * only) is kept in the job's folder for a bug report. A busy file, a full disk, a refused
 * permission or too little memory are not the working file's fault: they are reported as they are.
 */
async function openWorkingFile(paths: JobPaths, shown: string, options: WriteOptions, logger: Logger): Promise<Warehouse> {
  const open = () => Warehouse.open(paths.work, { ...options, busyTimeoutMs: 0, displayName: shown });
  try {
    return await open();
  } catch (error) {
    if (!existsSync(paths.db) || !existsSync(paths.work) || !unreadableWorkingFile(error)) throw error;
    const aside = join(paths.folder, 'unreadable');
    rmSync(aside, { recursive: true, force: true });
    mkdirSync(aside);
    for (const f of [paths.work, `${paths.work}.wal`]) {
      if (existsSync(f)) renameSync(f, join(aside, basename(f)));
    }
    logger.warn({ db: shown, kept: aside, err: (error as Error).message.split('\n')[0] },
      `the job's working file could not be opened (moved to ${aside}); starting again from ${shown} as last published: `
      + 'what a killed run committed after that is gone (an ingest fetches its rates again)');
    await adopt(paths, shown, 0, logger);
    return open();
  }
}

function unreadableWorkingFile(error: unknown): boolean {
  if (error instanceof DatabaseBusyError) return false;
  const code = (error as { code?: unknown }).code;
  if (code === 'DB_DISK_FULL') return false;
  return !/permission denied|EACCES|EPERM|read-only file system|Out of Memory|memory limit/i.test((error as Error).message ?? '');
}

function publishCopy(paths: JobPaths, shown: string, logger: Logger): FileIdentity {
  const copy = join(dirname(paths.db), `.${basename(paths.db)}.publish-${process.pid}.tmp`);
  try {
    copyFileSync(paths.work, copy, constants.COPYFILE_FICLONE);
    fsyncPath(copy);
    const identity = identityOf(statSync(copy));
    const wal = `${paths.db}.wal`;
    if (existsSync(wal)) {
      // Only a program writing `--db` itself leaves this; it would be replayed onto the new file.
      logger.warn({ db: shown, wal }, `removed ${wal}: another program wrote ${shown} during the run (its changes are replaced; open it read-only)`);
      rmSync(wal, { force: true });
    }
    renameSync(copy, paths.db);
    fsyncPath(dirname(paths.db), 'r');
    return identity;
  } catch (error) {
    rmSync(copy, { force: true });
    throw error;
  }
}

function identityOf(stats: Stats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
}

function sameFile(a: FileIdentity, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function readRecord(path: string): PublishRecord | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as PublishRecord;
  } catch {
    return undefined;
  }
}

function writeRecord(path: string, record: PublishRecord): void {
  const copy = `${path}.${process.pid}.tmp`;
  writeFileSync(copy, `${JSON.stringify(record)}\n`);
  renameSync(copy, path);
}
