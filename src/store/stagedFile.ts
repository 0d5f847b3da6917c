// Reads of a CSV or Parquet file staged for import (ingest/tableFile.ts builds the SQL that reads
// it): the columns DuckDB sees in it, and the first staged row a check found bad.
import type { Warehouse } from './Warehouse.js';

/** The columns of a FROM item (a read_parquet(…)), as DuckDB describes them. */
export async function describeRelation(warehouse: Warehouse, relation: string): Promise<{ column_name: string; column_type: string }[]> {
  return warehouse.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${relation}`);
}

/** The first row (in file order) of the staging table whose `problem` is not NULL. */
export async function firstProblemRow(warehouse: Warehouse, stage: string): Promise<{ row: number; problem: string } | undefined> {
  const row = await warehouse.one(`SELECT rowid AS r, problem FROM ${stage} WHERE problem IS NOT NULL ORDER BY rowid LIMIT 1`);
  return row ? { row: Number(row.r), problem: String(row.problem) } : undefined;
}
