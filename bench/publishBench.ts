// Publishing section: what a writer's publish (WriteSession: CHECKPOINT, copy, fsync, rename) costs
// as the warehouse grows, and what a reader meets meanwhile. For each size, a working file filled
// to about that size is published three times (a small change before each); a separate process
// opens `--db` read-only, counts, and closes it every 20 ms throughout, as a dashboard would.
// Reported: seconds per GB published (the best of the largest size's runs), and the longest a
// reader went without an answer while publishes ran (the window in which `--db` could not be
// read: it is never locked, so this is a reader's own open-and-query time plus scheduling).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { WriteSession } from '../src/store/WriteSession.js';

const READER = `
const { DuckDBInstance } = await import('@duckdb/node-api');
const [file] = process.argv.slice(1);
let stop = false;
process.on('SIGTERM', () => { stop = true; });
while (!stop) {
  try {
    const i = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
    const c = await i.connect();
    await c.runAndReadAll('SELECT count(*) FROM ingest_runs');
    c.closeSync(); i.closeSync();
    process.stdout.write(JSON.stringify({ at: Date.now(), ok: true }) + '\\n');
  } catch (e) {
    process.stdout.write(JSON.stringify({ at: Date.now(), ok: false, error: String(e.message) }) + '\\n');
  }
  await new Promise((r) => setTimeout(r, 20));
}`;

interface SizeRun {
  target_mb: number;
  file_mb: number;
  publish_seconds: number[];
  seconds_per_gb: number;
}

export async function publishBench(quick: boolean, log: (line: string) => void): Promise<{ results: Record<string, number>; details: Record<string, unknown> }> {
  const sizes = quick ? [32, 256] : [64, 1024];
  const dir = mkdtempSync(join(tmpdir(), 'tariffs-bench-publish-'));
  const runs: SizeRun[] = [];
  let readerGapMs = 0;
  let readerErrors = 0;
  let readerAnswers = 0;
  try {
    for (const mb of sizes) {
      const db = join(dir, `w${mb}.duckdb`);
      const session = await WriteSession.open(db, { threads: 2 });
      try {
        // rows per MB of file, once compressed (an md5 text and a double a row)
        await session.warehouse.run(`CREATE TABLE filler AS SELECT i, random() AS r, md5(CAST(i AS VARCHAR)) AS s FROM range(${mb * 26_000}) t(i)`);
        await session.publish();
        const reader = spawn(process.execPath, ['--input-type=module', '-e', READER, db], { stdio: ['ignore', 'pipe', 'inherit'], cwd: process.cwd() });
        const lines: { at: number; ok: boolean }[] = [];
        createInterface({ input: reader.stdout! }).on('line', (l) => lines.push(JSON.parse(l) as { at: number; ok: boolean }));
        while (lines.length < 3) await new Promise((r) => setTimeout(r, 20));
        const seconds: number[] = [];
        for (let k = 0; k < 3; k++) {
          await session.warehouse.run(`CREATE OR REPLACE TABLE bench_tick AS SELECT ${k} AS k`);
          seconds.push((await session.publish()).seconds);
        }
        const seen = lines.length;
        while (lines.length < seen + 3) await new Promise((r) => setTimeout(r, 20));
        await new Promise<void>((resolve) => {
          reader.once('exit', () => resolve());
          reader.kill('SIGTERM');
        });
        const answers = lines.filter((l) => l.ok);
        for (let i = 1; i < answers.length; i++) readerGapMs = Math.max(readerGapMs, answers[i]!.at - answers[i - 1]!.at);
        readerErrors += lines.length - answers.length;
        readerAnswers += answers.length;
        const bytes = statSync(db).size;
        const best = Math.min(...seconds);
        runs.push({
          target_mb: mb, file_mb: Math.round(bytes / 1e6), publish_seconds: seconds.map((s) => Math.round(s * 1000) / 1000),
          seconds_per_gb: Math.round((best / (bytes / 1e9)) * 1000) / 1000,
        });
        log(`publish: ${Math.round(bytes / 1e6)} MB in ${seconds.map((s) => s.toFixed(3)).join(' / ')} s (${runs.at(-1)!.seconds_per_gb} s/GB)`);
      } finally {
        session.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  log(`publish: a reader polling every 20 ms got ${readerAnswers} answers, ${readerErrors} errors; longest wait ${readerGapMs} ms`);
  return {
    results: {
      publish_seconds_per_gb: runs.at(-1)!.seconds_per_gb,
      publish_reader_errors: readerErrors,
      publish_reader_longest_wait_ms: readerGapMs,
    },
    details: { sizes: runs, reader_answers: readerAnswers },
  };
}
