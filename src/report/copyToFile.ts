// One query to one file with DuckDB's COPY … TO (CSV with a header line, or Parquet), written
// atomically: readers see the previous file or the complete new one, never a part.
import { ERROR_CODES, TariffsError } from '../errors.js';
import type { Params, Warehouse } from '../store/Warehouse.js';
import { writeAtomically } from './writeAtomically.js';

export type TableFormat = 'csv' | 'parquet';

const COPY_OPTIONS: Record<TableFormat, string> = {
  // Fixed dialect, so the bytes do not depend on DuckDB's defaults or sniffing.
  csv: `FORMAT csv, HEADER true, DELIMITER ',', QUOTE '"', ESCAPE '"'`,
  parquet: 'FORMAT parquet, COMPRESSION snappy',
};

/** A string as a SQL literal: file paths cannot be bound parameters in COPY … TO. */
export function sqlStringLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** Writes the rows of `query` (its ORDER BY decides the file's order) to `path`; returns the row count. */
export async function copyToFile(
  warehouse: Warehouse, query: string, params: Params, path: string, format: TableFormat,
): Promise<number> {
  return writeAtomically(path, async (tmp) => {
    let result;
    try {
      result = await warehouse.all(`COPY (${query}) TO ${sqlStringLiteral(tmp)} (${COPY_OPTIONS[format]})`, params);
    } catch (error) {
      throw new TariffsError(ERROR_CODES.EXPORT_QUERY, `writing ${path}: ${(error as Error).message}`, { cause: error });
    }
    return Number(result[0]?.Count ?? 0);
  });
}
