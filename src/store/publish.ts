// Publishing the job's working file over `--db`: a copy beside it, fsync, an atomic rename, and a
// record of what was published (docs/decisions/publish-protocol.md).
import { constants, copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { ERROR_CODES } from '../errors.js';
import { fsyncPath } from './fsyncPath.js';
import type { JobPaths } from './jobPaths.js';
import { asStorageError, StorageError } from './StorageError.js';

interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

/** `published.json`: the file last published as `--db`, and the working file at that moment. */
interface PublishRecord {
  published: FileIdentity;
  work: { size: number; mtimeMs: number };
}

/** Whether `--db` is the file this job last published (nobody replaced or wrote it since). */
export function publishedIsCurrent(paths: JobPaths): boolean {
  const record = readRecord(paths.record);
  const current = statOrUndefined(paths.db);
  return record !== undefined && current !== undefined && sameFile(record.published, current);
}

/** Whether the working file (checkpointed) changed since it was published as the current `--db`. */
export function changedSincePublished(paths: JobPaths): boolean {
  const work = statSync(paths.work);
  const record = readRecord(paths.record);
  return !(record && publishedIsCurrent(paths) && record.work.size === work.size && record.work.mtimeMs === work.mtimeMs);
}

/** Copies the working file over `--db` and records it; returns the bytes published. A failure
 *  leaves `--db` as it was: a StorageError naming `shown`, keeping the working file. */
export function publishWorkingFile(paths: JobPaths, shown: string, logger: Logger): number {
  const work = statSync(paths.work);
  try {
    const published = copyOver(paths, shown, logger);
    writeRecord(paths, published);
  } catch (error) {
    const storage = asStorageError(shown, error);
    if (storage !== error) throw storage;
    throw new StorageError(ERROR_CODES.DB_IO, shown, `cannot publish ${shown}: ${(error as Error).message}. `
      + `What was committed is kept in ${paths.work}; the next run publishes it`, error);
  }
  return work.size;
}

/** Records that `--db` (as `published` shows it) and the working file hold the same. */
export function writeRecord(paths: JobPaths, published: Stats): void {
  const work = statSync(paths.work);
  const record: PublishRecord = { published: identityOf(published), work: { size: work.size, mtimeMs: work.mtimeMs } };
  const copy = `${paths.record}.${process.pid}.tmp`;
  writeFileSync(copy, `${JSON.stringify(record)}\n`);
  renameSync(copy, paths.record);
}

/** Whether a record of a publish exists (`--db` may have been removed since). */
export function hasPublished(paths: JobPaths): boolean {
  return readRecord(paths.record) !== undefined;
}

/** Copies a killed publish left beside `--db` (the caller holds the writers' lock). */
export function removeStalePublishCopies(paths: JobPaths): void {
  const prefix = `.${basename(paths.db)}.publish-`;
  for (const name of readdirSync(dirname(paths.db))) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) rmSync(join(dirname(paths.db), name), { force: true });
  }
}

function copyOver(paths: JobPaths, shown: string, logger: Logger): Stats {
  const copy = join(dirname(paths.db), `.${basename(paths.db)}.publish-${process.pid}.tmp`);
  try {
    copyFileSync(paths.work, copy, constants.COPYFILE_FICLONE);
    fsyncPath(copy);
    const identity = statSync(copy);
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

export function statOrUndefined(path: string): Stats | undefined {
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
