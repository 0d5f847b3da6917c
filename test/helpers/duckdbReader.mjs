// An analyst's plain DuckDB client, as a process of its own (no tariffs code): reads `--db`
// read-only with @duckdb/node-api and prints one JSON line per query on stdout.
//   node duckdbReader.mjs poll FILE SQL INTERVAL_MS   open, query, close; again every INTERVAL_MS
//   node duckdbReader.mjs hold FILE SQL               one connection held open; a query per stdin line
// Session time zone: TZ_SESSION (default: the DuckDB default, the machine's zone).
import { createInterface } from 'node:readline';
import { DuckDBInstance } from '@duckdb/node-api';

const [mode, file, sql, interval] = process.argv.slice(2);

async function ask(connection) {
  const reader = await connection.runAndReadAll(sql);
  return reader.getRowObjectsJson();
}

async function session() {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  if (process.env.TZ_SESSION) await connection.run(`SET TimeZone = '${process.env.TZ_SESSION}'`);
  return { instance, connection };
}

if (mode === 'poll') {
  let stopping = false;
  process.on('SIGTERM', () => { stopping = true; });
  while (!stopping) {
    const at = Date.now();
    try {
      const { instance, connection } = await session();
      const rows = await ask(connection);
      connection.closeSync();
      instance.closeSync();
      process.stdout.write(`${JSON.stringify({ at, rows })}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ at, error: String(error?.message ?? error) })}\n`);
    }
    await new Promise((r) => setTimeout(r, Number(interval)));
  }
} else if (mode === 'hold') {
  const { connection } = await session();
  process.stdout.write(`${JSON.stringify({ ready: true, rows: await ask(connection) })}\n`);
  for await (const _line of createInterface({ input: process.stdin })) {
    try {
      process.stdout.write(`${JSON.stringify({ rows: await ask(connection) })}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ error: String(error?.message ?? error) })}\n`);
    }
  }
} else {
  process.stderr.write(`usage: duckdbReader.mjs poll|hold FILE SQL [INTERVAL_MS]\n`);
  process.exit(2);
}
