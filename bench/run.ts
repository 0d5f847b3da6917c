// `npm run bench [-- --quick] [--only=a,b] [--growth-full] [--growth-meters=1000,…]`: runs the benchmarks against the
// sandbox on loopback, prints a table and writes bench/results/latest.json (with --only, the
// sections run replace theirs in it and the others are kept). Every ratio is measured within one run.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/paths.js';
import { analyticsBench } from './analyticsBench.js';
import { costBench } from './costBench.js';
import { demoBench } from './demoBench.js';
import { eventsBench } from './eventsBench.js';
import { growthBench } from './growthBench.js';
import { ingestBench } from './ingestBench.js';
import { publishBench } from './publishBench.js';
import { startupBench } from './startupBench.js';

const quick = process.argv.includes('--quick');
/** The growth section's largest sizes too (100M half-hours, 10,000 meters): see bench/README.md. */
const growthFull = process.argv.includes('--growth-full');
/** The growth section's cost steps alone, at these numbers of meters. */
const growthMeters = process.argv.find((a) => a.startsWith('--growth-meters='))?.slice('--growth-meters='.length).split(',').map(Number);
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

async function duckdbVersion(): Promise<string> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const version = (await connection.runAndReadAll('SELECT version()')).getRowsJS()[0]![0] as string;
  connection.closeSync();
  instance.closeSync();
  return version;
}

type Section = (quick: boolean, log: (line: string) => void) => Promise<{ results: Record<string, number>; details: Record<string, unknown> }>;
const sections: Record<string, Section> = {
  startup: startupBench, demo: demoBench, ingest: ingestBench, analytics: analyticsBench, cost: costBench, events: eventsBench, publish: publishBench,
  growth: (q, l) => growthBench(q, l, { full: growthFull, ...(growthMeters ? { meters: growthMeters } : {}) }),
};
const unknown = only?.filter((name) => !(name in sections)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(`bench: --only: no section ${unknown.join(', ')} (sections: ${Object.keys(sections).join(', ')})\n`);
  process.exit(2);
}

const machine = { cpus: cpus().length, memory: `${Math.round(totalmem() / 2 ** 30)} GiB`, node: process.version, duckdb: await duckdbVersion() };
const started = performance.now();
const results: Record<string, number> = {};
const details: Record<string, unknown> = { quick };
for (const [name, section] of Object.entries(sections)) {
  if (only && !only.includes(name)) continue;
  log(`${name}…`);
  const out = await section(quick, log);
  Object.assign(results, out.results);
  // with --only, each section says when and where it ran (the file keeps the other sections' run)
  details[name] = only ? { measured_at: new Date().toISOString(), quick, machine, ...out.details } : out.details;
}
details.total_seconds = Math.round((performance.now() - started) / 100) / 10;

const dir = join(packageRoot(), 'bench', 'results');
const latest = join(dir, 'latest.json');
// --only: the other sections' figures of the last full run stay, each run section says when it ran,
// and keeps the keys of its previous details that the run does not write (figures measured by
// hand and earlier runs: `by_hand`, `earlier_runs`, as bench/README.md cites them)
const previous = only && existsSync(latest)
  ? (JSON.parse(readFileSync(latest, 'utf8')) as { results?: object; details?: Record<string, unknown> })
  : undefined;
const ran = Object.fromEntries(Object.entries(details).filter(([name]) => name in sections).map(([name, fresh]) => {
  const before = previous?.details?.[name];
  return [name, before && typeof before === 'object' ? { ...before, ...(fresh as object) } : fresh];
}));
const report = previous
  ? { ...previous, results: { ...previous.results, ...results }, details: { ...previous.details, ...ran } }
  : { measured_at: new Date().toISOString(), machine, results, details };
mkdirSync(dir, { recursive: true });
writeFileSync(latest, `${JSON.stringify(report, null, 2)}\n`);
const width = Math.max(...Object.keys(results).map((k) => k.length));
process.stdout.write(`${'key'.padEnd(width)}  value\n`);
for (const [key, value] of Object.entries(results)) process.stdout.write(`${key.padEnd(width)}  ${value}\n`);
process.stdout.write(`(written to bench/results/latest.json in ${details.total_seconds} s)\n`);

