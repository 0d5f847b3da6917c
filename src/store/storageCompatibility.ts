// Which DuckDB releases can open the warehouse file: from 1.1 on, for analysts' older clients
// (why these settings, and what they do not cover: docs/decisions/storage-compatibility.md).

/** The oldest DuckDB release that must read the files tariffs makes ('v0.10.2': 1.1 and all later ones too). */
export const STORAGE_COMPATIBILITY_VERSION = 'v0.10.2';

/** DuckDB instance options (DuckDBInstance.create's config) for files DuckDB 1.1 can read: every
 *  instance tariffs creates gets them (openInstance; test/old-clients.test.ts checks it). */
export function storageCompatibilityConfig(): Record<string, string> {
  return {
    storage_compatibility_version: STORAGE_COMPATIBILITY_VERSION,
    // DuckDB 1.5 checkpoints keep an unchanged table's metadata where it was (on by default since
    // 1.5; 1.4 had it off), leaving a link to metadata freed meanwhile that 1.1-1.3 follow and fail
    // on: "Failed to load metadata pointer". Off, every checkpoint writes it afresh, as 1.4 did.
    experimental_metadata_reuse: 'false',
  };
}
