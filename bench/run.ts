// `npm run bench [-- --quick]`: runs the benchmarks against the sandbox on loopback, prints a
// table and writes bench/results/latest.json. Every ratio is measured within this one run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/paths.js';
import { analyticsBench } from './analyticsBench.js';
import { costBench } from './costBench.js';
import { eventsBench } from './eventsBench.js';
import { ingestBench } from './ingestBench.js';
import { publishBench } from './publishBench.js';
import { startupBench } from './startupBench.js';

const quick = process.argv.includes('--quick');
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
  startup: startupBench, ingest: ingestBench, analytics: analyticsBench, cost: costBench, events: eventsBench, publish: publishBench,
};

const started = performance.now();
const results: Record<string, number> = {};
const details: Record<string, unknown> = { quick };
for (const [name, section] of Object.entries(sections)) {
  if (only && !only.includes(name)) continue;
  log(`${name}…`);
  const out = await section(quick, log);
  Object.assign(results, out.results);
  details[name] = out.details;
}
details.total_seconds = Math.round((performance.now() - started) / 100) / 10;

const report = {
  measured_at: new Date().toISOString(),
  machine: { cpus: cpus().length, memory: `${Math.round(totalmem() / 2 ** 30)} GiB`, node: process.version, duckdb: await duckdbVersion() },
  results,
  details,
};
const dir = join(packageRoot(), 'bench', 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
const width = Math.max(...Object.keys(results).map((k) => k.length));
process.stdout.write(`${'key'.padEnd(width)}  value\n`);
for (const [key, value] of Object.entries(results)) process.stdout.write(`${key.padEnd(width)}  ${value}\n`);
process.stdout.write(`(written to bench/results/latest.json in ${details.total_seconds} s)\n`);
