// Opening a DuckDB file: read-write or read-only, with "busy" (another process holds the file)
// detected and retried briefly.
import { DuckDBInstance } from '@duckdb/node-api';
import { DatabaseBusyError, ERROR_CODES, TariffsError } from '../errors.js';
import { duckdbErrorKind, lockHolder } from './duckdbErrors.js';
import { asStorageError } from './StorageError.js';
import { storageCompatibilityConfig } from './storageCompatibility.js';

/** A DuckDB instance on `path`, retried every 200 ms while another process holds the file; after
 *  busyTimeoutMs, DatabaseBusyError naming `shown` (with `busyMessage` when given). */
export async function openInstance(
  path: string, readOnly: boolean, busyTimeoutMs: number, shown: string, busyMessage?: (holder: string) => string,
): Promise<DuckDBInstance> {
  const config: Record<string, string> = storageCompatibilityConfig(); // files older DuckDB releases can read
  if (readOnly) config.access_mode = 'READ_ONLY';
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      return await DuckDBInstance.create(path, config);
    } catch (error) {
      if (duckdbErrorKind(error) !== 'busy') {
        const storage = asStorageError(shown, error);
        if (storage !== error) throw storage;
        throw new TariffsError(ERROR_CODES.DB_OPEN, `cannot open database ${shown}: ${(error as Error).message}`, { cause: error });
      }
      if (Date.now() >= deadline) {
        const holder = lockHolder(error);
        throw new DatabaseBusyError(shown, { cause: error, message: busyMessage?.(holder ? `process ${holder}` : 'another process') });
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
