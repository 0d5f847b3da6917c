// Adopting `--db` as the job's working file when it changed behind the job's back (a restored
// backup, an older tariffs that wrote it directly), or when the working file cannot be opened.
import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import type { Logger } from 'pino';
import { DatabaseBusyError, ERROR_CODES } from '../errors.js';
import { duckdbErrorKind } from './duckdbErrors.js';
import type { JobPaths } from './jobPaths.js';
import { hasPublished, publishedIsCurrent, statOrUndefined, writeRecord } from './publish.js';
import { openInstance, Warehouse, type OpenOptions } from './Warehouse.js';

/** `--db` is not what this job last published: it is adopted as the working file. No `--db` after
 *  one was published (the user removed it): the job starts afresh rather than bring the old
 *  contents back. The caller holds the writers' lock. */
export async function adoptIfChanged(paths: JobPaths, shown: string, busyTimeoutMs: number, logger: Logger): Promise<void> {
  if (!statOrUndefined(paths.db)) {
    if (hasPublished(paths)) {
      logger.info({ db: shown }, 'the warehouse was removed since the last run: starting a new one');
      for (const f of [paths.work, `${paths.work}.wal`, paths.record]) rmSync(f, { force: true });
    }
    return;
  }
  if (publishedIsCurrent(paths) && existsSync(paths.work) && !existsSync(`${paths.db}.wal`)) return;
  await adopt(paths, shown, busyTimeoutMs, logger);
}

/**
 * Opens the working file. One that DuckDB cannot open is set aside and `--db` adopted in its place:
 * a writer killed at the wrong moment can leave a WAL that DuckDB then fails to replay (DuckDB
 * issues #22124, #25395), and every later run would fail on it. `--db` is always a checkpointed
 * copy, so what is lost is only what the killed writer committed after its last publish. The file
 * set aside (the latest only) is kept in the job's folder for a bug report. A busy file, a full
 * disk, a refused permission or too little memory are not the working file's fault: they are
 * reported as they are.
 */
export async function openWorkingFile(paths: JobPaths, shown: string, options: OpenOptions, logger: Logger): Promise<Warehouse> {
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

/** Copies a killed adoption left in the job's folder (the caller holds the writers' lock). */
export function removeStaleAdoptCopies(paths: JobPaths): void {
  for (const name of readdirSync(paths.folder)) {
    if (name.startsWith('adopt-')) rmSync(join(paths.folder, name), { force: true });
  }
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
    writeRecord(paths, statSync(paths.db));
    logger.info({ db: shown, bytes: statSync(paths.work).size }, `adopted ${shown} as the job's working file`);
  } finally {
    reader?.closeSync();
  }
}

function unreadableWorkingFile(error: unknown): boolean {
  if (error instanceof DatabaseBusyError || (error as { code?: unknown }).code === ERROR_CODES.DB_DISK_FULL) return false;
  const kind = duckdbErrorKind(error);
  return kind !== 'refused' && kind !== 'out-of-memory' && kind !== 'disk-full';
}
