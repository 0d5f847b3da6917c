// The directory a database is written in: made if missing, and checked writable, so a command
// that cannot write there fails at once with one line naming the directory and why.
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { TariffsError } from '../errors.js';

/** Makes `dir` (and its missing parents) and checks it can be written; else a DB_DIRECTORY
 *  error naming `shown` (the database), the directory and the reason. */
export function ensureWritableDirectory(dir: string, shown: string): void {
  let at = dir;
  try {
    const missing: string[] = [];
    while (!exists(at)) {
      missing.unshift(at);
      const parent = dirname(at);
      if (parent === at) break;
      at = parent;
    }
    if (!statSync(at).isDirectory()) throw Object.assign(new Error(`${at} is not a directory`), { code: 'ENOTDIR' });
    for (const level of missing) {
      mkdirSync(level);
      at = level;
    }
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new TariffsError('DB_DIRECTORY', `cannot write ${shown}: ${reason(error, dir, at)}`, { cause: error });
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Why the directory cannot be written, naming it (`at`: where the attempt stopped). */
function reason(error: unknown, dir: string, at: string): string {
  const code = (error as { code?: unknown }).code;
  const where = at === dir ? `the directory ${dir}` : `the directory ${dir} does not exist, and ${at}`;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return at === dir ? `${where} is not writable (permission denied)` : `${where} does not let it be made (permission denied)`;
    case 'EROFS':
      return `${where} is on a read-only file system`;
    case 'ENOTDIR':
      return at === dir ? `${dir} is not a directory` : `the directory ${dir} cannot be made: ${at} is not a directory`;
    case 'ENOENT':
      return `the directory ${dir} does not exist and cannot be made in ${at}`;
    default:
      return `${where}: ${(error as Error).message}`;
  }
}
