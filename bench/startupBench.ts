// Start-up: what a person or a cron line waits for. `tariffs --version` against a bare `node -e 0`,
// and `tariffs daily --format csv` on a small warehouse (one real Agile series) against a bare
// script reading the same daily_stats rows (bareDailyQuery.ts). Each command runs `runs` times,
// the two sides alternated so that load falls on both; a ratio divides the medians.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/paths.js';
import { buildWarehouse } from './analyticsBench.js';
import { round } from './ingestBench.js';

const CLI = () => join(packageRoot(), 'dist', 'src', 'cli', 'main.js');
const BARE_QUERY = () => join(packageRoot(), 'dist', 'bench', 'bareDailyQuery.js');

/** Wall time of one run of `node ...args`, in ms; throws when the command fails. */
function timed(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, TARIFFS_CONFIG: '' } });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')}: exit ${result.status}: ${result.stderr}`);
  return ms;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Medians of two commands run alternately `runs` times each (after one unmeasured run of each). */
function alternated(a: string[], b: string[], runs: number): { a: number; b: number } {
  timed(a);
  timed(b);
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < runs; i++) {
    as.push(timed(a));
    bs.push(timed(b));
  }
  return { a: median(as), b: median(bs) };
}

export async function startupBench(quick: boolean, log: (line: string) => void) {
  const runs = quick ? 5 : 15;
  const version = alternated([CLI(), '--version'], ['-e', '0'], runs);
  log(`--version ${version.a.toFixed(0)} ms, node -e 0 ${version.b.toFixed(0)} ms (medians of ${runs})`);

  const dir = mkdtempSync(join(tmpdir(), 'tariffs-bench-startup-'));
  try {
    const db = join(dir, 'small.duckdb');
    (await buildWarehouse(db, 1)).close();
    const tariff = 'E-1R-BENCH-000-A';
    const [from, to] = ['2023-10-01', '2023-11-01'];
    const query = alternated(
      [CLI(), 'daily', '--db', db, '--tariff', tariff, '--from', from, '--to', to, '--format', 'csv'],
      [BARE_QUERY(), db, tariff, from, to], runs);
    log(`daily ${query.a.toFixed(0)} ms, bare DuckDB script ${query.b.toFixed(0)} ms (medians of ${runs})`);
    return {
      results: {
        version_vs_bare_node_ratio: round(version.a / version.b),
        query_vs_bare_duckdb_ratio: round(query.a / query.b),
      },
      details: { runs, version_ms: round(version.a, 1), bare_node_ms: round(version.b, 1), daily_ms: round(query.a, 1), bare_query_ms: round(query.b, 1) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
