// The CLI shells: `tariffs schedule --list` (fire times from the same definitions, JSON contract),
// `tariffs status` (read-only: latest slot, tomorrow, gaps, last runs; exit 75 while a writer
// holds the file) and usage errors of `tariffs run` / bad schedules (exit 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as runRates } from '../src/jobs/rates.js';
import { silentLogger } from '../src/log/createLogger.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { runCli } from './helpers/runCli.js';
import { writeConfig } from './helpers/schedulerProcess.js';
import { tempDir, testConfig } from './helpers/warehouseTools.js';

const TARIFF = 'E-1R-AGILE-24-10-01-H';

describe('tariffs schedule --list', () => {
  const tmp = tempDir('tariffs-list-');
  afterAll(() => tmp.remove());

  it('lists each job over the fall-back weekend; a job at 01:30 runs once, at 01:30 BST', async () => {
    const config = writeConfig(tmp.file('c.json'), { schedules: { products: '30 1 * * *' } });
    const result = await runCli(['schedule', '--list', '--config', config, '--now', '2026-10-24T12:00:00Z', '--hours', '48', '--format', 'json']);
    expect(result.code).toBe(0);
    const listed = JSON.parse(result.stdout) as { job: string; next: { at: string; local: string; triggers: string[] }[] }[];
    expect(listed.map((j) => j.job)).toEqual(['products', 'rates', 'reports']);
    expect(listed[0]!.next).toEqual([
      { at: '2026-10-25T00:30:00Z', local: '2026-10-25T01:30:00+01:00', triggers: ['products'] },
      { at: '2026-10-26T01:30:00Z', local: '2026-10-26T01:30:00+00:00', triggers: ['products'] },
    ]);
    expect(listed[2]!.next.map((n) => n.local)).toEqual(['2026-10-24T20:15:00+01:00', '2026-10-25T20:15:00+00:00']);
    const rates = listed[1]!.next;
    expect(rates[0]).toEqual({ at: '2026-10-24T12:30:00Z', local: '2026-10-24T13:30:00+01:00', triggers: ['rates'] });
    expect(rates.filter((n) => n.local.startsWith('2026-10-25T01:'))).toHaveLength(4); // 01:00 and 01:30, BST and GMT
  });

  it('rejects a bad schedule in the config, naming it (exit 2)', async () => {
    const config = writeConfig(tmp.file('bad.json'), { schedules: { rates: '61 * * * *' } });
    const result = await runCli(['schedule', '--list', '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--config ${config}: schedules.rates: '61 * * * *' is not a cron expression`);
  });

  it('usage errors exit 2: --hours 0, an unknown job, --day-ahead on another job', async () => {
    expect((await runCli(['schedule', '--list', '--hours', '0'])).code).toBe(2);
    const unknown = await runCli(['run', 'nosuch']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown job 'nosuch': one of products, rates, reports");
    expect((await runCli(['run', 'products', '--day-ahead'])).code).toBe(2);
  });
});

describe('tariffs status', () => {
  let sandbox: Sandbox;
  const tmp = tempDir('tariffs-status-');
  const db = tmp.file('status.duckdb');
  let config: string;

  beforeAll(async () => {
    sandbox = await startSandbox();
    const result = await runRates({
      config: await testConfig(db, sandbox.baseUrl, { tariffs: [TARIFF], defaultFrom: '2026-03-28T00:00:00Z' }),
      logger: silentLogger(), now: () => new Date('2026-03-28T17:00:00Z'), signal: new AbortController().signal,
      triggers: ['rates'], busyTimeoutMs: 5_000,
    });
    expect(result.status).toBe('ok');
    config = writeConfig(tmp.file('c.json'), { db, tariffs: [TARIFF] });
  });
  afterAll(async () => {
    await sandbox.close();
    tmp.remove();
  });

  const status = async (now: string) => {
    const result = await runCli(['status', '--config', config, '--now', now, '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as { tariffs: Record<string, unknown>[]; jobs: Record<string, unknown>[] };
  };

  it('shows the latest slot in UTC and local time, tomorrow complete, no gaps, and the last runs', async () => {
    const s = await status('2026-03-28T17:00:00Z');
    expect(s.tariffs).toEqual([{
      tariff: TARIFF, source: 'tariff',
      latest_slot_utc: '2026-03-29T23:30:00Z', latest_slot_local: '2026-03-30T00:30:00+01:00',
      tomorrow: '2026-03-29', tomorrow_slots: '46/46', tomorrow_complete: true, state: 'complete', gaps_7d: 0,
      missing_optional: [], product_withdrawn_at: null, rates_stopped_on: null,
    }]);
    expect(s.jobs.map((j) => [j.job, j.status])).toEqual([['products', 'never'], ['rates', 'ok'], ['reports', 'never']]);
    expect(s.jobs[1]).toMatchObject({ rows_inserted: 56, error: null });
  });

  it('counts a missing half-hour as a gap and tomorrow as incomplete', async () => {
    const w = await Warehouse.open(db);
    await w.run(`DELETE FROM unit_rates WHERE tariff_code = '${TARIFF}' AND valid_from = TIMESTAMPTZ '2026-03-29T05:00:00Z'`);
    w.close();
    const s = await status('2026-03-28T17:00:00Z');
    expect(s.tariffs[0]).toMatchObject({ tomorrow_slots: '45/46', tomorrow_complete: false, state: 'incomplete', gaps_7d: 1 });
    // The recording ends at 00:30 BST on the 30th: seen from the 31st nothing is stored for today,
    // the tariff counts as no longer live and the watch does not fetch for it.
    const later = await status('2026-03-31T12:00:00Z');
    expect(later.tariffs[0]).toMatchObject({ tomorrow: '2026-04-01', tomorrow_complete: null, state: 'not-live' });
  });

  it('prints tables by default, and exits 75 while another process writes the file', async () => {
    const table = await runCli(['status', '--config', config, '--format', 'table']);
    expect(table.code).toBe(0);
    // the database, the daemon and the writer first (status-cli.test.ts), then the tables
    expect(table.stdout).toMatch(/^Database: .*\nScheduler: .*\nRunning now: .*\nTariffs \(as of .*\)\ntariff +source/);
    expect(table.stdout).toContain('\nJobs\njob ');
    const writer = await Warehouse.open(db);
    try {
      const busy = await runCli(['status', '--config', config, '--busy-timeout', '0']);
      expect(busy.code).toBe(75);
      expect(busy.stderr).toMatch(/in use by another process/);
    } finally {
      writer.close();
    }
  });
});
