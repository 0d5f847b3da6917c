// The demo against its own ingest step, a reported figure (no longer a target): `tariffs demo` run
// as a person runs it, a fresh folder each time, `runs` times; each run's ratio is its total over
// its ingest as it prints them ("… N s (ingest N s, export N s)"), and the figure is their median.
// Both halves of a run meet the same load, so the ratio holds on a busy machine where seconds do not.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../src/paths.js';
import { round } from './ingestBench.js';

const CLI = () => join(packageRoot(), 'dist', 'src', 'cli', 'main.js');
const TIMES = /; (\d+(?:\.\d+)?) s \(ingest (\d+(?:\.\d+)?) s, export (\d+(?:\.\d+)?) s\)/;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function demoBench(quick: boolean, log: (line: string) => void) {
  const runs = quick ? 3 : 5;
  const measured: { total: number; ingest: number; export: number; ratio: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'tariffs-bench-demo-'));
    try {
      const result = spawnSync(process.execPath, [CLI(), 'demo'], { cwd: dir, encoding: 'utf8', env: { ...process.env, TARIFFS_CONFIG: '' } });
      if (result.status !== 0) throw new Error(`tariffs demo: exit ${result.status}: ${result.stderr.slice(-2000)}`);
      const times = TIMES.exec(result.stdout);
      if (!times) throw new Error(`tariffs demo printed no timing line:\n${result.stdout}`);
      const [total, ingest, exported] = times.slice(1).map(Number) as [number, number, number];
      measured.push({ total, ingest, export: exported, ratio: total / ingest });
      log(`demo ${total} s (ingest ${ingest} s, export ${exported} s): ${(total / ingest).toFixed(2)}x its ingest`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return {
    results: {
      demo_vs_ingest_ratio: round(median(measured.map((m) => m.ratio))),
      demo_seconds: round(median(measured.map((m) => m.total))),
    },
    details: { runs: measured },
  };
}
