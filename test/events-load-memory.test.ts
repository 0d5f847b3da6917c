// `tariffs events load` streams: 100k events with ~1.5 kB padded payloads (a ~190 MB file) loaded
// by the built CLI as a child process, whose own peak RSS (--stats: process.resourceUsage) must
// stay far below what holding the file would take. The 1M-event run is bench/events.ts.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeEventsFile } from '../bench/events.js';
import { runCli } from './helpers/runCli.js';

const EVENTS = 100_000;
// Below what the run takes without DuckDB's memory limit (written blocks stay cached) or with the
// file held in JS; the measured peak is in bench/README.md (events).
const MAX_RSS_MB = 800;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tariffs-events-memory-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it(`loads ${EVENTS} events with peak RSS under ${MAX_RSS_MB} MB`, { timeout: 180_000 }, async () => {
  const file = join(dir, 'events.jsonl');
  await writeEventsFile(file, EVENTS, { padding: 1500 });
  expect((await stat(file)).size).toBeGreaterThan(150e6);
  const db = join(dir, 'memory.duckdb');

  const result = await runCli(['events', 'load', file, '--db', db, '--format', 'json', '--stats'], { timeoutMs: 170_000 });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const summary = JSON.parse(result.stdout) as { accepted: number; duplicates: number; stats: { lines: number; max_rss_mb: number } };
  expect(summary).toMatchObject({ accepted: EVENTS, duplicates: 0, rejected: 0, stats: { lines: EVENTS } });
  expect(summary.stats.max_rss_mb).toBeGreaterThan(50); // a real measurement, not a zero
  expect(summary.stats.max_rss_mb).toBeLessThan(MAX_RSS_MB);

  const count = await runCli(['sql', 'SELECT count(*) AS n, count(DISTINCT id) AS ids FROM events', '--db', db]);
  expect(JSON.parse(count.stdout)).toEqual([{ n: EVENTS, ids: EVENTS }]);
});
