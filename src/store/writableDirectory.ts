// The directory a database or the reports are written in: made if missing, level by level, and
// checked writable, so a command that cannot write there fails at once with one line naming the
// directory and why. Level by level because Node's recursive mkdir never returns where a parent
// exists but refuses children with ENOENT (a pseudo file system such as /proc): it retries forever.
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ERROR_CODES, TariffsError } from '../errors.js';

/** Makes `dir` (and its missing parents) and checks it can be written; else a DB_DIRECTORY
 *  error naming `shown` (the database), the directory and the reason. */
export function ensureWritableDirectory(dir: string, shown: string): void {
  const problem = writableDirectoryProblem(dir);
  if (problem) throw new TariffsError(ERROR_CODES.DB_DIRECTORY, `cannot write ${shown}: ${problem.reason}`, { cause: problem.cause });
}

export interface DirectoryProblem {
  /** Why, naming the directory (and the parent where making it stopped). */
  reason: string;
  cause: unknown;
}

/** Makes `dir` and its missing parents, one mkdir each, and checks it is writable: undefined when
 *  it is, else why not. Every path is tried at most once, so this ends whatever the file system. */
export function writableDirectoryProblem(dir: string): DirectoryProblem | undefined {
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
    return undefined;
  } catch (error) {
    return { reason: reason(error, dir, at), cause: error };
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
      // the parent exists, yet mkdir says it does not: a file system that takes no new directories
      return `the directory ${dir} does not exist and cannot be made in ${at} (its file system takes no new directories)`;
    default:
      return `${where}: ${(error as Error).message}`;
  }
}
