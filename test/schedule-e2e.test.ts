// End to end: `tariffs schedule` (built CLI, child process) against the sandbox, with schedules
// compressed to seconds. The sandbox publishes "today" step by step (setVisibleUntil) and the
// warehouse — and the reports — follow; an analyst can read the file between runs; SIGTERM in the
// middle of a job leaves a consistent file; `tariffs run rates` during a scheduled run exits 75.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { runCli } from './helpers/runCli.js';
import { peek, startScheduler, writeConfig, type SchedulerProcess } from './helpers/schedulerProcess.js';
import { tempDir } from './helpers/warehouseTools.js';
import { PROFILE, PROFILE_OPTIONS } from './helpers/testProfile.js';

const TODAY_TARIFF = 'E-1R-AGILE-24-10-01-H'; // 2026-03-28 20:00Z … 2026-03-29 23:30Z
const LONG_TARIFF = 'E-1R-AGILE-18-02-21-A'; // 81,403 half-hours from 2017

async function eventually<T>(fn: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Names and contents of every file under dir: changes when any report is rewritten. */
function snapshot(dir: string): string {
  if (!existsSync(dir)) return '';
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(`${path}\n`).update(readFileSync(path));
    }
  };
  walk(dir);
  return hash.digest('hex');
}

const noDuplicates = `SELECT tariff_code, rate_type, valid_from, payment_method, count(*) AS n
  FROM unit_rates GROUP BY ALL HAVING count(*) > 1`;

describe('tariffs schedule: compressed cycles against the sandbox', () => {
  let sandbox: Sandbox;
  let scheduler: SchedulerProcess;
  const tmp = tempDir('tariffs-sched-');
  const db = tmp.file('warehouse.duckdb');
  const reportsDir = tmp.file('reports');
  const latest = async () => (await peek(db, `SELECT count(*) AS n, max(valid_from) AS latest FROM unit_rates WHERE tariff_code = '${TODAY_TARIFF}'`))[0]!;

  beforeAll(async () => {
    sandbox = await startSandbox({ ...PROFILE_OPTIONS, visibleUntil: new Date('2026-03-28T22:00:00Z') });
    const config = writeConfig(tmp.file('tariffs.json'), {
      db, base_url: sandbox.baseUrl, tariffs: [TODAY_TARIFF], default_from: '2026-03-28T00:00:00Z',
      // reports keeps its daily schedule: here it runs as the follow-up of runs that stored rates.
      schedules: { rates: '*/2 * * * * *', day_ahead: 'off', products: 'off' },
      reports: { dir: reportsDir, formats: ['csv'] },
    });
    scheduler = startScheduler(['--config', config, '--busy-timeout', '20']);
  });
  afterAll(async () => {
    if (scheduler.child.exitCode === null) scheduler.stop('SIGKILL');
    await sandbox.close();
    tmp.remove();
  });

  it('stores each newly published stretch of prices within a few cycles, readable between runs', async () => {
    await scheduler.waitFor((l) => l.msg === 'scheduler started', 15_000, 'scheduler started');
    await eventually(async () => expect(await latest()).toEqual({ n: 4, latest: '2026-03-28T21:30:00Z' }));

    sandbox.setVisibleUntil(new Date('2026-03-29T06:00:00Z'));
    await eventually(async () => expect(await latest()).toEqual({ n: 4 + 16, latest: '2026-03-29T05:30:00Z' }));

    sandbox.setVisibleUntil(new Date('2026-03-29T18:00:00Z'));
    await eventually(async () => expect(await latest()).toEqual({ n: 4 + 16 + 24, latest: '2026-03-29T17:30:00Z' }));

    const runs = await peek(db, "SELECT status, count(*) AS n FROM ingest_runs WHERE job = 'rates' GROUP BY status ORDER BY status");
    expect(runs.find((r) => r.status === 'ok')?.n).toBeGreaterThanOrEqual(3);
    expect(await peek(db, noDuplicates)).toEqual([]);
    // One job at a time: no two runs recorded as overlapping.
    expect(await peek(db, `SELECT a.run_id FROM ingest_runs a JOIN ingest_runs b
        ON a.run_id < b.run_id AND b.started_at < a.finished_at AND a.finished_at IS NOT NULL`)).toEqual([]);
  }, 90_000);

  it('re-exports the reports after a run that stored new rates', async () => {
    await scheduler.waitFor((l) => l.msg === 'job ok' && l.job === 'reports', 30_000, 'a reports run');
    const before = snapshot(reportsDir);
    expect(before).not.toBe('');
    const mark = scheduler.lines.length;
    sandbox.setVisibleUntil(undefined); // the rest of the 29th
    await scheduler.waitFor((l) => scheduler.lines.indexOf(l) >= mark && l.msg === 'job ok' && l.job === 'reports',
      30_000, 'reports after the new prices');
    await eventually(async () => expect(snapshot(reportsDir)).not.toBe(before), 10_000);
    const recorded = await peek(db, "SELECT status FROM ingest_runs WHERE job = 'reports' ORDER BY run_id DESC LIMIT 1");
    expect(recorded).toEqual([{ status: 'ok' }]);
  }, 90_000);

  it('SIGTERM between jobs exits 0 and leaves no run open', async () => {
    scheduler.stop('SIGTERM');
    expect(await scheduler.exited).toEqual({ code: 0, signal: null });
    expect(await peek(db, "SELECT run_id, status FROM ingest_runs WHERE status = 'running' OR finished_at IS NULL")).toEqual([]);
    expect(scheduler.lines.filter((l) => (l.level ?? 0) >= 50 && l.job !== 'reports')).toEqual([]);
    expect(scheduler.other).toEqual([]);
  }, 30_000);
});

describe('tariffs schedule: SIGTERM in the middle of a job, and a second writer', () => {
  let sandbox: Sandbox;
  const tmp = tempDir('tariffs-sigterm-');

  beforeAll(async () => {
    // Slow responses make the first run (the whole 2017-2021 series) last several seconds (the spec
    // profile's 100-record pages, ten times as many, need less delay each for the same).
    sandbox = await startSandbox({ ...PROFILE_OPTIONS, latencyMs: PROFILE === 'spec' ? 25 : 300 });
  });
  afterAll(async () => {
    await sandbox.close();
    tmp.remove();
  });

  const configFor = (name: string) => writeConfig(tmp.file(`${name}.json`), {
    db: tmp.file(`${name}.duckdb`), base_url: sandbox.baseUrl, tariffs: [LONG_TARIFF], default_from: '2017-01-01',
    schedules: { rates: '* * * * * *', day_ahead: 'off', products: 'off', reports: 'off' },
  });
  const midRun = async (scheduler: SchedulerProcess) => {
    await scheduler.waitFor((l) => l.msg === 'job started' && l.job === 'rates', 15_000, 'the first rates run');
    const before = sandbox.requests.length;
    await eventually(async () => expect(sandbox.requests.length).toBeGreaterThan(before + 3), 15_000);
  };

  it('waits for the running job, exits 0; meanwhile `tariffs run rates` exits 75', async () => {
    const config = configFor('graceful');
    const db = tmp.file('graceful.duckdb');
    // a stop timeout no run here comes near: the strict profile's throttled backfill takes about a
    // minute, the default's limit, on a loaded machine
    const scheduler = startScheduler(['--config', config, '--stop-timeout', '600']);
    await midRun(scheduler);
    // The sandbox answers nothing more until the signal has landed: the run is still going then,
    // however slowly this machine runs the test.
    const release = sandbox.holdResponses();
    try {
      const second = await runCli(['run', 'rates', '--config', config, '--busy-timeout', '1']);
      expect(second.code).toBe(75);
      expect(second.stderr).toMatch(/is being written by process \d+ \(another tariffs job\); waited 1 s/);

      scheduler.stop('SIGTERM');
      await scheduler.waitFor((l) => l.msg === 'stopping: waiting for the running job', 15_000, 'the scheduler waiting for its job');
    } finally {
      release();
    }
    expect(await scheduler.exited).toEqual({ code: 0, signal: null });
    expect(scheduler.lines.find((l) => l.msg === 'scheduler stopped')?.result).toBe('finished');
    // Every run finished ok, and together they stored the series once.
    expect(await peek(db, "SELECT job, status, sum(rows_inserted) AS rows_inserted FROM ingest_runs GROUP BY ALL")).toEqual([
      { job: 'rates', status: 'ok', rows_inserted: 81_403 },
    ]);
    expect(await peek(db, noDuplicates)).toEqual([]);
  }, 120_000);

  it('with --stop-timeout 0 interrupts it: the run is closed as interrupted, the file consistent, the next run resumes', async () => {
    const config = configFor('abort');
    const db = tmp.file('abort.duckdb');
    const scheduler = startScheduler(['--config', config, '--stop-timeout', '0']);
    await midRun(scheduler);
    const release = sandbox.holdResponses(); // the run cannot end before the signal
    try {
      scheduler.stop('SIGTERM');
      expect(await scheduler.exited).toEqual({ code: 0, signal: null });
    } finally {
      release();
    }
    expect(scheduler.lines.find((l) => l.msg === 'scheduler stopped')?.result).toBe('aborted');

    const runs = await peek(db, 'SELECT status, finished_at IS NOT NULL AS closed, rows_inserted FROM ingest_runs ORDER BY run_id');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'interrupted', closed: true });
    const stored = (await peek(db, 'SELECT count(*) AS n FROM unit_rates'))[0]!.n as number;
    expect(stored).toBe(runs[0]!.rows_inserted);
    expect(stored).toBeLessThan(81_403);
    expect(await peek(db, noDuplicates)).toEqual([]);
    // What was committed is contiguous from the start: no hole for the next run to miss.
    expect(await peek(db, `SELECT valid_from FROM (
        SELECT valid_from, lag(valid_to) OVER (ORDER BY valid_from) AS prev_to FROM unit_rates)
      WHERE prev_to IS NOT NULL AND prev_to <> valid_from`)).toEqual([]);

    const resumed = await runCli(['run', 'rates', '--config', config, '--format', 'json']);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)[0]).toMatchObject({ job: 'rates', status: 'ok' });
    expect((await peek(db, 'SELECT count(*) AS n FROM unit_rates'))[0]!.n).toBe(81_403);
  }, 120_000);
});
