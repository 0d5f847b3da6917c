// A statement with its bound values written in as SQL literals (`--print-sql`): what an analyst
// pastes into any DuckDB client to get the rows the CLI got by binding the same values. Each
// literal carries the type the binding gives the value (@duckdb/node-api's typeForValue), so
// DuckDB resolves the statement the same way either way.
import { DuckDBListValue, type DuckDBValue } from '@duckdb/node-api';
import { ERROR_CODES, TariffsError } from '../errors.js';

/** A statement and the values its `$name` parameters are bound to. */
export interface Query {
  sql: string;
  params: Record<string, DuckDBValue>;
}

/** `query.sql` with each `$name` outside string literals, quoted identifiers and comments
 *  replaced by the literal of its value. A parameter without a value is an error, not NULL. */
export function inlineParams(query: Query): string {
  const { sql, params } = query;
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = closing(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (c === '$' && /[A-Za-z_]/.test(sql[i + 1] ?? '')) {
      const name = /^[A-Za-z_]\w*/.exec(sql.slice(i + 1))![0];
      if (!Object.hasOwn(params, name)) throw new TariffsError(ERROR_CODES.SQL_PARAM, `no value for $${name}`);
      out += sqlLiteral(params[name]!);
      i += 1 + name.length;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** Where a literal opened at `start` with `quote` ends (a doubled quote is one inside it). */
function closing(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i += 1;
    }
  }
  return sql.length;
}

/** A value as the literal of the type binding it gives: VARCHAR, INTEGER/BIGINT, DOUBLE,
 *  BOOLEAN, NULL, or a list of those. */
export function sqlLiteral(value: DuckDBValue): string {
  if (value === null) return 'NULL';
  switch (typeof value) {
    case 'string':
      return `'${value.replace(/'/g, "''")}'`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return `CAST(${value} AS HUGEINT)`;
    case 'number':
      if (!Number.isFinite(value)) return `CAST('${value > 0 ? 'inf' : value < 0 ? '-inf' : 'nan'}' AS DOUBLE)`;
      if (Number.isInteger(value)) return value >= -2_147_483_648 && value <= 2_147_483_647 ? String(value) : `CAST(${value} AS BIGINT)`;
      // through text: a decimal literal is a DECIMAL, and JavaScript's shortest digits read back exactly
      return `CAST('${value}' AS DOUBLE)`;
  }
  if (value instanceof DuckDBListValue) return `[${value.items.map(sqlLiteral).join(', ')}]`;
  throw new TariffsError(ERROR_CODES.SQL_PARAM, `cannot write ${String(value)} as a SQL literal`);
}
