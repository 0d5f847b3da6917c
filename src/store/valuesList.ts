// Many rows in one statement: a VALUES list whose every value is a named parameter. A statement
// costs DuckDB far more than a row, so the writers put their rows in one list.
import type { DuckDBValue } from '@duckdb/node-api';

/** `(…), (…)` of `rows` and the parameters it names (`$v<row>_<cell>`): each row's values go
 *  into the cells that hold `?`, in order (`CAST(? AS TIMESTAMPTZ)`); a cell without one is
 *  written as it is (`now()`, a parameter shared by every row such as `$run`). */
export function valuesList(
  rows: readonly (readonly DuckDBValue[])[], cells: readonly string[],
): { sql: string; params: Record<string, DuckDBValue> } {
  const holes = cells.filter((cell) => cell.includes('?')).length;
  const params: Record<string, DuckDBValue> = {};
  const sql = rows.map((row, i) => {
    if (row.length !== holes) throw new Error(`valuesList: row ${i} has ${row.length} values for ${holes} cells`);
    let k = 0;
    return `(${cells.map((cell) => {
      if (!cell.includes('?')) return cell;
      const name = `v${i}_${k}`;
      params[name] = row[k++]!;
      return cell.replace('?', `$${name}`);
    }).join(', ')})`;
  }).join(',\n');
  return { sql, params };
}
