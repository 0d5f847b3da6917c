// The scheduled job and the analysts side by side, with real processes: a backfill against the
// sandbox (with latency) while other processes keep querying `--db` (`tariffs sql` every 200 ms,
// a plain DuckDB client opening and closing it every 50 ms like a dashboard); the daemon ticking
// while an analyst's read-only session stays open on `--db`; and a second writer, which is the
// only thing a job ever waits for (and then retries soon, without backing off).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { runCli } from './helpers/runCli.js';
import { startScheduler, writeConfig } from './helpers/schedulerProcess.js';
import { ratesFingerprint, tempDir } from './helpers/warehouseTools.js';

const READER = fileURLToPath(new URL('./helpers/duckdbReader.mjs', import.meta.url));
const BACKFILL = 'E-1R-AGILE-18-02-21-J';
const WINDOW = ['--from', '2021-01-01T00:00:00Z', '--to', '2022-07-01T00:00:00Z'];
const TODAY_TARIFF = 'E-1R-AGILE-24-10-01-H'; // 2026-03-28 20:00Z … 2026-03-29 23:30Z
const COUNT = 'SELECT count(*) AS n FROM unit_rates';

interface Line { at?: number; rows?: { n: string | number }[]; error?: string; ready?: boolean }

/** A process printing JSON lines; `lines` fills as they come. */
function jsonLines(child: ChildProcess): { lines: Line[]; next: () => Promise<Line> } {
  const lines: Line[] = [];
  const waiters: ((l: Line) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    const line = JSON.parse(text) as Line;
    lines.push(line);
    waiters.shift()?.(line);
  });
  return { lines, next: () => new Promise((resolve) => waiters.push(resolve)) };
}

function reader(mode: 'poll' | 'hold', db: string, sql: string, intervalMs = 0): ChildProcess {
  return spawn(process.execPath, [READER, mode, db, sql, String(intervalMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
}

const countOf = (line: Line) => Number(line.rows![0]!.n);

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a backfill while analysts query --db', () => {
  let sandbox: Sandbox;
  const tmp = tempDir('tariffs-concurrency-');
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
    tmp.remove();
  });

  it('answers every query with counts that never go down, and stores exactly what a backfill alone stores', async () => {
    const alone = tmp.file('alone.duckdb');
    const shared = tmp.file('shared.duckdb');
    const args = (db: string) => ['ingest', '--db', db, '--base-url', sandbox.baseUrl, '--tariff', BACKFILL, ...WINDOW, '--no-products', '--format', 'json'];
    const solo = await runCli(args(alone));
    expect(solo.code, solo.stderr).toBe(0);

    sandbox.setLatency(150); // the shared backfill lasts seconds, so that readers meet it at every stage
    const backfill = runCli(args(shared));
    // --db exists (empty, with its schema) from the job's first moment
    await waitUntil(() => existsSync(shared), 60_000, 'the published file');
    const dashboard = reader('poll', shared, COUNT, 50);
    const polled = jsonLines(dashboard);
    const cli: { code: number | null; n?: number; stderr: string }[] = [];
    let running = true;
    void backfill.then(() => (running = false));
    while (running) {
      const r = await runCli(['sql', '--db', shared, '--format', 'json', COUNT]);
      cli.push({ code: r.code, stderr: r.stderr, n: r.code === 0 ? Number(JSON.parse(r.stdout)[0].n) : undefined });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const done = await backfill;
    sandbox.setLatency(0);
    // one more round of each after the job is over
    const last = await runCli(['sql', '--db', shared, '--format', 'json', COUNT]);
    cli.push({ code: last.code, stderr: last.stderr, n: last.code === 0 ? Number(JSON.parse(last.stdout)[0].n) : undefined });
    const seen = polled.lines.length;
    await waitUntil(() => polled.lines.length > seen, 10_000, 'a last dashboard query');
    dashboard.kill('SIGTERM');

    expect(done.code, done.stderr).toBe(0);
    expect(cli.filter((c) => c.code !== 0)).toEqual([]);
    expect(polled.lines.filter((l) => l.error !== undefined)).toEqual([]);
    expect(cli.length).toBeGreaterThan(1);
    expect(polled.lines.length).toBeGreaterThan(cli.length);
    const cliCounts = cli.map((c) => c.n!);
    const dashboardCounts = polled.lines.map(countOf);
    for (const counts of [cliCounts, dashboardCounts]) {
      expect(counts.slice(1).every((n, i) => n >= counts[i]!)).toBe(true);
    }
    const stored = await ratesFingerprint(shared);
    expect(stored).toEqual(await ratesFingerprint(alone));
    expect(stored.rows).toBeGreaterThan(20_000);
    expect(cliCounts.at(-1)).toBe(stored.rows);
    expect(dashboardCounts.at(-1)).toBe(stored.rows);
  }, 180_000);
});

describe('the daemon while an analyst keeps a read-only session open', () => {
  let sandbox: Sandbox;
  const tmp = tempDir('tariffs-concurrency-sched-');
  beforeAll(async () => {
    sandbox = await startSandbox({ visibleUntil: new Date('2026-03-28T22:00:00Z') });
  });
  afterAll(async () => {
    await sandbox.close();
    tmp.remove();
  });

  /** A config tracking TODAY_TARIFF in `db` with `rates` on `cron`, and the first run done. */
  async function firstRun(name: string, cron: string): Promise<{ db: string; config: string }> {
    const db = tmp.file(`${name}.duckdb`);
    const config = configFor(name, db, cron);
    const first = await runCli(['run', 'rates', '--config', config, '--format', 'json']);
    expect(first.code, first.stderr).toBe(0);
    return { db, config };
  }
  const configFor = (name: string, db: string, cron: string) => writeConfig(tmp.file(`${name}.json`), {
    db, base_url: sandbox.baseUrl, tariffs: [TODAY_TARIFF], default_from: '2026-03-28T00:00:00Z',
    schedules: { rates: cron, day_ahead: 'off', products: 'off', reports: 'off' },
  });

  it('completes every tick, a new session sees the new rows, and status lists the runs', async () => {
    const { db, config } = await firstRun('warehouse', '*/3 * * * * *');

    const notebook = reader('hold', db, `SELECT count(*) AS n FROM unit_rates WHERE tariff_code = '${TODAY_TARIFF}'`);
    const held = jsonLines(notebook);
    const scheduler = startScheduler(['--config', config, '--busy-timeout', '2']);
    try {
      await waitUntil(() => held.lines.length > 0, 30_000, 'the notebook session');
      const before = countOf(held.lines[0]!);
      expect(before).toBe(4); // 20:00Z-21:30Z of the 28th
      sandbox.setVisibleUntil(new Date('2026-03-29T06:00:00Z'));
      const start = scheduler.lines.length;
      const ends = () => scheduler.lines.slice(start).filter((l) => l.job === 'rates' && /^job (ok|partial|failed|interrupted|skipped)$/.test(l.msg ?? ''));
      await waitUntil(() => ends().length >= 3, 60_000, 'three ticks of the rates job');
      expect(ends().slice(0, 3).map((l) => l.msg)).toEqual(['job ok', 'job ok', 'job ok']);
      // the open session still sees its snapshot; a new one sees the new rows
      notebook.stdin!.write('again\n');
      expect(countOf(await held.next())).toBe(before);
      const fresh = await runCli(['sql', '--db', db, '--format', 'json', `SELECT count(*) AS n FROM unit_rates WHERE tariff_code = '${TODAY_TARIFF}'`]);
      expect(fresh.code, fresh.stderr).toBe(0);
      expect(Number(JSON.parse(fresh.stdout)[0].n)).toBe(4 + 16);
      const status = await runCli(['status', '--config', config, '--format', 'json', '--now', '2026-03-28T23:00:00Z']);
      expect(status.code, status.stderr).toBe(0);
      const rates = JSON.parse(status.stdout).jobs.find((j: { job: string }) => j.job === 'rates');
      expect(rates).toMatchObject({ status: 'ok', busy_attempts: 0 });
      const runs = await runCli(['sql', '--db', db, '--format', 'json', `SELECT status, count(*) AS n FROM ingest_runs WHERE job = 'rates' GROUP BY 1`]);
      expect(JSON.parse(runs.stdout)).toHaveLength(1);
      expect(JSON.parse(runs.stdout)[0].status).toBe('ok');
      expect(Number(JSON.parse(runs.stdout)[0].n)).toBeGreaterThanOrEqual(1 + 3);
    } finally {
      scheduler.stop('SIGTERM');
      await scheduler.exited;
      notebook.stdin!.end();
      notebook.kill('SIGTERM');
    }
  }, 180_000);

  it('waits for another writer, then retries soon without skipping ticks; status shows the busy attempts', async () => {
    const { db, config } = await firstRun('busy', '*/30 * * * *');
    // another tariffs job: a process holding the writers' lock
    const holder = spawn(process.execPath, ['--input-type=module', '-e', `
      const { holdWriteLock } = await import(${JSON.stringify(new URL('../dist/src/store/WriteSession.js', import.meta.url).href)});
      await holdWriteLock(${JSON.stringify(db)});
      process.stdout.write('held\\n');
      process.stdin.resume();
      process.stdin.on('end', () => process.exit(0));`], { stdio: ['pipe', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    let released = false;
    try {
      const busy = await runCli(['run', 'rates', '--config', config, '--busy-timeout', '1', '--format', 'json']);
      expect(busy.code).toBe(75);
      expect(busy.stderr).toMatch(/is being written by process \d+ \(another tariffs job\); waited 1 s/);
      const seen = await runCli(['status', '--config', config, '--format', 'json', '--check', '--now', '2026-03-28T21:00:00Z']);
      expect(JSON.parse(seen.stdout).jobs.find((j: { job: string }) => j.job === 'rates')).toMatchObject({ status: 'ok', busy_attempts: 1 });
      expect(seen.stderr).toMatch(/job rates: 1 attempt\(s\) since its latest run found another tariffs job writing/);

      // the daemon, ticking every 2 s while the writer is there: every tick tries (and waits
      // --busy-timeout), none is skipped for backing off; once the writer is gone a run succeeds
      sandbox.setVisibleUntil(new Date('2026-03-29T06:00:00Z'));
      const daemonConfig = configFor('busy-daemon', db, '*/2 * * * * *');
      const scheduler = startScheduler(['--config', daemonConfig, '--busy-timeout', '1', '--busy-retry', '1']);
      let busyRuns: number;
      try {
        const notRun = () => scheduler.lines.filter((l) => l.job === 'rates' && /another tariffs job is writing/.test(l.msg ?? '')).length;
        await waitUntil(() => notRun() >= 3, 60_000, 'three busy attempts of the daemon');
        busyRuns = notRun();
        holder.stdin!.end();
        released = true;
        await scheduler.waitFor((l) => l.job === 'rates' && l.msg === 'job ok', 30_000, 'a run after the writer left');
        expect(scheduler.lines.filter((l) => /backing off/.test(l.msg ?? ''))).toEqual([]);
        expect(scheduler.lines.some((l) => /retrying soon/.test(l.msg ?? ''))).toBe(true);
      } finally {
        scheduler.stop('SIGTERM');
        await scheduler.exited;
      }
      const status = await runCli(['status', '--config', config, '--format', 'json', '--now', '2026-03-28T21:00:00Z']);
      const rates = JSON.parse(status.stdout).jobs.find((j: { job: string }) => j.job === 'rates');
      expect(rates).toMatchObject({ status: 'ok', busy_attempts: 0 });
      const recorded = await runCli(['sql', '--db', db, '--format', 'json', `SELECT job, count(*) AS n, min(waited_seconds) AS waited FROM busy_attempts GROUP BY job`]);
      expect(JSON.parse(recorded.stdout)).toEqual([{ job: 'rates', n: 1 + busyRuns, waited: 1 }]);
      const fresh = await runCli(['sql', '--db', db, '--format', 'json', `SELECT count(*) AS n FROM unit_rates WHERE tariff_code = '${TODAY_TARIFF}'`]);
      expect(Number(JSON.parse(fresh.stdout)[0].n)).toBe(4 + 16);
    } finally {
      if (!released) holder.stdin!.end();
    }
  }, 180_000);
});
