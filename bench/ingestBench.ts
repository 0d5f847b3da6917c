// Ingest benchmarks: backfill vs a bare fetch of the same pages, latency-bound backfill vs the
// ideal, incremental requests per tariff, peak RSS and backfill time at three sizes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGE_SIZE } from '../src/api/paginate.js';
import { bareFetch } from './bareFetch.js';
import { BENCH_FROM, BENCH_PRODUCT } from './benchTariffs.js';
import { runJson, startBenchSandbox } from './processes.js';

export interface Backfill {
  seconds: number;
  requests: number;
  pages: number;
  inserted: number;
  updated: number;
  status: string;
  maxRssMb: number;
}

const CONCURRENCY = 4;
const SERIES_ROWS = 76_604; // the real J series every bench tariff copies

export interface IngestBenchResult {
  results: Record<string, number>;
  details: Record<string, unknown>;
}

export function backfill(db: string, baseUrl: string, tariffs: string[], from: string): Promise<Backfill> {
  return runJson<Backfill>('./backfillOnce.js', [db, baseUrl, tariffs.join(','), from]);
}

/** Fitted exponent b of time = a · rows^b (least squares on logs). */
export function growthExponent(points: { rows: number; seconds: number }[]): number {
  const xs = points.map((p) => Math.log(p.rows));
  const ys = points.map((p) => Math.log(p.seconds));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const num = xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0);
  const den = xs.reduce((s, x) => s + (x - mx) ** 2, 0);
  return num / den;
}

export async function ingestBench(quick: boolean, log: (line: string) => void): Promise<IngestBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'tariffs-bench-'));
  const results: Record<string, number> = {};
  const details: Record<string, unknown> = {};
  try {
    // 1. Backfill vs bare fetch, and memory/time at three sizes (the largest is the ratio run).
    const sizes = quick ? [1, 2, 4] : [4, 8, 14];
    const server = await startBenchSandbox(sizes.at(-1)!);
    try {
      const growth: { tariffs: number; rows: number; seconds: number; maxRssMb: number }[] = [];
      for (const n of sizes) {
        const tariffs = server.tariffs.slice(0, n);
        const run = await backfill(join(dir, `size-${n}.duckdb`), server.baseUrl, tariffs, BENCH_FROM);
        if (run.status !== 'ok' || run.inserted !== n * SERIES_ROWS) throw new Error(`backfill of ${n} tariffs: ${JSON.stringify(run)}`);
        growth.push({ tariffs: n, rows: run.inserted, seconds: run.seconds, maxRssMb: run.maxRssMb });
        log(`backfill ${run.inserted} rates: ${run.seconds.toFixed(2)} s, peak RSS ${run.maxRssMb} MB`);
      }
      const largest = growth.at(-1)!;
      const all = server.tariffs.slice(0, sizes.at(-1)!);
      const bare = Math.min(
        (await bareFetch(server.baseUrl, BENCH_PRODUCT, all, new Date(BENCH_FROM), CONCURRENCY)).seconds,
        (await bareFetch(server.baseUrl, BENCH_PRODUCT, all, new Date(BENCH_FROM), CONCURRENCY)).seconds,
      );
      // the ratio run: a second full backfill into a fresh file, the best of two
      const again = await backfill(join(dir, 'ratio.duckdb'), server.baseUrl, all, BENCH_FROM);
      const backfillSeconds = Math.min(largest.seconds, again.seconds);
      results.backfill_vs_fetch_ratio = round(backfillSeconds / bare);
      results.peak_rss_mb = Math.max(...growth.map((g) => g.maxRssMb), again.maxRssMb);
      results.backfill_growth_exponent = round(growthExponent(growth));
      details.backfill = { rows: largest.rows, backfill_seconds: round(backfillSeconds), bare_fetch_seconds: round(bare), sizes: growth };
      log(`bare fetch of the same pages: ${bare.toFixed(2)} s → ratio ${results.backfill_vs_fetch_ratio}`);

      // 2. Incremental run with nothing new: requests per tariff.
      const incremental = await backfill(join(dir, `size-${sizes.at(-1)}.duckdb`), server.baseUrl, all, '-');
      results.incremental_requests_per_tariff = round(incremental.requests / all.length);
      details.incremental = { tariffs: all.length, requests: incremental.requests, inserted: incremental.inserted, updated: incremental.updated };
      log(`incremental run, nothing new: ${incremental.requests} requests for ${all.length} tariffs`);
    } finally {
      await server.stop();
    }

    // 3. Latency-bound: 14 tariffs, 50 ms a request, about a year each.
    const latencyServer = await startBenchSandbox(14, 50);
    try {
      const from = quick ? '2024-02-01T00:00:00Z' : '2023-05-15T00:00:00Z';
      // the best of two runs into fresh files, like the backfill above: one run alone moved by
      // ±0.05 of the ratio from one bench run to the next on a 2-core machine
      const runs = [
        await backfill(join(dir, 'latency-1.duckdb'), latencyServer.baseUrl, latencyServer.tariffs, from),
        await backfill(join(dir, 'latency-2.duckdb'), latencyServer.baseUrl, latencyServer.tariffs, from),
      ];
      for (const r of runs) if (r.status !== 'ok' || r.inserted !== runs[0]!.inserted) throw new Error(`latency run: ${JSON.stringify(r)}`);
      const run = fastest(runs);
      const rowsPerTariff = run.inserted / latencyServer.tariffs.length;
      // the fewest requests possible: full pages of unit rates, plus one request for each tariff's
      // (empty) standing charges
      const minimum = latencyServer.tariffs.length * (Math.ceil(rowsPerTariff / PAGE_SIZE) + 1);
      const ideal = (minimum / CONCURRENCY) * 0.05;
      // the same requests with nothing but fetching and parsing: what a page costs beyond 50 ms
      const bares = [
        await bareFetch(latencyServer.baseUrl, BENCH_PRODUCT, latencyServer.tariffs, new Date(from), CONCURRENCY),
        await bareFetch(latencyServer.baseUrl, BENCH_PRODUCT, latencyServer.tariffs, new Date(from), CONCURRENCY),
      ];
      const bare = fastest(bares);
      results.latency_vs_ideal_ratio = round(run.seconds / ideal);
      results.latency_bare_fetch_vs_ideal_ratio = round(bare.seconds / ideal);
      results.requests_vs_minimum_ratio = round(run.requests / minimum);
      details.latency = {
        tariffs: latencyServer.tariffs.length, rows: run.inserted, requests: run.requests, minimum_requests: minimum,
        seconds: round(run.seconds), ideal_seconds: round(ideal), bare_fetch_seconds: round(bare.seconds), bare_fetch_requests: bare.requests,
        runs_seconds: runs.map((r) => round(r.seconds)), bare_fetch_runs_seconds: bares.map((b) => round(b.seconds)),
      };
      const both = (xs: { seconds: number }[]) => xs.map((x) => x.seconds.toFixed(2)).join(' / ');
      log(`latency 50 ms: ${run.requests} requests (minimum ${minimum}) in ${both(runs)} s; bare fetch ${both(bares)} s; ideal ${ideal.toFixed(2)} s`);
    } finally {
      await latencyServer.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { results, details };
}

/** The quickest of some timed runs (the first of equals). */
function fastest<T extends { seconds: number }>(runs: T[]): T {
  return runs.reduce((best, r) => (r.seconds < best.seconds ? r : best));
}

export function round(x: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
