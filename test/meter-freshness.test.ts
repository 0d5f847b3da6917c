// Meters that stop reporting: the sandbox account's meters ingested up to 2023-06-11 (London
// midnight, BST), then judged at pinned instants: meter_freshness_at's age and holes, the view
// meter_freshness naming the same meters, and `status --check` naming an account meter whose
// newest reading is older than --max-meter-age (3 days by default), never an imported file's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY, startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { runCli } from './helpers/runCli.js';
import { ingest, query, tempDir } from './helpers/warehouseTools.js';

const IMPORT = '2000000000011:23J0000001';
const FILE_MPAN = '1900000000099';

let sandbox: Sandbox;
const tmp = tempDir('tariffs-meter-freshness-');
const db = tmp.file('meters.duckdb');

beforeAll(async () => {
  sandbox = await startSandbox();
  const summary = await ingest(db, sandbox.baseUrl, {
    accounts: [SANDBOX_ACCOUNT], noProducts: true,
    from: new Date('2023-05-31T23:00:00Z'), to: new Date('2023-06-10T23:00:00Z'), // 1-10 June, London
  }, { apiKey: SANDBOX_API_KEY });
  expect(summary.consumption_inserted).toBeGreaterThan(0);
  // a meter known only from a file, its readings a year old: not expected to grow
  const csv = ['interval_start,kwh', ...Array.from({ length: 4 }, (_, i) => `${new Date(Date.parse('2022-06-01T00:00:00Z') + i * 1_800_000).toISOString()},0.5`)].join('\n');
  const imported = await runCli(['consumption', 'import', '-', '--meter', `${FILE_MPAN}:F1`, '--db', db, '--format', 'json'], { input: csv });
  expect(imported.stderr).toBe('');
});
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

describe('meter_freshness_at and meter_freshness', () => {
  it('as of 2023-06-15: the newest reading ends 2023-06-10 at London midnight, 5 days old, 192 holes in 7 days', async () => {
    const rows = await query(db, `SELECT meter_point || ':' || serial AS meter, account_number, latest_reading, latest_local_date, age_days, holes_7d
      FROM meter_freshness_at(TIMESTAMPTZ '2023-06-15 12:00:00Z') ORDER BY meter`);
    const importRow = rows.find((r) => r.meter === IMPORT);
    // 8-14 June: readings on the 8th, 9th and 10th (3 × 48 of 7 × 48)
    expect(importRow).toMatchObject({ account_number: SANDBOX_ACCOUNT, latest_reading: '2023-06-10T23:00:00Z', age_days: 5, holes_7d: 192 });
    expect(String(importRow!.latest_local_date)).toContain('2023-06-10');
    expect(rows.find((r) => r.meter === `${FILE_MPAN}:F1`)).toMatchObject({ account_number: null, age_days: 379, holes_7d: 336 });
  });

  it('the morning after: age 1 and no holes in the week before', async () => {
    const [row] = await query(db, `SELECT age_days, holes_7d FROM meter_freshness_at(TIMESTAMPTZ '2023-06-11 07:00:00Z')
      WHERE meter_point || ':' || serial = '${IMPORT}'`);
    expect(row).toEqual({ age_days: 1, holes_7d: 0 });
  });

  it('the view lists the same meters and readings as the macro as of now', async () => {
    const columns = 'meter_point, serial, account_number, latest_reading';
    expect(await query(db, `SELECT ${columns} FROM meter_freshness ORDER BY ALL`))
      .toEqual(await query(db, `SELECT ${columns} FROM meter_freshness_at(TIMESTAMPTZ '2023-06-15 12:00:00Z') ORDER BY ALL`));
  });
});

describe('status --check names a meter that stopped reporting', () => {
  const status = (...args: string[]) => runCli(['status', '--check', '--db', db, '--format', 'json', ...args]);

  it('older than 3 days by default; an imported file\'s meter never; --max-meter-age raises the bar', async () => {
    const [late, relaxed, morning, bad] = await Promise.all([
      status('--now', '2023-06-15T12:00:00Z'),
      status('--now', '2023-06-15T12:00:00Z', '--max-meter-age', '5'),
      status('--now', '2023-06-11T07:00:00Z'),
      status('--max-meter-age', '0'),
    ]);
    const meterLines = (stderr: string) => stderr.split('\n').filter((l) => l.includes('status: meter '));
    expect(late.code).toBe(1);
    expect(meterLines(late.stderr)).toContain(
      `tariffs: status: meter ${IMPORT} (account ${SANDBOX_ACCOUNT}): no readings since 2023-06-10 (5 days, more than 3); 192 half-hours missing in the last 7 days`,
    );
    expect(late.stderr).not.toContain(FILE_MPAN);
    const shown = JSON.parse(late.stdout) as { meters: { meter_point: string; age_days: number }[] };
    expect(shown.meters.find((m) => m.meter_point === FILE_MPAN)?.age_days).toBe(379);
    expect(meterLines(relaxed.stderr)).toEqual([]);
    expect(meterLines(morning.stderr)).toEqual([]);
    expect(bad.code).toBe(2);
  });
});
