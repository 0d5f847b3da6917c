// The ingest's writer: the first batch committed at once, then every RATES_PER_COMMIT rows (a
// number, not a pace), each stream's batches in order, the rest at the end, every rate stored once. Real prices:
// regions A and J's Agile pages as the sandbox serves them, written into a real DuckDB file.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OctopusClient } from '../src/api/OctopusClient.js';
import { BoundedQueue } from '../src/ingest/BoundedQueue.js';
import { ingestRates } from '../src/ingest/ingestRates.js';
import type { IngestTarget } from '../src/ingest/resolveTargets.js';
import { createLogger } from '../src/log/createLogger.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { RATES_PER_COMMIT } from '../src/store/commitSize.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { tempDir } from './helpers/warehouseTools.js';

const PRODUCT = 'AGILE-18-02-21';
const A = 'E-1R-AGILE-18-02-21-A';
const J = 'E-1R-AGILE-18-02-21-J';
const FROM = new Date('2018-01-01T00:00:00Z');

let sandbox: Sandbox;
const tmp = tempDir('tariffs-rate-writer-');

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

const target = (tariffCode: string): IngestTarget => ({
  productCode: PRODUCT, tariffCode, fuel: 'electricity', region: tariffCode.slice(-1), kinds: ['standard'], source: 'tariff',
} as IngestTarget);

describe('the writer', () => {
  it('commits at once, then every RATES_PER_COMMIT rates and the rest at the end; every rate stored once', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(JSON.parse(String(chunk)) as Record<string, unknown>); done(); } });
    const logger = createLogger({ level: 'debug', destination: sink });
    const warehouse = await Warehouse.open(tmp.file('commits.duckdb'), { threads: 1 });
    const client = new OctopusClient({ baseUrl: sandbox.baseUrl, connections: 4 });
    try {
      const now = new Date('2024-06-01T00:00:00Z');
      const result = await ingestRates({
        warehouse, client, logger, targets: [target(A), target(J)], runId: 1, now: () => now, from: FROM,
        defaultFrom: FROM, lookbackMs: 0, concurrency: 4, signal: new AbortController().signal,
      });
      expect(result.tariffs.every((t) => t.ok)).toBe(true);
      const commits = lines.filter((l) => l.msg === 'batches written').map((l) => l.rows as number);
      const total = commits.reduce((n, rows) => n + rows, 0);
      expect(total).toBe(result.inserted);
      expect(total).toBeGreaterThan(RATES_PER_COMMIT);
      // the first commit holds what came first (less than a commit), each later one but the last
      // at least RATES_PER_COMMIT rates, and less than a page more
      expect(commits[0]!).toBeLessThan(RATES_PER_COMMIT);
      expect(commits.length).toBeGreaterThanOrEqual(3);
      for (const rows of commits.slice(1, -1)) {
        expect(rows).toBeGreaterThanOrEqual(RATES_PER_COMMIT);
        expect(rows).toBeLessThan(RATES_PER_COMMIT + 1500);
      }
      expect(commits.at(-1)!).toBeLessThanOrEqual(RATES_PER_COMMIT + 1500);
      const stored = await warehouse.all(`SELECT tariff_code AS t, count(*) AS n, count(DISTINCT valid_from) AS d,
          min(valid_from) AS first FROM unit_rates GROUP BY 1 ORDER BY 1`);
      expect(stored.map((r) => r.n)).toEqual(stored.map((r) => r.d));
      expect(stored.reduce((n, r) => n + Number(r.n), 0)).toBe(total);
      // each cursor covers the window asked for, from its start
      const cursors = await warehouse.all(`SELECT tariff_code AS t, epoch_ms(fetched_from) AS f FROM ingest_cursors ORDER BY 1`);
      expect(cursors).toEqual([{ t: A, f: FROM.getTime() }, { t: J, f: FROM.getTime() }]);
    } finally {
      await client.close();
      warehouse.close();
    }
  });

  it('a run stopped part-way commits, in order, what its streams handed on before the stop', async () => {
    const warehouse = await Warehouse.open(tmp.file('stopped.duckdb'), { threads: 1 });
    const client = new OctopusClient({ baseUrl: sandbox.baseUrl, connections: 2 });
    const stop = new AbortController();
    const from = new Date('2020-01-01T00:00:00Z'); // J's series has no gap from here on
    let advanced = 0;
    try {
      const now = new Date('2024-06-01T00:00:00Z');
      const result = await ingestRates({
        warehouse, client, logger: createLogger({ level: 'silent' }), targets: [target(J)], runId: 1, now: () => now, from,
        defaultFrom: from, lookbackMs: 0, concurrency: 2, signal: stop.signal,
        // stopped once ten pages have come: far fewer rates than a commit holds
        progress: { expect: () => undefined, advance: (n) => { if ((advanced += n) >= 15_000) stop.abort(new Error('stop')); } },
      });
      expect(result.interrupted).toBe(true);
      const [row] = await warehouse.all(`SELECT count(*) AS n, epoch_ms(min(valid_from)) AS first, epoch_ms(max(valid_from)) AS last FROM unit_rates`);
      expect(Number(row!.n)).toBeGreaterThan(0);
      expect(Number(row!.n)).toBeLessThan(RATES_PER_COMMIT);
      // a prefix of the window, without a gap, and the cursor ends where it ends
      expect(Number(row!.first)).toBe(from.getTime());
      expect(Number(row!.last) - Number(row!.first)).toBe((Number(row!.n) - 1) * 1_800_000);
      const [cursor] = await warehouse.all(`SELECT epoch_ms(fetched_from) AS f, epoch_ms(fetched_until) AS u FROM ingest_cursors`);
      expect(cursor).toEqual({ f: from.getTime(), u: Number(row!.last) + 1_800_000 });
    } finally {
      await client.close();
      warehouse.close();
    }
  });
});

describe('BoundedQueue', () => {
  it('holds a producer while full, and gives the consumer everything once enough has gathered or it is closed', async () => {
    const queue = new BoundedQueue<number>(10, (n) => n);
    await queue.push(6);
    let pushed = false;
    await queue.push(5); // 11: full from now on
    const third = queue.push(1).then(() => (pushed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(pushed).toBe(false);
    expect(await queue.take(10)).toEqual([6, 5]);
    await third;
    expect(pushed).toBe(true);
    const last = queue.take(10);
    queue.close();
    expect(await last).toEqual([1]);
    expect(await queue.take(10)).toBeUndefined();
  });
});
