// Per-half-hour weights (the request's weightsFrom): a relation of the analyst's (a table or view of the
// warehouse, or a CSV/Parquet/JSON file DuckDB reads by its name) with a slot start and a weight,
// checked, then passed to price_windows and cheapest_slots as their slot_weights list. Values are
// never pasted into the SQL; the relation's name goes through quoteIdentifier.
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { TariffsErrorOptions } from '../errors.js';
import { InvalidRequest } from './requestErrors.js';
import { StorageError } from '../store/StorageError.js';
import { quoteIdentifier } from '../store/quoteIdentifier.js';
import type { Warehouse } from '../store/Warehouse.js';

const START_COLUMNS = ['slot_start', 'start'];
const WEIGHT_COLUMNS = ['weight', 'weighting'];
const FILE = /(\/|\\|\.(csv|tsv|parquet|json|jsonl|ndjson)(\.gz|\.zst)?$)/i;
const PART = /^(?:"((?:[^"]|"")+)"|([^".]+))(?:\.|$)/;

/** The SQL of the slot_weights argument: one list of {slot_start, weight} built from the relation. */
export interface SlotWeights {
  sql: string;
  /** The relation as the user named it, for messages. */
  relation: string;
  rows: number;
}

/**
 * Reads the relation's columns and checks every row: a slot start (TIMESTAMPTZ, or text with a UTC
 * offset) on a half-hour boundary, one row per half-hour, a weight above 0. Errors name the field.
 */
export async function slotWeights(warehouse: Warehouse, relation: string): Promise<SlotWeights> {
  const from = relationSql(relation);
  const file = relation.trim();
  if (FILE.test(file) && !/[*?[]/.test(file) && !existsSync(file)) {
    throw invalid(`no file ${file}${isAbsolute(file) ? '' : ` (in ${process.cwd()})`}`);
  }
  let columns: { column_name: string; column_type: string }[];
  try {
    columns = await warehouse.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${from}`);
  } catch (error) {
    throw invalid(`no table, view or file named ${relation} can be read (${firstLine(error)})`, { cause: error });
  }
  const pick = (names: string[]) => columns.find((c) => names.includes(c.column_name.toLowerCase()));
  const start = pick(START_COLUMNS);
  const weight = pick(WEIGHT_COLUMNS);
  if (!start || !weight) {
    throw invalid(`${relation} needs a column slot_start (or start) and a column weight; it has ${columns.map((c) => c.column_name).join(', ')}`);
  }
  const startType = start.column_type.toUpperCase();
  const text = startType === 'VARCHAR';
  if (startType !== 'TIMESTAMP WITH TIME ZONE' && !text) {
    throw invalid(`${relation}.${start.column_name} is ${start.column_type}; it must be an instant ` +
      `(TIMESTAMPTZ, or text with an offset such as 2024-03-31T00:30:00Z): a wall time is ambiguous when the clocks go back`);
  }
  const s = `w.${quoteIdentifier(start.column_name)}`;
  const w = `w.${quoteIdentifier(weight.column_name)}`;
  let check: Record<string, unknown> | undefined;
  try {
    check = await warehouse.one(`
      WITH rows AS (
        SELECT ${text ? `regexp_matches(${s}, '(Z|[+-][0-9]{2}(:?[0-9]{2})?)$')` : 'true'} AS has_offset,
               CAST(${s} AS TIMESTAMPTZ) AS slot_start, CAST(${w} AS DOUBLE) AS weight
        FROM ${from} AS w
      )
      SELECT count(*) AS n,
             count(*) FILTER (WHERE slot_start IS NULL OR weight IS NULL) AS missing,
             count(*) FILTER (WHERE NOT has_offset) AS naive,
             count(*) FILTER (WHERE epoch_us(slot_start) % 1800000000 <> 0) AS off_grid,
             min(slot_start) FILTER (WHERE epoch_us(slot_start) % 1800000000 <> 0) AS first_off_grid,
             count(*) FILTER (WHERE NOT (weight > 0 AND isfinite(weight))) AS bad_weights,
             min(slot_start) FILTER (WHERE NOT (weight > 0 AND isfinite(weight))) AS first_bad_weight,
             count(slot_start) - count(DISTINCT slot_start) AS duplicates
      FROM rows`);
  } catch (error) {
    throw invalid(`${relation}: ${firstLine(error)}`, { cause: error });
  }
  const n = (key: string) => Number(check?.[key] ?? 0);
  const problems = [
    n('missing') > 0 && `${n('missing')} rows without a slot start or weight`,
    n('naive') > 0 && `${n('naive')} slot starts without a UTC offset (write 2024-03-31T00:30:00Z or +01:00)`,
    n('off_grid') > 0 && `${n('off_grid')} slot starts not on a half-hour (first ${String(check?.first_off_grid)})`,
    n('bad_weights') > 0 && `${n('bad_weights')} weights not above 0 (first at ${String(check?.first_bad_weight)})`,
    n('duplicates') > 0 && `${n('duplicates')} half-hours given more than one weight`,
  ].filter(Boolean);
  if (problems.length > 0) throw invalid(`${relation}: ${problems.join('; ')}`);
  return {
    sql: `(SELECT list({slot_start: CAST(${s} AS TIMESTAMPTZ), weight: CAST(${w} AS DOUBLE)}) FROM ${from} AS w)`,
    relation,
    rows: n('n'),
  };
}

/** A bad weightsFrom: the relation cannot be read or its rows do not fit. */
function invalid(detail: string, options?: TariffsErrorOptions): InvalidRequest {
  return new InvalidRequest('weightsFrom', (w) => `${w.field('weightsFrom')}: ${detail}`, options);
}

/** `t`, `s.t`, `db.s.t` (parts bare or "quoted") → each part quoted; a file name → one identifier
 *  (DuckDB reads the file by its name). */
export function relationSql(relation: string): string {
  const text = relation.trim();
  if (text === '') throw invalid(`give a table, view or file name`);
  if (FILE.test(text)) return quoteIdentifier(text);
  const parts: string[] = [];
  let rest = text;
  while (rest !== '') {
    const m = PART.exec(rest);
    if (!m) throw invalid(`'${relation}' is not a relation name (table, schema.table or catalog.schema.table)`);
    parts.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!.trim());
    rest = rest.slice(m[0].length);
    if (m[0].endsWith('.') && rest === '') throw invalid(`'${relation}' ends with a dot`);
  }
  if (parts.length > 3) throw invalid(`'${relation}' has more than three parts`);
  return parts.map(quoteIdentifier).join('.');
}

/** DuckDB's own first line: a file it cannot read is the user's, not the warehouse's disk (the
 *  StorageError's advice about the database's directory would mislead). */
function firstLine(error: unknown): string {
  const said = error instanceof StorageError ? error.cause : error;
  return String((said as Error)?.message ?? said).split('\n')[0]!;
}
