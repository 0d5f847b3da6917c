// The export's cost scope as the export binds it: a value, the rows of cost_meters written as a
// list literal. Passed as a subquery instead, `(SELECT list(m) FROM cost_meters(…))`, it is
// evaluated wherever the macro names its argument, and the cost macros took tens of seconds.
import { DuckDBInstance } from '@duckdb/node-api';

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** `call` (a cost_meters(…) call) read from `db` (read-only): the scope's list literal, and the
 *  list literal of its meter points. */
export async function costScopeLiterals(db: string, call: string): Promise<{ scope: string; meters: string }> {
  const instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    await connection.run("SET TimeZone = 'UTC'");
    const rows = (await connection.runAndReadAll(`SELECT meter_point, is_export, tariffs FROM ${call} ORDER BY meter_point`)).getRowObjectsJson();
    connection.closeSync();
    if (rows.length === 0) throw new Error(`${call}: no meter in the cost scope`);
    const scope = rows.map((m) => `{'meter_point': ${quoted(String(m.meter_point))}, 'is_export': ${m.is_export === true}, ` +
      `'tariffs': [${(m.tariffs as string[]).map(quoted).join(', ')}]}`);
    return { scope: `[${scope.join(', ')}]`, meters: `[${rows.map((m) => quoted(String(m.meter_point))).join(', ')}]` };
  } finally {
    instance.closeSync();
  }
}
