// Which DuckDB releases can open the warehouse file. Analysts open it with other clients (Python
// wheels, JDBC, DBeaver) that often lag behind the @duckdb/node-api tariffs uses; the file is
// promised to them from DuckDB 1.1 on (test/old-clients.test.ts opens one in 1.1, 1.2, 1.3 and
// 1.4 and runs every view and macro there).
//
// DuckDB's `storage_compatibility_version` names the oldest release that must be able to read
// the file ("This setting specifies the minimum DuckDB version that should be able to read the
// database file": https://duckdb.org/docs/preview/internals/storage, "Explicit Storage Versions";
// the setting: https://duckdb.org/docs/stable/configuration/overview). It decides the storage
// version written in a new file's header (64 for every value up to 'v1.1.3': the version 1.1
// reads; 'v1.2.0' writes 65, which 1.1 refuses) and how checkpoints serialise the catalog. It
// counts when a file is created: an existing file keeps the one it was made with, whatever a later
// session sets (duckdb/duckdb#15794), so it must be in force where files are made: in the build's
// template (which new files are copies of), in a file made without one, and in the copy `migrate
// --vacuum` ATTACHes. Warehouse passes it on every open, which covers all three and changes
// nothing for an existing file.
//
// The value is 'v0.10.2', DuckDB 1.5.5's own default made explicit: what every warehouse so far
// was made with, and what a newer @duckdb/node-api cannot silently raise. Not 'v1.1.0', although
// that is the promise: a file DuckDB 1.5.5 makes with 'v1.1.0' (or 'v1.1.3') loses its primary-key
// lookups at its next write and checkpoint (measured on the template: london_days WHERE
// local_date = DATE '2023-06-01' then finds no row in 1.5.5, 1.4, 1.3, 1.2 and 1.1 alike, while
// WHERE local_date + 0 = … finds it; so cheapest_window_per_day answered nothing). Files made
// with 'v1.0.0' or 'v0.10.2' keep them.
//
// The setting does not cover everything: DuckDB 1.5.5 stores a view using `unnest … WITH
// ORDINALITY` in a form 1.1-1.3 cannot read whatever it says (the file then fails to open there:
// "Serialization Error: … field id: 202"), so the SQL of sql/ keeps to what 1.1 understands; the
// test finds what does not.

/** The oldest DuckDB release that must read the files tariffs makes ('v0.10.2': 1.1 and all later ones too). */
export const STORAGE_COMPATIBILITY_VERSION = 'v0.10.2';

/** DuckDB instance options (DuckDBInstance.create's config) for files DuckDB 1.1 can read. */
export function storageCompatibilityConfig(): Record<string, string> {
  return { storage_compatibility_version: STORAGE_COMPATIBILITY_VERSION };
}
