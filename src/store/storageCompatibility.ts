// Which DuckDB releases can open the warehouse file: from 1.1 on, for analysts' older clients
// (why this value, and what it does not cover: docs/decisions/storage-compatibility.md).

/** The oldest DuckDB release that must read the files tariffs makes ('v0.10.2': 1.1 and all later ones too). */
export const STORAGE_COMPATIBILITY_VERSION = 'v0.10.2';

/** DuckDB instance options (DuckDBInstance.create's config) for files DuckDB 1.1 can read. */
export function storageCompatibilityConfig(): Record<string, string> {
  return { storage_compatibility_version: STORAGE_COMPATIBILITY_VERSION };
}
