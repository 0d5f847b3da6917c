// A long CSV or Parquet file as DuckDB reads it (read_csv with explicit VARCHAR columns,
// read_parquet), with SQL for checking its cells and naming a bad one by line (CSV) or row.
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ERROR_CODES, TariffsError, UsageError } from '../errors.js';
import { describeRelation, firstProblemRow } from '../store/stagedFile.js';
import type { Warehouse } from '../store/Warehouse.js';
import { splitCsvLine } from './readConsumptionCsv.js';

export type FileFormat = 'csv' | 'parquet';

export interface FileColumn {
  /** As the file spells it (messages name it so). */
  name: string;
  /** DuckDB's type of the column as read: always VARCHAR for a CSV. */
  type: string;
  /** The column in SQL over `relation`. */
  sql: string;
}

export interface TableFile {
  path: string;
  /** For messages: the path, or 'stdin'. */
  source: string;
  format: FileFormat;
  columns: FileColumn[];
  /** A FROM item reading the whole file in its order. */
  relation: string;
}

/** A bad cell (or row) of a file: `FILE: line N, column 'C': detail` (Parquet: `row N`). */
export class FileRowError extends TariffsError {
  override readonly name = 'FileRowError';
  constructor(readonly source: string, readonly where: string, readonly column: string | undefined, detail: string) {
    super(ERROR_CODES.IMPORT_FILE, `${source}: ${where}${column ? `, column '${column}'` : ''}: ${detail}`);
  }
}

const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;
export const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const norm = (name: string) => name.trim().replace(/^\uFEFF/, '').toLowerCase();

/** Parquet files start with the magic bytes PAR1; anything else is read as a CSV. */
export function formatOf(path: string): FileFormat {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.toString('latin1') === 'PAR1' ? 'parquet' : 'csv';
  } finally {
    closeSync(fd);
  }
}

/** The first line of a text file (up to 64 KiB), split as CSV cells. */
export function csvHeader(path: string): string[] {
  const fd = openSync(path, 'r');
  let text: string;
  try {
    const buffer = Buffer.alloc(65_536);
    text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  if (line.trim() === '') return [];
  const cells = splitCsvLine(line);
  return cells.map((c) => c.trim().replace(/^\uFEFF/, ''));
}

/** Opens a long file: its columns (names matched without regard to case), and how to read it. */
export async function openTableFile(warehouse: Warehouse, path: string, source: string): Promise<TableFile> {
  const format = formatOf(path);
  if (format === 'csv') {
    const header = csvHeader(path);
    if (header.length === 0) throw new FileRowError(source, 'line 1', undefined, 'empty file (expected a header line)');
    const seen = new Set<string>();
    for (const name of header) {
      if (seen.has(norm(name))) throw new FileRowError(source, 'line 1', name, 'the header names this column twice');
      seen.add(norm(name));
    }
    const types = header.map((_, i) => `'c${i}': 'VARCHAR'`).join(', ');
    return {
      path, source, format,
      columns: header.map((name, i) => ({ name, type: 'VARCHAR', sql: `c${i}` })),
      relation: `read_csv(${sqlString(path)}, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', ` +
        `strict_mode = true, columns = {${types}})`,
    };
  }
  const relation = `read_parquet(${sqlString(path)})`;
  const described = await describeRelation(warehouse, relation)
    .catch((error: unknown) => { throw new FileRowError(source, 'file', undefined, `not a readable Parquet file (${firstLine(error)})`); });
  return {
    path, source, format, relation,
    columns: described.map((c) => ({ name: c.column_name, type: c.column_type, sql: ident(c.column_name) })),
  };
}

/** The file's column of that name (case-insensitive); a required one missing is an error naming the file. */
export function column(file: TableFile, name: string, required: true, expected: string): FileColumn;
export function column(file: TableFile, name: string, required: false, expected: string): FileColumn | undefined;
export function column(file: TableFile, name: string, required: boolean, expected: string): FileColumn | undefined {
  const found = file.columns.find((c) => norm(c.name) === name);
  if (!found && required) {
    throw new FileRowError(file.source, file.format === 'csv' ? 'line 1' : 'schema', undefined,
      `no column '${name}' (columns: ${file.columns.map((c) => c.name).join(', ')}); expected ${expected}`);
  }
  return found;
}

const INSTANT_RE = String.raw`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}(:?\d{2})?)`;
export const quoted = (text: string) => `'''' || ${text} || ''''`;

/** A check of a cell: when `when` holds, the row is bad for `detail` (SQL text). */
export interface Check {
  column: string;
  when: string;
  detail: string;
}

/** A cell as trimmed text (NULL when empty). */
export const textOf = (c: FileColumn) => `nullif(trim(CAST(${c.sql} AS VARCHAR)), '')`;

/** A column read as an instant: its SQL value, and the checks of a value `v` read from text `raw`. */
export function instantOf(file: TableFile, c: FileColumn): { value: string; checks: (v: string, raw: string) => Check[] } {
  if (c.type === 'TIMESTAMP WITH TIME ZONE') return { value: c.sql, checks: () => [] };
  if (c.type !== 'VARCHAR') {
    throw new FileRowError(file.source, 'schema', c.name, `is ${c.type}; expected TIMESTAMP WITH TIME ZONE (UTC-adjusted) or text with an offset`);
  }
  return {
    value: `CASE WHEN regexp_full_match(${textOf(c)}, '${INSTANT_RE}') THEN TRY_CAST(${textOf(c)} AS TIMESTAMPTZ) END`,
    checks: (v, raw) => [{
      column: c.name, when: `${raw} IS NOT NULL AND ${v} IS NULL`,
      detail: `${quoted(raw)} || ' is not an ISO 8601 date-time with an offset (e.g. 2024-03-31T02:00:00+01:00)'`,
    }],
  };
}

const NUMERIC = /^(DOUBLE|FLOAT|REAL|DECIMAL.*|BIGINT|INTEGER|SMALLINT|TINYINT|HUGEINT|UBIGINT|UINTEGER|USMALLINT|UTINYINT)$/;

/** A column read as a number (non-finite ones refused). */
export function numberOf(file: TableFile, c: FileColumn): { value: string; checks: (v: string, raw: string) => Check[] } {
  if (NUMERIC.test(c.type)) return { value: `CAST(${c.sql} AS DOUBLE)`, checks: (v) => [{ column: c.name, when: `NOT isfinite(${v})`, detail: `'is not a finite number'` }] };
  if (c.type !== 'VARCHAR') throw new FileRowError(file.source, 'schema', c.name, `is ${c.type}; expected a number`);
  return {
    value: `TRY_CAST(${textOf(c)} AS DOUBLE)`,
    checks: (v, raw) => [{ column: c.name, when: `${raw} IS NOT NULL AND (${v} IS NULL OR NOT isfinite(${v}))`, detail: `${quoted(raw)} || ' is not a number'` }],
  };
}

/** The first failing check as `column<US>detail` (NULL for a good row). */
export function problemSql(checks: readonly Check[]): string {
  if (checks.length === 0) return 'CAST(NULL AS VARCHAR)';
  return `CASE ${checks.map((c) => `WHEN ${c.when} THEN ${sqlString(c.column)} || chr(31) || (${c.detail})`).join(' ')} END`;
}

/** The first staged row (in file order) whose `problem` is not NULL, as an error; undefined if none. */
export async function firstBadRow(warehouse: Warehouse, file: TableFile, stage: string): Promise<{ index: number; error: () => Promise<FileRowError> } | undefined> {
  const row = await firstProblemRow(warehouse, stage);
  if (!row) return undefined;
  const [name, detail] = row.problem.split('\u001f') as [string, string];
  const index = row.row;
  return { index, error: async () => new FileRowError(file.source, await locate(file, index), name, detail) };
}

/** Where the staged row `index` (0-based, in file order) is: CSV `line N` (counted in the file,
 *  blank lines included), Parquet `row N` (1-based). */
export async function locate(file: TableFile, index: number): Promise<string> {
  if (file.format === 'parquet') return `row ${index + 1}`;
  let line = 0;
  let records = -1; // the header is not a record
  const lines = createInterface({ input: createReadStream(file.path), crlfDelay: Infinity });
  try {
    for await (const text of lines) {
      line++;
      if (line === 1 || text.trim() === '') continue;
      if (++records === index) return `line ${line}`;
    }
  } finally {
    lines.close();
  }
  return `line ${index + 2}`;
}

/** A DuckDB error reading the file, as one line naming the file. */
export function readError(source: string, error: unknown): TariffsError {
  const text = error instanceof Error ? error.message : String(error);
  const line = /CSV Error on Line: (\d+)/.exec(text);
  const why = /Expected Number of Columns: (\d+) Found: (\d+)/.exec(text);
  if (line && why) return new FileRowError(source, `line ${line[1]}`, undefined, `${why[2]} fields, the header has ${why[1]}`);
  if (line) return new FileRowError(source, `line ${line[1]}`, undefined, firstLine(error));
  return new FileRowError(source, 'file', undefined, firstLine(error));
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

export function assertReadable(path: string, what: string): void {
  try {
    closeSync(openSync(path, 'r'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${what} ${code === 'ENOENT' ? 'not found' : `cannot be read (${code ?? String(error)})`}: ${path}`, { cause: error });
  }
}
