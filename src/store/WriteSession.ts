// How every command that writes shares the warehouse with the analysts who read it: the job
// writes a working file of its own and publishes it over `--db` (docs/decisions/publish-protocol.md).
import { statSync } from 'node:fs';
import type { DuckDBInstance } from '@duckdb/node-api';
import type { Logger } from 'pino';
import { DatabaseBusyError } from '../errors.js';
import { silentLogger } from '../log/createLogger.js';
import { adoptIfChanged, openWorkingFile, removeStaleAdoptCopies } from './adopt.js';
import { drainBusyAttempts, noteBusyAttempt } from './busyAttempts.js';
import { assertFileDb, jobPaths, makeJobFolder, type JobPaths } from './jobPaths.js';
import { changedSincePublished, publishWorkingFile, removeStalePublishCopies } from './publish.js';
import { removeOwnMarker, writeMarker } from './processMarker.js';
import { Warehouse, type OpenOptions } from './Warehouse.js';
import { releaseWritersLock, removeStaleLockCopies, takeWritersLock } from './writersLock.js';

export { assertFileDb, jobPaths, type JobPaths } from './jobPaths.js';
export { holdWriteLock } from './writersLock.js';

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
    makeJobFolder(paths, db);
    const busyTimeoutMs = options.busyTimeoutMs ?? 0;
    let lock: DuckDBInstance;
    try {
      lock = await takeWritersLock(paths, db, busyTimeoutMs);
    } catch (error) {
      if (error instanceof DatabaseBusyError) noteBusyAttempt(paths.busyLog, { job: options.purpose ?? 'write', waitedMs: busyTimeoutMs, error: error.message });
      throw error;
    }
    try {
      // `tariffs status` shows who writes (the lock itself cannot be asked without taking it)
      writeMarker(paths.writer, { pid: process.pid, started_at: new Date().toISOString(), purpose: options.purpose ?? 'write' });
      removeStalePublishCopies(paths);
      removeStaleAdoptCopies(paths);
      removeStaleLockCopies(paths);
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
      removeOwnMarker(paths.writer);
      releaseWritersLock(paths, lock);
      throw error;
    }
  }

  /** CHECKPOINT, then, if the working file changed since it was last published, publish it. */
  async publish(): Promise<PublishResult> {
    if (this.closed) throw new Error('publish after close');
    await this.warehouse.checkpoint();
    if (!changedSincePublished(this.paths)) return { published: false, bytes: statSync(this.paths.work).size, seconds: 0 };
    const started = performance.now();
    const bytes = publishWorkingFile(this.paths, this.shown, this.logger);
    const seconds = (performance.now() - started) / 1000;
    this.logger.debug({ db: this.shown, bytes, seconds: Math.round(seconds * 1000) / 1000 }, 'published');
    return { published: true, bytes, seconds };
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
    removeOwnMarker(this.paths.writer);
    releaseWritersLock(this.paths, this.lock);
  }
}
