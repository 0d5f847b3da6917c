// Where a writing job keeps its files: a folder `.<name>.job` beside the analysts' file `--db`
// (docs/decisions/publish-protocol.md).
import { mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { ensureWritableDirectory } from './writableDirectory.js';

export interface JobPaths {
  /** The analysts' file, `--db`, absolute. */
  db: string;
  folder: string;
  /** The writers' lock (writersLock.ts). */
  lock: string;
  /** The working file the job writes and publishes over `db`. */
  work: string;
  /** What was last published (publish.ts). */
  record: string;
  /** Attempts that found the file busy (busyAttempts.ts). */
  busyLog: string;
  /** The writer holding the lock now: pid, what it is, since when (processMarker.ts). */
  writer: string;
  /** The scheduler daemon of this file, while it runs (processMarker.ts). */
  scheduler: string;
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
    writer: join(folder, 'writer.json'), scheduler: join(folder, 'scheduler.json'),
  };
}

/** Makes the job's folder; `--db`'s directory must be writable (the publish writes there too). */
export function makeJobFolder(paths: JobPaths, shown: string): void {
  ensureWritableDirectory(dirname(paths.db), shown);
  mkdirSync(paths.folder, { recursive: true });
}
