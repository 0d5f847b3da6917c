// Rate kinds from the product detail's links, whatever the code says: the sandbox's Intelligent
// Octopus Go day/night product has a `-1R-` code and only day and night unit rates. Given by
// code or by product, it is stored, priced and shown as a two-rate tariff (daily, off-peak, cost);
// a link-less product keeps the code's kinds; four-rate EV tariffs are read from their table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kindsFromRels, relsInDetail } from '../src/ingest/linkedKinds.js';
import { targetsFromProduct } from '../src/ingest/resolveTargets.js';
import { OctopusClient } from '../src/api/OctopusClient.js';
import { DAY_NIGHT_1R } from '../src/sandbox/SandboxCatalog.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { runCli } from './helpers/runCli.js';
import { ingest, query, tempDir } from './helpers/warehouseTools.js';

const T = DAY_NIGHT_1R.tariff;
const MPAN = '1900000000001';
const SERIAL = '26M0000001';
/** 2026-03-02 (GMT): one kWh every half-hour; night 00:00-05:30 and 23:30-24:00 = 12 half-hours. */
const DAY = '2026-03-02';

let sandbox: Sandbox;
const tmp = tempDir('tariffs-linked-kinds-');
const db = tmp.file('dn.duckdb');

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

describe('a -1R- tariff with only day and night rates', () => {
  it('the sandbox lists it with day and night links only, and 404s its standard rates', async () => {
    const client = new OctopusClient({ baseUrl: sandbox.baseUrl });
    try {
      const detail = await client.product(DAY_NIGHT_1R.product);
      expect(relsInDetail(detail, T)?.sort()).toEqual(['day_unit_rates', 'night_unit_rates', 'standing_charges']);
    } finally {
      await client.close();
    }
    const standard = await fetch(`${sandbox.baseUrl}products/${DAY_NIGHT_1R.product}/electricity-tariffs/${T}/standard-unit-rates/`);
    expect(standard.status).toBe(404);
  });

  it('given by code, it is fetched for the kinds its links name and stored as a two-rate tariff', async () => {
    const summary = await ingest(db, sandbox.baseUrl, { tariffs: [T], from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-05T00:00:00Z'), noProducts: true });
    expect(summary.errors).toEqual([]);
    expect(summary.status).toBe('ok');
    expect(await query(db, `SELECT rate_type, count(*) AS n FROM unit_rates WHERE tariff_code = '${T}' GROUP BY ALL ORDER BY 1`))
      .toEqual([{ rate_type: 'day', n: 1 }, { rate_type: 'night', n: 1 }]);
    expect(await query(db, `SELECT register, night_start_minutes, night_end_minutes FROM tariffs WHERE tariff_code = '${T}'`))
      .toEqual([{ register: 'dual', night_start_minutes: 23 * 60 + 30, night_end_minutes: 5 * 60 + 30 }]);
    // the next run reads the kinds stored, not the detail again
    sandbox.resetRequests();
    expect((await ingest(db, sandbox.baseUrl, { tariffs: [T], noProducts: true })).status).toBe('ok');
    expect(sandbox.requests.filter((r) => r.path === `/v1/products/${DAY_NIGHT_1R.product}/`)).toHaveLength(0);
    expect(sandbox.requests.filter((r) => r.path.includes('standard-unit-rates'))).toHaveLength(0);
  });

  it('daily, off-peak and cost show it as a two-rate tariff: night 7.35, day 29.4 p/kWh', async () => {
    const csv = ['interval_start,kwh', ...Array.from({ length: 48 }, (_, i) => `${new Date(Date.parse(`${DAY}T00:00:00Z`) + i * 1_800_000).toISOString()},1`)].join('\n');
    const imported = await runCli(['consumption', 'import', '-', '--meter', `${MPAN}:${SERIAL}`, '--db', db, '--format', 'json'], { input: csv });
    expect(imported.stderr).toBe('');
    const range = ['--from', DAY, '--to', '2026-03-03', '--db', db, '--format', 'json'];
    const [daily, offPeak, cost] = await Promise.all([
      runCli(['daily', '--tariff', T, ...range]),
      runCli(['off-peak', '--tariff', T, ...range]),
      runCli(['cost', '--meter', MPAN, '--tariff', T, '--per', 'day', ...range]),
    ]);
    const day = JSON.parse(daily.stdout) as Record<string, unknown>[];
    expect(day).toHaveLength(1);
    expect(day[0]).toMatchObject({ local_date: DAY, slots: 48, min_inc_vat: 7.35, max_inc_vat: 29.4 });
    const periods = (JSON.parse(offPeak.stdout) as { local_start: string; local_end: string }[]).map((p) => `${p.local_start.slice(11, 16)}-${p.local_end.slice(11, 16)}`);
    expect(periods).toEqual(['00:00-05:30', '23:30-00:00']);
    const [row] = JSON.parse(cost.stdout) as Record<string, number>[];
    expect(cost.code).toBe(0);
    // 12 night half-hours at 7.35, 36 day ones at 29.4, a standing charge of 52.5
    expect(Object.values(row!).some((v) => typeof v === 'number' && Math.abs(v - (12 * 7.35 + 36 * 29.4 + 52.5)) < 1e-6)).toBe(true);
  });

  it('given by product and region, the same kinds and band', async () => {
    const client = new OctopusClient({ baseUrl: sandbox.baseUrl });
    try {
      const [target] = targetsFromProduct(await client.product(DAY_NIGHT_1R.product), ['C']);
      expect(target).toMatchObject({ tariffCode: T, register: 'dual', kinds: ['day', 'night', 'standing_charge'] });
      expect(target!.nightBand).toEqual({ startMinutes: 1410, endMinutes: 330 });
    } finally {
      await client.close();
    }
  });

  it('links that name no unit rates leave the code\'s kinds', () => {
    expect(kindsFromRels(['self'], ['standard', 'standing_charge'])).toEqual(['standard', 'standing_charge']);
    expect(kindsFromRels(['standard_unit_rates', 'standing_charges'], ['day', 'night', 'standing_charge'])).toEqual(['standard', 'standing_charge']);
  });
});
