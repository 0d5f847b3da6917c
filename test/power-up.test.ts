// Power Up and Power Down events (issue 42) against the sandbox: the EV household's events read
// over GraphQL, stored with their history (a moved Power Up keeps its earlier version), only its
// region's (a saving session of region A is left out), idempotent on re-ingest; `actual` costs
// price a Power Up half-hour it took part in at least(price, 0) and count it in free_half_hours
// on both 2024 clock-change days, equal to a brute force over the rows; Power Downs and a
// declined Power Up priced as usual; the same answers in other session time zones.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/loadConfig.js';
import { runIngest, type IngestSummary } from '../src/ingest/ingest.js';
import { silentLogger } from '../src/log/createLogger.js';
import { MOVED_AT, MOVED_FROM, POWER_UPS } from '../src/sandbox/sandboxFlexibility.js';
import { HOUSEHOLD as HOUSEHOLD_DATA } from '../src/sandbox/loadSandboxData.js';
import {
  EV_HOUSEHOLD, SANDBOX_ACCOUNT, SANDBOX_API_KEY, SANDBOX_EV_ACCOUNT, startSandbox, type Sandbox, type SandboxFlexEvent,
} from '../src/sandbox/startSandbox.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { bruteEffectiveRates, halfHoursOf, HH_MS, type Household } from './helpers/dispatchBruteForce.js';
import { regionJPrices } from './helpers/realAgilePrices.js';
import { runCli } from './helpers/runCli.js';

const product = JSON.parse(readFileSync(new URL('../data/sandbox/synthetic/four_rate_ev_product.json', import.meta.url), 'utf8')) as {
  day_unit_rates: { value_inc_vat: number; valid_from: string; valid_to: string | null }[];
  night_unit_rates: { value_inc_vat: number }[];
};
const HOUSEHOLD: Household = {
  dayRate: (ms) => product.day_unit_rates.find((r) => Date.parse(r.valid_from) <= ms && (r.valid_to === null || ms < Date.parse(r.valid_to)))!.value_inc_vat,
  nightRate: () => product.night_unit_rates[0]!.value_inc_vat,
  bandStart: 23 * 60 + 30,
  bandEnd: 5 * 60 + 30,
};
const DAYS = ['2024-03-31', '2024-10-27'];
const MP = EV_HOUSEHOLD.mpan;
const FROM = '2024-03-29T00:00:00Z';
const TO = '2024-11-01T00:00:00Z';

let clock = Date.parse('2024-10-10T12:00:00Z');
let sandbox: Sandbox;
let dir: string;
let db: string;
const runs: IngestSummary[] = [];
const snapshots: Record<string, unknown>[][] = [];

async function ingest(): Promise<IngestSummary> {
  const config = await loadConfig({ db, baseUrl: sandbox.baseUrl }, { TARIFFS_API_KEY: SANDBOX_API_KEY });
  return runIngest({
    tariffs: [], products: [{ code: 'EV-SANDBOX-24-01-01', regions: ['L'] }], accounts: [SANDBOX_EV_ACCOUNT], noProducts: true,
    from: new Date(FROM), to: new Date(TO),
  }, { config, logger: silentLogger(), now: () => new Date(clock) });
}

async function query<T extends object = Record<string, unknown>>(sql: string, timeZone?: string): Promise<T[]> {
  const w = await Warehouse.open(db, { readOnly: true });
  try {
    if (timeZone) await w.run(`SET TimeZone = '${timeZone}'`);
    return await w.all<T>(sql);
  } finally {
    w.close();
  }
}

const EVENT_ROWS = `SELECT source, kind, meter_point, event_code, epoch_ms(start_at) AS start_ms, epoch_ms(end_at) AS end_ms,
  event_type, region, joined, reward_octopoints, superseded_at IS NOT NULL AS superseded
  FROM flexibility_events ORDER BY ALL`;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => new Date(clock) });
  dir = mkdtempSync(join(tmpdir(), 'tariffs-power-up-'));
  db = join(dir, 'power-up.duckdb');
  runs.push(await ingest()); // before the Power Up moves
  clock = Date.parse('2024-10-28T12:00:00Z');
  runs.push(await ingest());
  snapshots.push(await query(EVENT_ROWS));
  runs.push(await ingest()); // the same answers again
  snapshots.push(await query(EVENT_ROWS));
}, 240_000);
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Power Up and Power Down events stored', () => {
  it('keeps the region\'s events with their history, idempotently', async () => {
    expect(runs.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(runs.flatMap((r) => r.warnings)).toEqual([]);
    // 4 Power Ups, 1 Power Down of the campaign, 1 saving session of region L; region A's left out
    expect(runs.map((r) => [r.flexibility_inserted, r.flexibility_superseded, r.flexibility_ignored])).toEqual([[6, 0, 1], [1, 1, 1], [0, 0, 1]]);
    const rows = await query<Record<string, unknown>>(EVENT_ROWS);
    expect(snapshots[1]).toEqual(snapshots[0]);
    const ms = (iso: string) => Date.parse(iso);
    expect(rows.filter((r) => r.kind === 'power_up').map((r) => [r.event_code, Number(r.start_ms), r.joined, r.superseded])).toEqual([
      ['PU-DECLINED', ms('2024-10-27T12:00:00Z'), false, false],
      ['PU-FALLBACK', ms('2024-10-27T00:30:00Z'), true, false],
      ['PU-MOVED', ms(MOVED_FROM.start), true, true], // the earlier version, kept
      ['PU-MOVED', ms('2024-10-27T14:00:00Z'), true, false],
      ['PU-SPRING', ms('2024-03-31T13:00:00Z'), true, false],
    ]);
    expect(rows.filter((r) => r.kind === 'power_down').map((r) => [r.source, r.meter_point, r.event_code, r.event_type, r.region, r.joined, r.reward_octopoints]))
      .toEqual([
        ['octoplus-saving-sessions', MP, 'PD-FALLBACK', null, null, true, null],
        ['savingSessions', '', 'EVENT_41_271024', 'TURN_DOWN', '_L', true, 240],
      ]);
    expect(rows.some((r) => r.event_code === 'EVENT_42_261024')).toBe(false);
    expect(Date.parse(MOVED_AT)).toBeLessThan(clock);
  });
});

describe('Power Up half-hours priced free', () => {
  const freeSlots = new Set(POWER_UPS.filter((e) => e.participant)
    .flatMap((e) => { const out: number[] = []; for (let t = Date.parse(e.start); t + HH_MS <= Date.parse(e.end); t += HH_MS) out.push(t); return out; }));

  it('costs zero and is counted on both clock-change days, as a brute force over the rows says', async () => {
    const readings = new Map((await query<{ ms: number | bigint; kwh: number }>(`SELECT epoch_ms(interval_start) AS ms, sum(kwh) AS kwh
      FROM consumption WHERE meter_point = '${MP}' GROUP BY ALL`)).map((r) => [Number(r.ms), r.kwh]));
    const prices = new Map(bruteEffectiveRates(HOUSEHOLD, DAYS, [], [], undefined, 'none').map((r) => [Date.parse(r.slot_start), r.value_inc_vat]));
    const days = await query<{ local_date: unknown; energy_cost_inc_vat: number; free_half_hours: number; half_hours: number }>(
      `SELECT local_date, energy_cost_inc_vat, free_half_hours, half_hours
       FROM daily_costs('${MP}', NULL, TIMESTAMPTZ '2024-03-31 00:00:00+00', TIMESTAMPTZ '2024-04-01 00:00:00+01', dispatches := 'none')
       UNION ALL
       SELECT local_date, energy_cost_inc_vat, free_half_hours, half_hours
       FROM daily_costs('${MP}', NULL, TIMESTAMPTZ '2024-10-27 00:00:00+01', TIMESTAMPTZ '2024-10-28 00:00:00+00', dispatches := 'none') ORDER BY 1`);
    expect(days.map((d) => [d.half_hours, d.free_half_hours])).toEqual([[46, 2], [50, 4]]);
    DAYS.forEach((date, i) => {
      const slots = halfHoursOf(date);
      let expected = 0;
      for (const ms of slots) {
        const p = prices.get(ms)!;
        expected += readings.get(ms)! * (freeSlots.has(ms) ? Math.min(0, p) : p);
      }
      expect(days[i]!.energy_cost_inc_vat).toBeCloseTo(expected, 6);
      // and without the Power Ups the day would cost more
      const full = slots.reduce((s, ms) => s + readings.get(ms)! * prices.get(ms)!, 0);
      expect(full - expected).toBeGreaterThan(0.01);
    });
  });

  it('prices each Power Up half-hour at least(price, 0), with dispatches too; not Power Downs, a declined one or another scenario', async () => {
    const rows = await query<{ ms: number | bigint; scenario: string; free_half_hour: boolean; cost_inc_vat: number; kwh: number }>(
      `SELECT epoch_ms(slot_start) AS ms, scenario, free_half_hour, cost_inc_vat, kwh
       FROM portfolio_pricing(['actual', '${EV_HOUSEHOLD.tariff}'], TIMESTAMPTZ '2024-10-26 23:00:00+00', TIMESTAMPTZ '2024-10-28 00:00:00+00',
                              meters := ['${MP}'])`);
    const actual = rows.filter((r) => r.scenario === 'actual');
    expect(actual.filter((r) => r.free_half_hour).map((r) => Number(r.ms)).sort()).toEqual([...freeSlots].filter((t) => t >= Date.parse('2024-10-26T23:00:00Z')).sort());
    for (const r of actual.filter((x) => x.free_half_hour)) {
      expect(r.kwh).toBeGreaterThan(0);
      expect(r.cost_inc_vat).toBe(0);
    }
    for (const t of ['2024-10-27T12:00:00Z', '2024-10-27T17:00:00Z', MOVED_FROM.start]) {
      const r = actual.find((x) => Number(x.ms) === Date.parse(t))!;
      expect(r.free_half_hour).toBe(false);
      expect(r.cost_inc_vat).toBeGreaterThan(0);
    }
    expect(rows.filter((r) => r.scenario !== 'actual' && r.free_half_hour)).toEqual([]);
  });

  it('carries free_half_hours up to months and comparisons, the same in other session time zones; the cost command shows it', async () => {
    const sql = `SELECT * FROM (SELECT scenario, free_half_hours, round(total_inc_vat, 6) AS total
        FROM tariff_comparison('${MP}', ['${EV_HOUSEHOLD.tariff}'], TIMESTAMPTZ '2024-03-30 00:00:00+00', TIMESTAMPTZ '2024-11-01 00:00:00+00'))
      UNION ALL
      SELECT * FROM (SELECT 'month ' || strftime(month, '%Y-%m') AS scenario, free_half_hours, round(total_inc_vat, 6) AS total
        FROM monthly_costs('${MP}', NULL, TIMESTAMPTZ '2024-03-01 00:00:00+00', TIMESTAMPTZ '2024-11-01 00:00:00+00') WHERE free_half_hours > 0)
      ORDER BY scenario`;
    const london = await query<{ scenario: string; free_half_hours: number; total: number }>(sql);
    expect(london.map((r) => [r.scenario, r.free_half_hours])).toEqual([
      [EV_HOUSEHOLD.tariff, 0], ['actual', 6], ['month 2024-03', 2], ['month 2024-10', 4],
    ]);
    for (const zone of ['America/New_York', 'Asia/Kolkata']) expect(await query(sql, zone)).toEqual(london);
    const result = await runCli(['cost', '--meter', MP, '--from', '2024-10-27', '--to', '2024-10-28', '--db', db, '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { free_half_hours: number }[]).map((r) => r.free_half_hours)).toEqual([4]);
  });
});

// The Agile household (region J) with Power Ups of its own (SandboxOptions.powerUps), ingested by
// `tariffs ingest --account` and costed by `tariffs cost`: one over real negative Agile prices
// (2023-07-02, a sunny Sunday), paid at those prices, not zero; one starting at 13:15, which frees
// only the half-hours wholly inside it (its start rounded up to 13:30).
describe('Power Ups of the Agile household, through the CLI', () => {
  const AGILE_MP = HOUSEHOLD_DATA.importMpan;
  const AGILE_POWER_UPS: SandboxFlexEvent[] = [
    { code: 'PU-NEGATIVE', start: '2023-07-02T12:00:00Z', end: '2023-07-02T13:00:00Z', participant: true },
    { code: 'PU-QUARTER', start: '2023-07-03T13:15:00Z', end: '2023-07-03T14:15:00Z', participant: true },
  ];
  const FREE = ['2023-07-02T12:00:00Z', '2023-07-02T12:30:00Z', '2023-07-03T13:30:00Z'].map(Date.parse);
  const prices = new Map(regionJPrices().map((p) => [p.ms, p.inc]));
  let agileSandbox: Sandbox;
  let agileDb: string;

  beforeAll(async () => {
    agileSandbox = await startSandbox({ powerUps: { [AGILE_MP]: AGILE_POWER_UPS } });
    agileDb = join(dir, 'agile-power-up.duckdb');
    const result = await runCli(['ingest', '--account', SANDBOX_ACCOUNT, '--from', '2023-07-01', '--to', '2023-07-05', '--no-products',
      '--db', agileDb, '--base-url', agileSandbox.baseUrl, '--format', 'json'], { env: { TARIFFS_API_KEY: SANDBOX_API_KEY } });
    expect(result.code, result.stderr).toBe(0);
  }, 180_000);
  afterAll(async () => {
    await agileSandbox?.close();
  });

  it('a Power Up over negative prices pays them; one starting at 13:15 frees from 13:30; `cost` shows both', async () => {
    const perHalfHour = await runCli(['cost', '--meter', AGILE_MP, '--from', '2023-07-02', '--to', '2023-07-04', '--per', 'half-hour',
      '--db', agileDb, '--format', 'json']);
    expect(perHalfHour.code, perHalfHour.stderr).toBe(0);
    const rows = (JSON.parse(perHalfHour.stdout) as Record<string, unknown>[]).map((r) => ({
      ms: Date.parse(String(r.slot_start)), kwh: Number(r.kwh), price: Number(r.value_inc_vat), cost: Number(r.cost_inc_vat), free: r.free_half_hour,
    }));
    expect(rows).toHaveLength(96);
    expect(rows.filter((r) => r.free).map((r) => r.ms)).toEqual(FREE);
    // the real prices: negative inside PU-NEGATIVE, positive around PU-QUARTER
    for (const ms of FREE.slice(0, 2)) expect(prices.get(ms)!).toBeLessThan(-10);
    for (const iso of ['2023-07-03T13:00:00Z', '2023-07-03T13:30:00Z', '2023-07-03T14:00:00Z']) expect(prices.get(Date.parse(iso))!).toBeGreaterThan(5);
    for (const r of rows) {
      const real = prices.get(r.ms)!;
      const price = FREE.includes(r.ms) ? Math.min(real, 0) : real;
      expect(r.price, new Date(r.ms).toISOString()).toBeCloseTo(price, 9);
      expect(r.cost, new Date(r.ms).toISOString()).toBeCloseTo(r.kwh * price, 3); // the CLI rounds
    }
    const negative = rows.filter((r) => FREE.slice(0, 2).includes(r.ms));
    expect(negative.every((r) => r.kwh > 0 && r.cost < 0)).toBe(true);
    const quarter = rows.find((r) => r.ms === Date.parse('2023-07-03T13:00:00Z'))!;
    expect(quarter).toMatchObject({ free: false });
    expect(quarter.cost).toBeGreaterThan(0);

    const perDay = await runCli(['cost', '--meter', AGILE_MP, '--from', '2023-07-02', '--to', '2023-07-04', '--db', agileDb, '--format', 'json']);
    expect(perDay.code, perDay.stderr).toBe(0);
    const days = JSON.parse(perDay.stdout) as { local_date: string; free_half_hours: number; energy_cost_inc_vat: number }[];
    expect(days.map((d) => [d.local_date, d.free_half_hours])).toEqual([['2023-07-02', 2], ['2023-07-03', 1]]);
    days.forEach((d, i) => {
      const own = rows.slice(i * 48, (i + 1) * 48);
      expect(d.energy_cost_inc_vat).toBeCloseTo(own.reduce((s, r) => s + r.cost, 0), 2);
    });
  });
});
