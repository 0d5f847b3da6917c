// A damaged file or a full disk as one error naming the database file and the way out, with a
// stable code (DuckDB's own words seldom say which file, and never what to do).
import { dirname, resolve } from 'node:path';
import { ERROR_CODES, TariffsError } from '../errors.js';
import { duckdbErrorKind, duckdbSaid, isDuckDBIoError } from './duckdbErrors.js';

export const STORAGE_CODES: ReadonlySet<string> = new Set([ERROR_CODES.DB_DISK_FULL, ERROR_CODES.DB_CORRUPT, ERROR_CODES.DB_INVALIDATED, ERROR_CODES.DB_IO]);

export class StorageError extends TariffsError {
  override readonly name = 'StorageError';
  readonly file: string;
  constructor(code: string, file: string, message: string, cause: unknown) {
    super(code, message, { cause });
    this.file = file;
  }
}

/** `error` as a StorageError naming `file` when it is one DuckDB raised about the file or disk;
 *  other errors are returned unchanged. */
export function asStorageError(file: string, error: unknown): unknown {
  if (error instanceof StorageError || !(error instanceof Error)) return error;
  const said = duckdbSaid(error);
  const dir = dirname(resolve(file));
  switch (duckdbErrorKind(error)) {
    case 'disk-full':
      return new StorageError(ERROR_CODES.DB_DISK_FULL, file,
        `database ${file}: the disk is full (or the file reached a size limit): ${said}. Free space on the disk holding ${dir} and re-run: what was committed is kept, the rest was rolled back`, error);
    case 'corrupt':
      return new StorageError(ERROR_CODES.DB_CORRUPT, file,
        `database ${file} is damaged (${said}). Restore it from a backup, or move it aside (mv ${file} ${file}.damaged) and re-run \`tariffs ingest\` to rebuild it from the API`, error);
    case 'invalidated':
      return new StorageError(ERROR_CODES.DB_INVALIDATED, file,
        `database ${file}: DuckDB stopped writing after a fatal error (${said}). Check free space and the disk holding ${dir}, then re-run: the next open replays what was committed`, error);
    default:
      if (!isDuckDBIoError(error)) return error;
      return new StorageError(ERROR_CODES.DB_IO, file, `database ${file}: ${said}. Check the disk and the permissions of ${dir}`, error);
  }
}
