// `tariffs status` names what it read and what is going on, through the built CLI: the database
// file and where its path came from (--db, TARIFFS_DB, the config's db), a failed job's error in
// the table, a job writing now (the writer's marker beside the file) and whether a scheduler
// daemon holds the schedule (its marker: alive, gone, or stale after a kill).
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../src/log/createLogger.js';
import { recordJobRun } from '../src/schedule/recordJobRun.js';
import { jobPaths } from '../src/store/jobPaths.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { WriteSession } from '../src/store/WriteSession.js';
import { runCli } from './helpers/runCli.js';
import { startScheduler, writeConfig } from './helpers/schedulerProcess.js';
import { tempDir } from './helpers/warehouseTools.js';

interface StatusJson {
  db: string;
  db_from: string;
  jobs: { job: string; status: string; error: string | null }[];
  running: { job: string; pid: number; started_at: string } | null;
  daemon: { running: boolean; pid: number | null; started_at: string | null };
  working_file_bytes: number | null;
}

const tmp = tempDir('tariffs-status-cli-');
const configDb = tmp.file('from-config.duckdb');
const envDb = tmp.file('from-env.duckdb');
let config: string;
/** Each test starts the CLI a few times; a busy machine makes that slow. */
const SLOW = 240_000;

/** A pid no process has: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

const json = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<StatusJson> => {
  const result = await runCli(['status', ...args, '--format', 'json'], { env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as StatusJson;
};

const table = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> => {
  const result = await runCli(['status', ...args, '--format', 'table'], { env: { COLUMNS: '150', ...env } });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
};

beforeAll(async () => {
  for (const db of [configDb, envDb]) (await Warehouse.open(db)).close();
  // one schedule, at new year's midnight: the daemon below waits and runs no job while the test looks
  config = writeConfig(tmp.file('c.json'), {
    db: configDb, schedules: { products: '0 0 1 1 *', rates: 'off', day_ahead: 'off', dispatches: 'off', reports: 'off' },
  });
}, SLOW);
afterAll(() => tmp.remove());

describe('tariffs status: which database', () => {
  it('names the file and where its path came from: TARIFFS_DB outranks the config, --db both', async () => {
    const [fromConfig, fromEnv, fromFlag, shown, shownConfig] = await Promise.all([
      json(['--config', config]),
      json(['--config', config], { TARIFFS_DB: envDb }),
      json(['--config', config, '--db', configDb], { TARIFFS_DB: envDb }),
      table(['--config', config], { TARIFFS_DB: envDb }),
      table(['--config', config]),
    ]);
    expect(fromConfig).toMatchObject({ db: configDb, db_from: 'config' });
    expect(fromEnv).toMatchObject({ db: envDb, db_from: 'TARIFFS_DB' });
    expect(fromFlag).toMatchObject({ db: configDb, db_from: '--db' });
    // the existing fields stay
    expect(Object.keys(fromEnv)).toEqual(expect.arrayContaining(['now', 'tariffs', 'jobs', 'meters', 'working_file_bytes']));
    expect(shown.split('\n')[0]).toBe(`Database: ${envDb} (from TARIFFS_DB; it outranks the db of --config ${config} (${configDb}))`);
    expect(shownConfig.split('\n')[0]).toBe(`Database: ${configDb} (from the db of --config ${config})`);
  }, SLOW);
});

describe('tariffs status: jobs', () => {
  const db = tmp.file('jobs.duckdb');
  // longer than any terminal: the table must not drop it (it did at 150 columns)
  const error = 'GET http://127.0.0.1:9/v1/products/AGILE-24-10-01/electricity-tariffs/E-1R-AGILE-24-10-01-H/standard-unit-rates/?page=3: '
    + 'connection refused after 6 attempts (attempt limit); the products list is unchanged, the last line ends here: ZZ-END';

  beforeAll(async () => {
    (await Warehouse.open(db)).close();
    await recordJobRun(db, {
      job: 'reports', startedAt: new Date('2026-03-28T20:15:00Z'), finishedAt: new Date('2026-03-28T20:16:00Z'), status: 'failed', error,
    }, { logger: silentLogger(), busyTimeoutMs: 5_000 });
  }, SLOW);

  it("shows a failed job's error whole in the table, and in JSON", async () => {
    const [s, shown] = await Promise.all([json(['--db', db]), table(['--db', db])]);
    expect(s.jobs.find((j) => j.job === 'reports')).toMatchObject({ status: 'failed', error });
    const jobs = shown.slice(shown.indexOf('\nJobs\n'));
    expect(jobs).toMatch(/\nreports +failed +GET /);
    expect(jobs.replace(/\s+/g, ' ')).toContain(`reports (run 1, failed): ${error}`);
  }, SLOW);

  it('shows the job writing the database now, and nothing once it finished or its process is gone', async () => {
    expect((await json(['--db', db])).running).toBeNull();
    const session = await WriteSession.open(db, { purpose: 'rates', busyTimeoutMs: 5_000 });
    try {
      const [s, shown] = await Promise.all([json(['--db', db]), table(['--db', db])]);
      expect(s.running).toMatchObject({ job: 'rates', pid: process.pid });
      expect(shown).toMatch(new RegExp(`\nRunning now: rates \\(pid ${process.pid}, since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d Europe/London\\)\n`));
    } finally {
      session.close();
    }
    expect(existsSync(jobPaths(db).writer)).toBe(false);
    expect((await json(['--db', db])).running).toBeNull();
    // a writer killed leaves its marker: its pid is gone, so nothing runs
    writeFileSync(jobPaths(db).writer, JSON.stringify({ pid: deadPid(), started_at: '2026-03-28T20:00:00.000Z', purpose: 'rates' }));
    const [stale, staleShown] = await Promise.all([json(['--db', db]), table(['--db', db])]);
    expect(stale.running).toBeNull();
    expect(staleShown).toContain('\nRunning now: no job\n');
  }, SLOW);
});

describe('tariffs status --check: products that left the list', () => {
  const db = tmp.file('products.duckdb');
  const BACK = 'E-1R-BACK-26-01-01-A'; // withdrawn, then listed again
  const GONE = 'E-1R-GONE-26-01-01-A'; // withdrawn

  beforeAll(async () => {
    const w = await Warehouse.open(db);
    try {
      await w.run(`INSERT INTO tariffs (tariff_code, product_code, fuel, register, first_seen_at, last_seen_at) VALUES
        ('${BACK}', 'BACK-26-01-01', 'electricity', 'single', TIMESTAMPTZ '2026-01-01 00:00:00+00', TIMESTAMPTZ '2026-03-01 00:00:00+00'),
        ('${GONE}', 'GONE-26-01-01', 'electricity', 'single', TIMESTAMPTZ '2026-01-01 00:00:00+00', TIMESTAMPTZ '2026-03-01 00:00:00+00')`);
      await w.run(`INSERT INTO product_changes VALUES
        ('BACK-26-01-01', 'withdrawn', TIMESTAMPTZ '2026-02-01 06:00:00+00'),
        ('BACK-26-01-01', 'added', TIMESTAMPTZ '2026-02-08 06:00:00+00'),
        ('GONE-26-01-01', 'withdrawn', TIMESTAMPTZ '2026-02-01 06:00:00+00')`);
    } finally {
      w.close();
    }
  }, SLOW);

  it('names only the product whose latest change is a withdrawal (one listed again is not withdrawn)', async () => {
    const tracked = writeConfig(tmp.file('products.json'), { db, tariffs: [BACK, GONE] });
    const result = await runCli(['status', '--check', '--config', tracked, '--now', '2026-03-01T12:00:00Z', '--format', 'json']);
    const s = JSON.parse(result.stdout) as { tariffs: { tariff: string; product_withdrawn_at: string | null }[] };
    expect(s.tariffs.map((t) => [t.tariff, t.product_withdrawn_at])).toEqual([[BACK, null], [GONE, '2026-02-01T06:00:00Z']]);
    expect(result.stderr.split('\n').filter((l) => l.includes('left the supplier'))).toEqual([
      `tariffs: status: ${GONE}: its product has left the supplier's products list (seen 2026-02-01T06:00:00Z; tariffs products --changes)`,
    ]);
  }, SLOW);
});

describe('tariffs status: the scheduler daemon', () => {
  it('says whether a daemon holds the schedule: running, stopped, or killed (a stale marker)', async () => {
    const before = await json(['--config', config]);
    expect(before.daemon).toEqual({ running: false, pid: null, started_at: null });
    const daemon = startScheduler(['--config', config]);
    try {
      await daemon.waitFor((l) => l.msg === 'scheduler started', 60_000, 'scheduler started');
      const [s, shown] = await Promise.all([json(['--config', config]), table(['--config', config])]);
      expect(s.daemon).toMatchObject({ running: true, pid: daemon.child.pid });
      expect(shown).toContain(`\nScheduler: running (pid ${daemon.child.pid}, since `);
    } finally {
      daemon.stop();
    }
    expect((await daemon.exited).code).toBe(0);
    expect(existsSync(jobPaths(configDb).scheduler)).toBe(false);
    expect((await json(['--config', config])).daemon).toEqual({ running: false, pid: null, started_at: null });

    const gone = deadPid();
    writeFileSync(jobPaths(configDb).scheduler, JSON.stringify({ pid: gone, started_at: '2026-03-28T06:00:00.000Z' }));
    const [stale, staleShown] = await Promise.all([json(['--config', config]), table(['--config', config])]);
    expect(stale.daemon).toEqual({ running: false, pid: gone, started_at: '2026-03-28T06:00:00.000Z' });
    expect(staleShown).toContain(`\nScheduler: not running (its marker names pid ${gone}, started 2026-03-28 06:00, which is gone: killed?)\n`);
  }, 2 * SLOW);
});
