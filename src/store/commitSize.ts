// How many rates the ingest commits at a time: DuckDB's row group. A transaction that appends a
// whole row group to a table has it written straight into the file, compressed, instead of through
// the WAL and again at the next checkpoint (docs/decisions/ingest-pipeline.md).
export const RATES_PER_COMMIT = 122_880;
