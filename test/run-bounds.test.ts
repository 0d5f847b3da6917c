// Nothing hangs: a body that trickles in one byte a second (never idle long enough for the idle
// timeouts) fails its attempt at the attempt deadline, a retryable TIMEOUT, within the request's
// budget; and a whole run stops at max_run_seconds as on SIGTERM: recorded, lock released, what
// was stored kept. Real servers on port 0 (the sandbox behind a trickling proxy).
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OctopusClient, RetriesExhaustedError, type ApiError } from '../src/api/index.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { holdWriteLock } from '../src/store/WriteSession.js';
import { startProxy, type Proxy } from './helpers/proxy.js';
import { runCli } from './helpers/runCli.js';
import { query, tempDir } from './helpers/warehouseTools.js';

const J = 'E-1R-AGILE-18-02-21-J';
const VAR = 'E-1R-VAR-17-01-11-A';
const WEEK = { from: new Date('2024-05-01T00:00:00Z'), to: new Date('2024-05-08T00:00:00Z') };

let sandbox: Sandbox;
let proxy: Proxy;
const tmp = tempDir('tariffs-bounds-');

beforeAll(async () => {
  sandbox = await startSandbox();
  // every rates page of region J trickles; everything else passes straight through
  proxy = await startProxy(sandbox.baseUrl, { trickle: (path) => path.includes(`/${J}/`) });
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
  tmp.remove();
});

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a failure');
}

function week(client: OctopusClient) {
  return (async () => {
    for await (const _ of client.electricityRates('AGILE-18-02-21', J, 'standard-unit-rates', WEEK)) { /* drain */ }
  })();
}

describe('a trickling body', () => {
  it('fails each attempt at the per-attempt deadline as a retryable TIMEOUT, then RETRIES_EXHAUSTED', async () => {
    const client = new OctopusClient({
      baseUrl: proxy.baseUrl,
      retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 10 },
      timeouts: { attemptMs: 1_500 }, // the idle body timeout (30 s) never fires on a trickle
    });
    const started = Date.now();
    try {
      const error = await failureOf(week(client));
      const seconds = (Date.now() - started) / 1000;
      expect(error).toBeInstanceOf(RetriesExhaustedError);
      expect(error.code).toBe('RETRIES_EXHAUSTED');
      expect(error.attempts).toBe(2);
      expect((error as RetriesExhaustedError).lastCode).toBe('TIMEOUT');
      expect(((error as { cause?: Error }).cause)?.message).toMatch(/no complete response within 1\.5s \(the per-attempt limit\)/);
      expect(seconds).toBeGreaterThanOrEqual(2.9); // two attempts of 1.5 s, each waited out (load only lengthens it)
    } finally {
      await client.close();
    }
  });

  it('an attempt never outlives the total budget: its deadline is what is left of it', async () => {
    const client = new OctopusClient({
      baseUrl: proxy.baseUrl,
      retry: { maxAttempts: 6, baseDelayMs: 10, maxDelayMs: 10, maxTotalMs: 2_000 },
      timeouts: { attemptMs: 60_000 },
    });
    const started = Date.now();
    try {
      const error = await failureOf(week(client));
      const seconds = (Date.now() - started) / 1000;
      expect(error.code).toBe('RETRIES_EXHAUSTED');
      expect(error.message).toMatch(/time budget of 2s/);
      expect(((error as { cause?: Error }).cause)?.message).toMatch(/what was left of the time budget/);
      expect(seconds).toBeGreaterThanOrEqual(1.9); // the budget was spent, not cut short
    } finally {
      await client.close();
    }
  });
});

describe('max_run_seconds', () => {
  it('stops a run held up by a trickle: recorded as interrupted, exit 1, lock released, other tariffs kept', async () => {
    const db = tmp.file('bounded.duckdb');
    const config = tmp.file('bounded.json');
    writeFileSync(config, JSON.stringify({ max_run_seconds: 3 }));
    const started = Date.now();
    const result = await runCli(['ingest', '--tariff', J, '--tariff', VAR, '--from', '2024-01-01', '--no-products',
      '--db', db, '--base-url', proxy.baseUrl, '--config', config, '--format', 'json'], { timeoutMs: 60_000 });
    const seconds = (Date.now() - started) / 1000;
    expect(result.signal).toBeNull(); // not killed by the test's own timeout
    expect(result.code).toBe(1);
    expect(seconds).toBeGreaterThanOrEqual(3); // the bound was waited out; how long the exit took after it is load's business
    expect(result.stderr).toMatch(/stopped after max_run_seconds \(3 s\)/);
    const summary = JSON.parse(result.stdout)[0];
    expect(summary).toMatchObject({ status: 'interrupted', tariffs: 2 });
    const runs = await query(db, 'SELECT status, error FROM ingest_runs');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'interrupted' });
    expect(runs[0]!.error).toMatch(/max_run_seconds/);
    // the one that trickled has nothing half-written; the other was stored if it finished within
    // the 3 s (usually; on a loaded machine it may not have)
    const stored = await query(db, 'SELECT tariff_code, count(*) AS n FROM unit_rates GROUP BY 1 ORDER BY 1');
    expect(stored.map((r) => r.tariff_code)).not.toContain(J);
    expect(stored.every((r) => r.tariff_code === VAR)).toBe(true);
    // the lock is released: a writer opens the file at once
    const release = await holdWriteLock(db, 0);
    release();
  });
});
