// Consumption from the API: `ingest --account` against the sandbox (the synthetic household's
// import, export and m³ gas meters over the 2023 fall-back day), incremental re-runs, an optional
// endpoint failing (one warning, the run succeeds), and recorded real responses served by a plain
// HTTP server (offsets +01:00 and +0100, a malformed record skipped).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/loadConfig.js';
import { runIngest } from '../src/ingest/ingest.js';
import { silentLogger } from '../src/log/createLogger.js';
import { householdReading } from '../src/sandbox/householdProfile.js';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY, startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { runCli } from './helpers/runCli.js';

const HH = 1_800_000;
const IMPORT = '2000000000011';
const EXPORT = '2000000000012';
const GAS = '3000000001';
const FROM = new Date('2023-10-27T23:00:00Z'); // 2023-10-28 local midnight (BST)
const TO = new Date('2023-10-31T00:00:00Z'); // 2023-10-31 local midnight (GMT)

let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  dir = mkdtempSync(join(tmpdir(), 'tariffs-consumption-'));
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function query(db: string, sql: string): Promise<Record<string, unknown>[]> {
  const w = await Warehouse.open(db, { readOnly: true });
  try {
    return await w.all(sql);
  } finally {
    w.close();
  }
}

describe('ingest --account: the household through the sandbox', () => {
  it('stores meters, agreements and every half-hour of the window in UTC, gas converted from m³', async () => {
    const db = join(dir, 'household.duckdb');
    const config = { ...(await loadConfig({ db, baseUrl: sandbox.baseUrl }, { TARIFFS_API_KEY: SANDBOX_API_KEY })) };
    const summary = await runIngest({ tariffs: [], products: [], accounts: [SANDBOX_ACCOUNT], from: FROM, to: TO, noProducts: true },
      { config, logger: silentLogger(), now: () => new Date('2023-11-06T00:00:00Z') });
    expect(summary.status).toBe('ok');
    expect(summary.warnings).toEqual([]);
    const slots = (TO.getTime() - FROM.getTime()) / HH; // 48 + 50 + 48
    expect(slots).toBe(146);
    expect(summary.consumption_inserted).toBe(3 * slots);

    const points = await query(db, `SELECT meter_point, fuel, is_export, serials, account_number FROM meter_points
      WHERE meter_point IN ('${IMPORT}', '${EXPORT}', '${GAS}') ORDER BY meter_point`);
    expect(points).toEqual([
      { meter_point: IMPORT, fuel: 'electricity', is_export: false, serials: ['23J0000001'], account_number: SANDBOX_ACCOUNT },
      { meter_point: EXPORT, fuel: 'electricity', is_export: true, serials: ['23J0000001'], account_number: SANDBOX_ACCOUNT },
      { meter_point: GAS, fuel: 'gas', is_export: false, serials: ['G4P0000001'], account_number: SANDBOX_ACCOUNT },
    ]);
    const agreements = await query(db, `SELECT tariff_code, valid_from, valid_to FROM agreements WHERE meter_point = '${IMPORT}' ORDER BY valid_from`);
    expect(agreements).toEqual([
      { tariff_code: 'E-1R-AGILE-18-02-21-J', valid_from: '2023-03-01T00:00:00Z', valid_to: '2023-08-31T23:00:00Z' },
      { tariff_code: 'E-1R-VAR-17-01-11-A', valid_from: '2023-08-31T23:00:00Z', valid_to: null },
    ]);

    const rows = await query(db, `SELECT meter_point, interval_start, local_date, settlement_period, kwh, raw_value, raw_unit, source
      FROM consumption ORDER BY meter_point, interval_start`);
    expect(rows.length).toBe(3 * slots);
    const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
    for (const row of rows) {
      const ms = Date.parse(String(row.interval_start));
      const channel = row.meter_point === IMPORT ? 'import' : row.meter_point === EXPORT ? 'export' : 'gas';
      const raw = householdReading(channel, ms);
      expect(row.raw_value).toBe(raw);
      expect(row.local_date).toBe(fmt.format(new Date(ms)));
      if (channel === 'gas') {
        expect(row.raw_unit).toBe('m3');
        expect(Math.abs(Number(row.kwh) - (raw * 1.02264 * 39.5) / 3.6)).toBeLessThan(1e-9);
      } else {
        expect([row.raw_unit, row.kwh, row.source]).toEqual(['kWh', raw, 'api']);
      }
    }
    const fallBack = rows.filter((r) => r.meter_point === IMPORT && r.local_date === '2023-10-29');
    expect(fallBack.map((r) => r.settlement_period)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));

    // Incremental: from the cursor less a week (late reads), so the 190 half-hours before FROM are
    // new; a second run re-reads the week and changes nothing.
    const weekBefore = new Date(TO.getTime() - 7 * 86_400_000);
    const again = await runIngest({ tariffs: [], products: [], accounts: [SANDBOX_ACCOUNT], noProducts: true },
      { config, logger: silentLogger(), now: () => TO });
    const earlier = (FROM.getTime() - weekBefore.getTime()) / HH;
    expect([again.status, again.consumption_inserted, again.consumption_updated]).toEqual(['ok', 3 * earlier, 0]);
    const third = await runIngest({ tariffs: [], products: [], accounts: [SANDBOX_ACCOUNT], noProducts: true },
      { config, logger: silentLogger(), now: () => TO });
    expect([third.status, third.consumption_inserted, third.consumption_updated]).toEqual(['ok', 0, 0]);
    expect((await query(db, 'SELECT count(*) AS n, count(DISTINCT (meter_point, serial, interval_start)) AS d FROM consumption'))[0])
      .toEqual({ n: 3 * (slots + earlier), d: 3 * (slots + earlier) });
    const cursor = await query(db, `SELECT fetched_from, fetched_until FROM consumption_cursors WHERE meter_point = '${IMPORT}'`);
    expect(cursor).toEqual([{ fetched_from: weekBefore.toISOString().replace('.000Z', 'Z'), fetched_until: TO.toISOString().replace('.000Z', 'Z') }]);

    // What did the household pay on the fall-back day: the CLI over the stored prices and readings.
    const cost = await runCli(['cost', '--meter', IMPORT, '--from', '2023-10-29', '--to', '2023-10-30', '--db', db, '--format', 'json']);
    expect(cost.code).toBe(0);
    const [day] = JSON.parse(cost.stdout) as Record<string, unknown>[];
    expect(day).toMatchObject({ local_date: '2023-10-29', half_hours: 50, missing_half_hours: 0, tariff_code: 'E-1R-VAR-17-01-11-A' });
  }, 120_000);

  it('--no-consumption skips it; a failing consumption endpoint is one warning naming meter and URL, the run succeeds', async () => {
    const db = join(dir, 'skip.duckdb');
    const env = { TARIFFS_API_KEY: SANDBOX_API_KEY };
    const skipped = await runCli(['ingest', '--account', SANDBOX_ACCOUNT, '--no-products', '--no-consumption', '--from', '2023-10-28', '--to', '2023-10-29',
      '--db', db, '--base-url', sandbox.baseUrl, '--format', 'json'], { env });
    expect(skipped.code).toBe(0);
    expect(JSON.parse(skipped.stdout)[0]).toMatchObject({ consumption_meters: 0, consumption_inserted: 0 });

    const faulty = await startSandbox({ faults: ['503:path=gas-meter-points/3000000001'] });
    try {
      const config = await loadConfig({ db: join(dir, 'faulty.duckdb'), baseUrl: faulty.baseUrl }, env);
      const summary = await runIngest({ tariffs: [], products: [], accounts: [SANDBOX_ACCOUNT], from: FROM, to: TO, noProducts: true },
        { config, logger: silentLogger(), http: { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } } });
      expect(summary.status).toBe('ok');
      expect(summary.warnings).toHaveLength(1);
      expect(summary.warnings[0]).toMatch(/^consumption of gas meter 3000000001:G4P0000001 not available \(optional resource gas-meter-points\/…\/consumption\/, GET http:\/\/127\.0\.0\.1:\d+\/v1\/gas-meter-points\/3000000001\/meters\/G4P0000001\/consumption\/\?.*: 503\); skipped$/);
      expect(summary.warnings[0]).not.toContain(SANDBOX_API_KEY);
      expect(summary.consumption_inserted).toBe(2 * 146);
    } finally {
      await faulty.close();
    }
  }, 120_000);
});

describe('recorded real consumption pages', () => {
  let server: Server;
  let base: string;
  const fixture = (name: string) => JSON.parse(readFileSync(new URL(`fixtures/consumption/${name}`, import.meta.url), 'utf8')) as { results: unknown[] };
  beforeAll(async () => {
    const pages: Record<string, { results: unknown[] }> = {
      '/v1/electricity-meter-points/2000024512368/meters/S1/consumption/': fixture('domdfcoding_consumption_first6.json'),
      '/v1/electricity-meter-points/2000024512369/meters/S2/consumption/': fixture('markallanson_consumption_response.json'),
    };
    const account = {
      number: 'A-REC00001',
      properties: [{ electricity_meter_points: [
        { mpan: '2000024512368', is_export: false, meters: [{ serial_number: 'S1' }], agreements: [] },
        { mpan: '2000024512369', is_export: false, meters: [{ serial_number: 'S2' }], agreements: [] },
      ], gas_meter_points: [] }],
    };
    server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      const body = url.pathname === '/v1/accounts/A-REC00001/' ? account
        : pages[url.pathname] ? { count: pages[url.pathname]!.results.length, next: null, previous: null, results: pages[url.pathname]!.results }
          : undefined;
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? { detail: 'Not found.' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reads +01:00 and +0100 offsets into UTC and skips the record that ends before it starts', async () => {
    const db = join(dir, 'recorded.duckdb');
    const config = await loadConfig({ db, baseUrl: base }, { TARIFFS_API_KEY: 'sk_test_recorded' });
    const summary = await runIngest({ tariffs: [], products: [], accounts: ['A-REC00001'], noProducts: true,
      from: new Date('2018-01-01T00:00:00Z'), to: new Date('2021-01-01T00:00:00Z') }, { config, logger: silentLogger() });
    expect(summary.status).toBe('ok');
    const rows = await query(db, `SELECT meter_point, interval_start, kwh, settlement_period FROM consumption ORDER BY meter_point, interval_start`);
    const s1 = rows.filter((r) => r.meter_point === '2000024512368');
    expect(s1.length).toBe(6);
    // 2020-10-03T00:00:00+01:00 (the newest record) is 2020-10-02T23:00Z, settlement period 1 of the 3rd.
    expect(s1.at(-1)).toEqual({ meter_point: '2000024512368', interval_start: '2020-10-02T23:00:00Z', kwh: 0.313, settlement_period: 1 });
    expect(rows.filter((r) => r.meter_point === '2000024512369').map((r) => [r.interval_start, r.kwh])).toEqual([
      ['2018-05-18T23:00:00Z', 0.071], ['2018-05-18T23:30:00Z', 0.063],
    ]);
  });
});
