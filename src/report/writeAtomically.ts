// Writes a file so that a reader never sees half of it: the content goes to a hidden temporary
// file in the same directory (same file system, so rename is atomic), is flushed to disk, and only
// then replaces the target. On any failure the temporary file is removed and the target is untouched.
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { fsyncPath } from '../store/fsyncPath.js';

/** The temporary sibling of `target`: `.name.tmp-PID-RANDOM.ext` (keeps the extension, which DuckDB reads). */
export function temporaryPathFor(target: string): string {
  const ext = extname(target);
  const stem = basename(target, ext);
  return join(dirname(target), `.${stem}.tmp-${process.pid}-${randomBytes(4).toString('hex')}${ext}`);
}

/** Marks the temporary files of this module, so a directory can be checked for leftovers. */
export const TEMPORARY_FILE = /^\..+\.tmp-\d+-[0-9a-f]{8}(\.[^.]+)?$/;

/**
 * Runs `write(tmpPath)` (which must create the file at tmpPath), fsyncs the result and renames it
 * over `target`. Returns what `write` returned.
 */
export async function writeAtomically<T>(target: string, write: (tmpPath: string) => Promise<T>): Promise<T> {
  const tmp = temporaryPathFor(target);
  try {
    const result = await write(tmp);
    fsyncPath(tmp);
    renameSync(tmp, target);
    return result;
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}
