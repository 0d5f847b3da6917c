// DuckDB's own words for a damaged file or a full disk do not always say which file, and never
// what to do: a corrupt block reads "Corrupt database file: computed checksum … in block at
// location …", a full disk ends in "FATAL Error … checkpoint". These become one error naming the
// database file and the way out, with a stable code; other errors pass through unchanged.
import { dirname, resolve } from 'node:path';
import { TariffsError } from '../errors.js';

export const STORAGE_CODES: ReadonlySet<string> = new Set(['DB_DISK_FULL', 'DB_CORRUPT', 'DB_INVALIDATED', 'DB_IO']);

export class StorageError extends TariffsError {
  override readonly name = 'StorageError';
  readonly file: string;
  constructor(code: string, file: string, message: string, cause: unknown) {
    super(code, message, { cause });
    this.file = file;
  }
}

/** `error` as a StorageError naming `file` when it is one DuckDB raised about the file or disk. */
export function asStorageError(file: string, error: unknown): unknown {
  if (error instanceof StorageError || !(error instanceof Error)) return error;
  const said = error.message.split('\n')[0]!.trim();
  const dir = dirname(resolve(file));
  if (/No space left on device|File too large|disk is full|ENOSPC|EFBIG/i.test(said)) {
    return new StorageError('DB_DISK_FULL', file,
      `database ${file}: the disk is full (or the file reached a size limit): ${said}. Free space on the disk holding ${dir} and re-run: what was committed is kept, the rest was rolled back`, error);
  }
  if (/Corrupt database file|checksum .* does not match|not a valid DuckDB database file|database file .* is corrupt/i.test(said)) {
    return new StorageError('DB_CORRUPT', file,
      `database ${file} is damaged (${said}). Restore it from a backup, or move it aside (mv ${file} ${file}.damaged) and re-run \`tariffs ingest\` to rebuild it from the API`, error);
  }
  if (/FATAL Error|database has been invalidated/i.test(said)) {
    return new StorageError('DB_INVALIDATED', file,
      `database ${file}: DuckDB stopped writing after a fatal error (${said}). Check free space and the disk holding ${dir}, then re-run: the next open replays what was committed`, error);
  }
  if (/^IO Error/i.test(said)) {
    return new StorageError('DB_IO', file, `database ${file}: ${said}. Check the disk and the permissions of ${dir}`, error);
  }
  return error;
}
