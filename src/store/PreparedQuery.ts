// A statement prepared once and run with one set of parameters after another (Warehouse.prepare),
// and the binding of named parameters every query of the warehouse shares.
import type { DuckDBPreparedStatement, DuckDBValue } from '@duckdb/node-api';
import { rowsToJs, type JsRow } from './rowsToJs.js';

export type Params = DuckDBValue[] | Record<string, DuckDBValue>;

/** A statement of Warehouse.prepare: its rows for each set of parameters. */
export class PreparedQuery {
  constructor(private readonly sql: string, private readonly statement: DuckDBPreparedStatement,
    private readonly guard: <T>(work: Promise<T>) => Promise<T>) {}

  async all<T extends object = JsRow>(params: Params): Promise<T[]> {
    this.statement.bind(referenced(this.sql, params) ?? []);
    return rowsToJs(await this.guard(this.statement.runAndReadAll())) as T[];
  }

  close(): void {
    this.statement.destroySync();
  }
}

/** Named parameters the statement uses: one parameter object can serve several statements. */
export function referenced(sql: string, params: Params | undefined): Params | undefined {
  if (params === undefined || Array.isArray(params)) return params;
  const names = new Set(Array.from(sql.matchAll(/\$([A-Za-z_]\w*)/g), (m) => m[1]!));
  const used: Record<string, DuckDBValue> = {};
  for (const [key, value] of Object.entries(params)) if (names.has(key)) used[key] = value;
  return used;
}
