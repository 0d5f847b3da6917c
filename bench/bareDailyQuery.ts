// `node dist/bench/bareDailyQuery.js <db> <tariff> <from> <to>`: the floor a query command is held
// to (startupBench.ts): a bare script that opens the warehouse read-only with @duckdb/node-api,
// reads the same daily_stats rows `tariffs daily --format csv` prints and writes them as CSV.
import { DuckDBInstance } from '@duckdb/node-api';

const [db, tariff, from, to] = process.argv.slice(2) as [string, string, string, string];
const instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
const connection = await instance.connect();
const reader = await connection.runAndReadAll(
  `SELECT * FROM daily_stats WHERE tariff_code = $tariff AND local_date >= CAST($from AS DATE) AND local_date < CAST($to AS DATE)
   ORDER BY local_date`,
  { tariff, from, to });
const names = reader.columnNames();
const lines = [names.join(','), ...reader.getRowsJS().map((row) => row.map((v) => (v === null ? '' : String(v))).join(','))];
process.stdout.write(`${lines.join('\n')}\n`);
connection.closeSync();
instance.closeSync();
