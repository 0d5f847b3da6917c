// `tariffs ingest` as cron runs it: killed with SIGKILL at several points and re-run (identical to
// a clean run), two at once (one exits 75 and writes nothing), a bad record (that tariff fails,
// the others are stored, exit 1), SIGTERM (stops cleanly, non-zero), and `tariffs sql` output.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { CLI, runCli } from './helpers/runCli.js';
import { PROFILE, PROFILE_OPTIONS } from './helpers/testProfile.js';
import { ingest, query, ratesFingerprint, tempDir } from './helpers/warehouseTools.js';

const A = 'E-1R-AGILE-18-02-21-A';
const J = 'E-1R-AGILE-18-02-21-J';
const VAR = 'E-1R-VAR-17-01-11-A';
const FROM = '2017-01-01';
/** Per-request latency that makes a backfill last seconds, so signals land mid-run (the spec
 *  profile's pages hold 100 records, not 1500, and its throttling adds seconds of its own). */
const SLOW_MS = PROFILE === 'spec' ? 10 : 60;

let sandbox: Sandbox;
const tmp = tempDir('tariffs-ingest-cli-');
const clean = tmp.file('clean.duckdb');
/** The clean run, ingested in process while the cases below run their CLIs (each case, waiting on
 *  its own sandbox's latency and throttling, awaits it only to compare with it). */
let cleanIngested: Promise<unknown>;
const cleanFingerprint = async () => {
  await cleanIngested;
  return ratesFingerprint(clean);
};

function ingestArgs(db: string, server: Sandbox = sandbox): string[] {
  return ['ingest', '--tariff', A, '--tariff', J, '--tariff', VAR, '--from', FROM, '--db', db, '--base-url', server.baseUrl, '--format', 'json'];
}

/** A sandbox of the case's own: the cases that set latency or faults run side by side (each
 *  spends its time waiting on the API, not computing), so none may change another's server. */
async function withOwnSandbox<T>(options: { latencyMs?: number }, body: (server: Sandbox) => Promise<T>): Promise<T> {
  const server = await startSandbox({ ...PROFILE_OPTIONS, ...options });
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

/** Starts `tariffs ingest` and sends `signal` as soon as its log says it committed rates
 *  `afterCommits` times (an event, not a time: the process is then surely running its ingest);
 *  resolves with its exit. */
function ingestAndSignal(server: Sandbox, db: string, afterCommits: number, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...ingestArgs(db, server)], { env: { ...process.env, TARIFFS_LOG_LEVEL: 'debug' } });
    let stderr = '';
    let commits = 0;
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      const before = commits;
      commits = stderr.split('"msg":"batches written"').length - 1;
      if (before < afterCommits && commits >= afterCommits) child.kill(signal);
    });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code, sig) => resolve({ code, signal: sig, stderr }));
  });
}

beforeAll(async () => {
  sandbox = await startSandbox(PROFILE_OPTIONS);
  cleanIngested = ingest(clean, sandbox.baseUrl, { tariffs: [A, J, VAR], from: new Date('2017-01-01T00:00:00Z') });
  cleanIngested.catch(() => {}); // awaited (and so reported) by the cases that compare with it
});
afterAll(async () => {
  await cleanIngested.catch(() => {});
  await sandbox.close();
  tmp.remove();
});

// The cases that run whole ingests run side by side (describe.concurrent), each on its own sandbox.
describe.concurrent('tariffs ingest, interrupted', () => {
  it('SIGKILL at several points, then a re-run: identical to one clean run', async ({ expect }) => {
    const db = tmp.file('killed.duckdb');
    // a backfill then takes several seconds, mostly waiting on the API
    await withOwnSandbox({ latencyMs: SLOW_MS }, async (server) => {
      const killed: (number | null)[] = [];
      // each run commits every RATES_PER_COMMIT rates and at its end: killed after its first commit,
      // the first run keeps part of the backfill, the later ones the rest (or nothing new)
      for (const afterCommits of [1, 1, 1, 1, 1]) {
        const run = await ingestAndSignal(server, db, afterCommits, 'SIGKILL');
        killed.push(run.signal === 'SIGKILL' ? afterCommits : null);
      }
      expect(killed.filter((k) => k !== null).length).toBeGreaterThanOrEqual(3); // most runs were really killed
      server.setLatency(0);
      const rerun = await runCli(ingestArgs(db, server));
      expect(rerun.code).toBe(0);
    });
    expect(await ratesFingerprint(db)).toEqual(await cleanFingerprint());
    // the killed runs are recorded as interrupted, not left 'running'
    const runs = await query(db, `SELECT status, count(*) AS n FROM ingest_runs GROUP BY 1 ORDER BY 1`);
    expect(runs.find((r) => r.status === 'running')).toBeUndefined();
    expect(runs.find((r) => r.status === 'ok')?.n).toBeGreaterThanOrEqual(1);
  }, 180_000); // six CLI runs, five waiting for their nth commit: a budget for a loaded machine, not a speed claim

  it('SIGTERM finishes the current write, exits non-zero with a message, and leaves a consistent file', async ({ expect }) => {
    const db = tmp.file('sigterm.duckdb');
    await withOwnSandbox({ latencyMs: SLOW_MS }, async (server) => {
      const run = await ingestAndSignal(server, db, 1, 'SIGTERM');
      expect(run.code).toBe(143);
      expect(run.stderr).toMatch(/SIGTERM/);
      expect(await query(db, `SELECT valid_from FROM unit_rates GROUP BY tariff_code, rate_type, valid_from, payment_method HAVING count(*) > 1`)).toEqual([]);
      expect(await query(db, `SELECT status FROM ingest_runs`)).toEqual([{ status: 'interrupted' }]);
      // and a re-run completes it
      server.setLatency(0);
      expect((await runCli(ingestArgs(db, server))).code).toBe(0);
    });
    expect(await ratesFingerprint(db)).toEqual(await cleanFingerprint());
  }, 150_000); // side by side with the other runs: a budget for a loaded machine, not a speed claim
});

describe.concurrent('tariffs ingest, concurrency and failures', () => {
  it('two at once: one completes; another waits for it, or exits 75 after --busy-timeout naming the file and writing nothing', async ({ expect }) => {
    const db = tmp.file('concurrent.duckdb');
    await withOwnSandbox({ latencyMs: SLOW_MS }, async (server) => {
      const first = runCli(ingestArgs(db, server));
      // the first run holds the file once it has created it; then start the second
      const started = Date.now();
      while (!existsSync(db) && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      const second = await runCli([...ingestArgs(db, server), '--busy-timeout', '1']);
      expect(second.code).toBe(75);
      expect(second.stderr.trim().split('\n')).toHaveLength(1);
      expect(second.stderr).toContain(db);
      expect(second.stderr).toMatch(/is being written by process \d+ \(another tariffs job\); waited 1 s/);
      // waits for the first; then, as cron's next run would, goes on from the cursors the first left
      const patient = runCli([...ingestArgs(db, server).filter((a, i, all) => a !== '--from' && all[i - 1] !== '--from'), '--busy-timeout', '300']);
      expect((await first).code).toBe(0);
      expect((await patient).code).toBe(0);
    });
    expect(await query(db, 'SELECT status, count(*) AS runs FROM ingest_runs GROUP BY 1')).toEqual([{ status: 'ok', runs: 2 }]);
    expect(await query(db, 'SELECT job, waited_seconds FROM busy_attempts')).toEqual([{ job: 'ingest', waited_seconds: 1 }]);
  }, 150_000);

  it('an invalid record fails that tariff only, naming tariff, URL, record index and field; exit 1', async ({ expect }) => {
    const db = tmp.file('invalid.duckdb');
    const result = await withOwnSandbox({}, async (server) => {
      server.setFaults(['invalid-record:path=-J/,index=3,field=value_inc_vat,value=abc']);
      return runCli(ingestArgs(db, server));
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(J);
    expect(result.stderr).toMatch(/standard-unit-rates\/\?period_from=.*record 3: field 'value_inc_vat'/);
    const stored = await query(db, 'SELECT tariff_code, count(*) AS n FROM unit_rates GROUP BY 1 ORDER BY 1');
    expect(stored.map((r) => r.tariff_code)).toEqual([A, VAR]);
    const summary = JSON.parse(result.stdout)[0];
    expect(summary).toMatchObject({ status: 'partial', tariffs: 3, tariffs_failed: 1 });
  }, 120_000);

  it('bad usage exits 2 naming the flag', async ({ expect }) => {
    const result = await runCli(['ingest', '--tariff', 'AGILE', '--db', tmp.file('x.duckdb')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--tariff: 'AGILE' is not a tariff code/);
    const badFrom = await runCli(['ingest', '--tariff', A, '--from', 'soon', '--db', tmp.file('x.duckdb')]);
    expect(badFrom.code).toBe(2);
    expect(badFrom.stderr).toMatch(/--from/);
  });
});

describe('tariffs sql', () => {
  it('JSON: an array of row objects, instants as ISO UTC, numbers (counts too) as numbers', async () => {
    await cleanIngested;
    const result = await runCli(['sql', '--db', clean, '--format', 'json',
      `SELECT tariff_code, count(*) AS slots, min(slot_start) AS first, min(local_date) AS first_day, avg(value_inc_vat) AS mean
       FROM rate_slots WHERE tariff_code = '${J}' GROUP BY 1`]);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout);
    expect(rows).toEqual([{ tariff_code: J, slots: 76604, first: '2020-01-01T00:00:00Z', first_day: '2020-01-01', mean: expect.any(Number) }]);
  });

  it('CSV and table output, and a write is refused (read-only)', async () => {
    await cleanIngested;
    const csv = await runCli(['sql', '--db', clean, '--format', 'csv', `SELECT 'a,b' AS x, 1 AS n`]);
    expect(csv.stdout).toBe('x,n\n"a,b",1\n');
    const table = await runCli(['sql', '--db', clean, '--format', 'table', `SELECT 1 AS n`]);
    expect(table.stdout).toContain('1 row');
    const write = await runCli(['sql', '--db', clean, 'DELETE FROM unit_rates']);
    expect(write.code).toBe(1);
    expect(write.stderr).toMatch(/read-only/i);
  });
});
