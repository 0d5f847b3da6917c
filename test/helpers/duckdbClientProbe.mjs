// `node test/helpers/duckdbClientProbe.mjs <package> <job.json> <out.json>`: what one DuckDB client
// (@duckdb/node-api or an aliased older release) sees in warehouse files, in its own process so
// each native library loads alone. Plain JavaScript using only what every release from
// 1.1.3-alpha offers. The job: { files: [{ name, db, plan: { name, sql, count }[] }] }. Each file
// is opened READ_ONLY (an instance of its own); its views and macros are listed, each of its tables
// counted (rows, and the values of each column that are not NULL: every column is read), and each
// statement of its plan run with values normalised in SQL to compare across versions. Writes
// { package, version, files: { <name>: { views, macros, tables, results } } } to <out.json>, each
// answer or error as it came (a file that does not open is an answer: open_error).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [packageName, jobFile, outFile] = process.argv.slice(2);
if (!outFile) {
  process.stderr.write('usage: duckdbClientProbe.mjs <package> <job.json> <out.json>\n');
  process.exit(2);
}
const require = createRequire(import.meta.url);
const job = JSON.parse(readFileSync(jobFile, 'utf8'));
const { DuckDBInstance } = await import(pathToFileURL(require.resolve(packageName)).href);

const out = { package: packageName, files: {} };
for (const { name, db, plan } of job.files) {
  const started = performance.now();
  out.files[name] = await probeFile(db, plan);
  out.files[name].ms = Math.round(performance.now() - started);
}
writeFileSync(outFile, JSON.stringify(out));
// Closing is left to the process's end: the close calls differ between these releases.
process.exit(0);

async function probeFile(db, plan) {
  const file = {};
  try {
    const instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    const rows = async (sql) => (await connection.runAndReadAll(sql)).getRows();
    // The session as tariffs' own (Warehouse.openPath): the views' local-day arithmetic is in UTC.
    await connection.run("SET TimeZone = 'UTC'");
    out.version ??= (await rows('SELECT version()'))[0][0];
    file.views = (await rows(`SELECT view_name FROM duckdb_views() WHERE NOT internal AND NOT temporary ORDER BY 1`)).map((r) => r[0]);
    file.macros = (await rows(`SELECT DISTINCT function_name FROM duckdb_functions()
        WHERE NOT internal AND function_type IN ('macro', 'table_macro') ORDER BY 1`)).map((r) => r[0]);
    file.tables = {};
    const tables = await rows(`SELECT table_name FROM duckdb_tables()
        WHERE NOT internal AND NOT temporary AND database_name = current_database() ORDER BY 1`);
    for (const [table] of tables) {
      try {
        file.tables[table] = (await rows(`SELECT count(*), count(COLUMNS(*)) FROM ${quote(table)}`))[0].map(plain);
      } catch (error) {
        file.tables[table] = { error: String(error?.message ?? error) };
      }
    }
    file.results = {};
    for (const { name, sql, count } of plan) {
      const started = performance.now();
      try {
        const columns = (await rows(`DESCRIBE ${sql}`)).map((r) => ({ name: String(r[0]), type: String(r[1]) }));
        const select = columns.map((c, i) => `${normalised(`q.${quote(c.name)}`, c.type)} AS c${i}`).join(', ');
        const result = { columns: columns.map((c) => ({ name: c.name, kind: kindOf(c.type) })) };
        if (count) result.count = Number((await rows(`SELECT count(*) FROM (${sql}) AS q`))[0][0]);
        result.rows = (await rows(`SELECT ${select} FROM (${sql}) AS q`)).map((r) => r.map(plain));
        file.results[name] = result;
      } catch (error) {
        file.results[name] = { error: String(error?.message ?? error) };
      }
      file.results[name].ms = Math.round(performance.now() - started); // for a slow statement's hunt
      // as it goes, so that a probe stopped for its time still tells where it was
      process.stderr.write(`${name} ${file.results[name].ms} ms\n`);
    }
  } catch (error) {
    file.open_error = String(error?.message ?? error);
  }
  return file;
}

function quote(identifier) {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** What a column's values are compared as, whatever exact type a version gives them. */
function kindOf(type) {
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|INT128|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL)\b/.test(type)) return 'number';
  if (/^TIMESTAMP/.test(type)) return 'instant';
  if (/^(DATE|TIME|INTERVAL|VARCHAR|JSON|UUID)\b/.test(type)) return 'text';
  if (type === 'BOOLEAN') return 'boolean';
  // lists, structs, maps: none yet; their leaves would need the same treatment
  throw new Error(`no normalisation for type ${type} (test/helpers/duckdbClientProbe.mjs)`);
}

/** `expression` of SQL type `type` as DOUBLE, BIGINT, BOOLEAN or VARCHAR. */
function normalised(expression, type) {
  switch (kindOf(type)) {
    case 'number': return `CAST(${expression} AS DOUBLE)`;
    case 'instant': return `epoch_us(${expression})`;
    case 'boolean': return expression;
    default: return `CAST(${expression} AS VARCHAR)`;
  }
}

function plain(value) {
  if (typeof value === 'bigint') {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) return value.toString();
    return Number(value);
  }
  if (value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  return String(value);
}
