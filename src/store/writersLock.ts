// The writers' lock: one tariffs job writes a warehouse at a time. The lock is a DuckDB file,
// `.<name>.job/lock`, held open read-write (the kernel drops it when a process dies).
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { DatabaseBusyError } from '../errors.js';
import { duckdbErrorKind } from './duckdbErrors.js';
import { jobPaths, makeJobFolder, type JobPaths } from './jobPaths.js';
import { openInstance } from './Warehouse.js';

/** Writers of one file in this process (DuckDB's lock is per process: it cannot tell them apart). */
const heldHere = new Set<string>();

/** Takes the lock, waiting up to busyTimeoutMs; then DatabaseBusyError naming `shown`. */
export async function takeWritersLock(paths: JobPaths, shown: string, busyTimeoutMs: number): Promise<DuckDBInstance> {
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
      // DuckDB locks a file before it reads it: nobody held a file it calls damaged
      if (duckdbErrorKind(error) !== 'corrupt') throw error;
      await repairLockFile(paths.lock);
      return await open();
    }
  } catch (error) {
    heldHere.delete(paths.lock);
    throw error;
  }
}

export function releaseWritersLock(paths: JobPaths, lock: DuckDBInstance): void {
  try {
    lock.closeSync();
  } finally {
    heldHere.delete(paths.lock);
  }
}

/** Holds the writers' lock of `db` (tests and tools that must keep jobs out): call the result to let go. */
export async function holdWriteLock(db: string, busyTimeoutMs = 0): Promise<() => void> {
  const paths = jobPaths(db);
  makeJobFolder(paths, db);
  const lock = await takeWritersLock(paths, db, busyTimeoutMs);
  return () => releaseWritersLock(paths, lock);
}

/** Copies a repair left behind by a killed process (the caller holds the lock). */
export function removeStaleLockCopies(paths: JobPaths): void {
  for (const name of readdirSync(paths.folder)) {
    if (name.startsWith('lock.') && name.endsWith('.tmp')) rmSync(join(paths.folder, name), { force: true });
  }
}

/** A lock file cut short (a process killed, or a full disk, while DuckDB created it) would refuse
 *  every writer from then on. Its contents are replaced in place by an empty database's: the same
 *  inode, so a process that opened the path meanwhile locks the same file as this one (removing
 *  it could give two writers two lock files). */
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
