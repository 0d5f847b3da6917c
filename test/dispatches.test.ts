// Intelligent Octopus Go dispatches (issue 28) against the sandbox: the EV household's account
// (four-rate EV tariff, night band 23:30-05:30) ingested with its dispatches over GraphQL,
// incrementally, through the fault cases (a plan that vanishes and moves, completed dispatches
// arriving late, KT-CT-4340); effective_rates equal to an independent brute force
// (test/helpers/dispatchBruteForce.ts) over the 2024 spring-forward and fall-back nights with the
// daily cap, in several session time zones; `cost` of the household equal to the brute force; the
// strict spec profile ingests without dispatches and warns once. The sandbox's clock and the
// ingest's are pinned.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsFrom } from '../src/api/credentials.js';
import { DispatchClient } from '../src/api/DispatchClient.js';
import { GraphqlError } from '../src/api/errors.js';
import { HttpClient } from '../src/api/HttpClient.js';
import { run as runRates } from '../src/jobs/rates.js';
import { loadConfig } from '../src/config/loadConfig.js';
import { tariffComparison } from '../src/analytics/costs.js';
import { runIngest, type IngestSummary } from '../src/ingest/ingest.js';
import { silentLogger } from '../src/log/createLogger.js';
import { householdReading } from '../src/sandbox/householdProfile.js';
import {
  COMPLETED_DISPATCHES, EV_HOUSEHOLD, SANDBOX_API_KEY, SANDBOX_EV_ACCOUNT, SANDBOX_EV_DEVICE, plannedDispatchesAt, startSandbox, type Sandbox,
} from '../src/sandbox/startSandbox.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { bruteEffectiveRates, halfHoursOf, type Household, type Mode, type Span } from './helpers/dispatchBruteForce.js';
import { runCli } from './helpers/runCli.js';

const EV_PRODUCT = 'EV-SANDBOX-24-01-01';
const DEVICE_ROWS = `SELECT start_at, end_at, superseded_at IS NOT NULL AS superseded, dispatch_type FROM dispatches`;
// the synthetic EV product's prices (data/sandbox/synthetic/four_rate_ev_product.json)
const product = JSON.parse(readFileSync(new URL('../data/sandbox/synthetic/four_rate_ev_product.json', import.meta.url), 'utf8')) as {
  day_unit_rates: { value_inc_vat: number; valid_from: string; valid_to: string | null }[];
  night_unit_rates: { value_inc_vat: number }[];
};
const priceAt = (rates: { value_inc_vat: number; valid_from: string; valid_to: string | null }[], ms: number) =>
  rates.find((r) => Date.parse(r.valid_from) <= ms && (r.valid_to === null || ms < Date.parse(r.valid_to)))!.value_inc_vat;
const HOUSEHOLD: Household = {
  dayRate: (ms) => priceAt(product.day_unit_rates, ms),
  nightRate: () => product.night_unit_rates[0]!.value_inc_vat,
  bandStart: 23 * 60 + 30,
  bandEnd: 5 * 60 + 30,
};
const NIGHTS = ['2024-03-30', '2024-03-31', '2024-10-26', '2024-10-27'];
const completedBy = (clock: number): Span[] => COMPLETED_DISPATCHES
  .map((d) => ({ start: Date.parse(d.start), end: Date.parse(d.end) })).filter((d) => d.end <= clock);
/** The smart (not boost) slots of the plan the sandbox serves at `clock`. */
const planAt = (clock: number, vanish = false): Span[] => plannedDispatchesAt(clock, vanish)
  .filter((d) => d.type !== 'BOOST').map((d) => ({ start: Date.parse(d.start), end: Date.parse(d.end) }));

let clock = Date.parse('2024-10-27T12:00:00Z');
let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => new Date(clock) });
  dir = mkdtempSync(join(tmpdir(), 'tariffs-dispatches-'));
});
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** KT-CT-1199 is retried like a 429: these clients retry on the test's clock, not the machine's. */
const NO_WAITS = { retry: { baseDelayMs: 5, maxDelayMs: 20 }, sleep: async () => {} };

async function ingest(db: string, baseUrl = sandbox.baseUrl): Promise<IngestSummary> {
  const config = await loadConfig({ db, baseUrl }, { TARIFFS_API_KEY: SANDBOX_API_KEY });
  return runIngest({
    tariffs: [], products: [{ code: EV_PRODUCT, regions: ['L'] }], accounts: [SANDBOX_EV_ACCOUNT],
    // the household's Power Ups (test/power-up.test.ts) would price some half-hours free
    useCases: ['rates', 'accounts', 'dispatches'],
    from: new Date('2024-03-29T00:00:00Z'), to: new Date('2024-11-01T00:00:00Z'),
  }, { config, logger: silentLogger(), now: () => new Date(clock), http: NO_WAITS });
}

async function query<T extends object = Record<string, unknown>>(db: string, sql: string, timeZone?: string): Promise<T[]> {
  const w = await Warehouse.open(db, { readOnly: true });
  try {
    if (timeZone) await w.run(`SET TimeZone = '${timeZone}'`);
    return await w.all<T>(sql);
  } finally {
    w.close();
  }
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('the GraphQL client', () => {
  it('asks with a token, reads the answers, and keeps errorCode on a typed error', async () => {
    clock = Date.parse('2024-10-27T12:00:00Z');
    const http = new HttpClient(NO_WAITS);
    const base = new URL(sandbox.baseUrl);
    try {
      const client = new DispatchClient(http, base, credentialsFrom({ apiKey: SANDBOX_API_KEY }, base, 'token'));
      const devices = await client.devices(SANDBOX_EV_ACCOUNT);
      expect(devices).toEqual([{ deviceId: SANDBOX_EV_DEVICE, deviceType: 'ELECTRIC_VEHICLES', provider: 'TESLA' }]);
      const planned = await client.plannedDispatches(SANDBOX_EV_DEVICE);
      expect(planned.map((d) => [iso(d.start), d.type, d.deltaKwh])).toEqual([
        ['2024-10-27T13:00:00Z', 'SMART', 7], ['2024-10-27T16:00:00Z', 'SMART', 10.5], ['2024-10-27T19:00:00Z', 'BOOST', 3.5],
      ]);
      const completed = await client.completedDispatches(SANDBOX_EV_ACCOUNT);
      expect(completed).toHaveLength(7);
      expect(completed[0]).toEqual({
        start: Date.parse('2024-03-30T13:10:00Z'), end: Date.parse('2024-03-30T14:40:00Z'), deltaKwh: -5.1, type: null, source: null, location: 'AT_HOME',
      });
      for (const code of ['KT-CT-4340', 'KT-CT-1199']) {
        sandbox.setFaults([`graphql-error:code=${code}`]);
        const error = await client.plannedDispatches(SANDBOX_EV_DEVICE).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(GraphqlError);
        expect(error).toMatchObject({ code: 'GRAPHQL', errorCode: code, field: 'flexPlannedDispatches', unavailable: code === 'KT-CT-4340', rateLimited: code === 'KT-CT-1199' });
      }
      sandbox.setFaults([]);
      // without a token (the API key as basic auth): an AUTHORIZATION error, no data
      const basic = new DispatchClient(http, base, credentialsFrom({ apiKey: SANDBOX_API_KEY }, base, 'basic'));
      const denied = await basic.devices(SANDBOX_EV_ACCOUNT).catch((e: unknown) => e);
      expect(denied).toMatchObject({ name: 'GraphqlError', errorType: 'AUTHORIZATION' });
      expect(String((denied as Error).message)).not.toContain(SANDBOX_API_KEY);
    } finally {
      sandbox.setFaults([]);
      await http.close();
    }
  });
});

describe('dispatches ingested incrementally, through the fault cases', () => {
  it('stores planned and completed dispatches, supersedes a vanished or moved plan, takes late ones, and goes on after KT-CT-4340', async () => {
    const db = join(dir, 'incremental.duckdb');
    clock = Date.parse('2024-10-27T12:00:00Z');
    sandbox.resetRequests();
    const first = await ingest(db);
    expect(first.status).toBe('ok');
    expect(first.warnings).toEqual([]);
    const ended = completedBy(clock);
    expect(ended).toHaveLength(7);
    expect([first.dispatches_completed, first.dispatches_planned, first.dispatches_superseded]).toEqual([7, 3, 0]);
    const devices = await query(db, 'SELECT device_id, account_number, device_type FROM smart_devices');
    expect(devices).toEqual([{ device_id: expect.any(String), account_number: SANDBOX_EV_ACCOUNT, device_type: 'ELECTRIC_VEHICLES' }]);

    // the same answers again: nothing new, nothing superseded
    const again = await ingest(db);
    expect([again.dispatches_completed, again.dispatches_planned, again.dispatches_superseded]).toEqual([0, 0, 0]);
    expect(await query(db, `SELECT kind, count(*) AS n FROM dispatches GROUP BY kind ORDER BY kind`))
      .toEqual([{ kind: 'completed', n: 7 }, { kind: 'planned', n: 3 }]);

    // the plan changes before it starts: its first slot vanishes, its second moves half an hour
    sandbox.setFaults(['dispatches-vanish']);
    const moved = await ingest(db);
    expect([moved.dispatches_planned, moved.dispatches_superseded]).toEqual([1, 2]);
    const plan = plannedDispatchesAt(clock, false);
    const after = plannedDispatchesAt(clock, true);
    const planned = await query(db, `${DEVICE_ROWS} WHERE kind = 'planned' ORDER BY start_at, end_at`);
    expect(planned).toEqual([
      { start_at: iso(Date.parse(plan[0]!.start)), end_at: iso(Date.parse(plan[0]!.end)), superseded: true, dispatch_type: 'SMART' },
      { start_at: iso(Date.parse(plan[1]!.start)), end_at: iso(Date.parse(plan[1]!.end)), superseded: true, dispatch_type: 'SMART' },
      { start_at: iso(Date.parse(after[0]!.start)), end_at: iso(Date.parse(after[0]!.end)), superseded: false, dispatch_type: 'SMART' },
      { start_at: iso(Date.parse(plan[2]!.start)), end_at: iso(Date.parse(plan[2]!.end)), superseded: false, dispatch_type: 'BOOST' },
    ]);

    // the evening: the day's last dispatch (ended 19:00Z) is late, and arrives at the next run
    clock = Date.parse('2024-10-27T20:00:00Z');
    sandbox.setFaults(['dispatches-late']);
    const late = await ingest(db);
    expect(late.dispatches_completed).toBe(0);
    sandbox.setFaults([]);
    const arrived = await ingest(db);
    expect(arrived.dispatches_completed).toBe(1);
    expect(await query(db, `SELECT count(*) AS n FROM dispatches WHERE kind = 'completed'`)).toEqual([{ n: 8 }]);
    // a plan that ended is not superseded by a later plan that no longer lists it
    expect(await query(db, `SELECT count(*) AS n FROM dispatches WHERE kind = 'planned' AND superseded_at IS NOT NULL`)).toEqual([{ n: 2 }]);

    // KT-CT-4340: planned dispatches unavailable: one warning, the stored plan kept, the run ok
    sandbox.setFaults(['graphql-error:code=KT-CT-4340']);
    const before = await query(db, `${DEVICE_ROWS} WHERE kind = 'planned' ORDER BY start_at, end_at`);
    const unavailable = await ingest(db);
    expect(unavailable.status).toBe('ok');
    expect(unavailable.warnings).toHaveLength(1);
    expect(unavailable.warnings[0]).toMatch(/planned dispatches unavailable \(KT-CT-4340\)/);
    expect(await query(db, `${DEVICE_ROWS} WHERE kind = 'planned' ORDER BY start_at, end_at`)).toEqual(before);
    expect(await query(db, `SELECT kind, outcome, error_code FROM dispatch_fetches WHERE outcome <> 'ok'`))
      .toEqual([{ kind: 'planned', outcome: 'unavailable', error_code: 'KT-CT-4340' }]);
    // KT-CT-1199 on completed dispatches, never clearing: retried, then kept on the error as its code, one warning
    sandbox.setFaults(['graphql-error:code=KT-CT-1199,field=completedDispatches']);
    const asked = () => sandbox.requests.filter((r) => r.body?.includes('completedDispatches(')).length;
    const askedBefore = asked();
    const limited = await ingest(db);
    expect(limited.warnings).toEqual([expect.stringMatching(/rate limited \(KT-CT-1199\)/)]);
    expect(asked() - askedBefore).toBe(6); // every attempt the retry policy allows
    sandbox.setFaults([]);
    // every GraphQL request carried a token, never the API key
    const graphql = sandbox.requests.filter((r) => r.path.startsWith('/v1/graphql'));
    expect(graphql.length).toBeGreaterThan(0);
    for (const r of graphql.filter((x) => !x.body?.includes('obtainKrakenToken'))) expect(r.headers.authorization).toMatch(/^Token /);
  }, 120_000);
});

describe('one token a run', () => {
  it('exchanges the API key for a GraphQL token once, shared by dispatches and Power Ups', async () => {
    clock = Date.parse('2024-10-27T12:00:00Z');
    const exchanges = () => sandbox.requests.filter((r) => r.body?.includes('obtainKrakenToken')).length;
    const asks = () => sandbox.requests.filter((r) => r.path.startsWith('/v1/graphql') && !r.body?.includes('obtainKrakenToken')).length;
    const dispatchAsks = () => sandbox.requests.filter((r) => r.body?.includes('completedDispatches(')).length;
    const flexibilityAsks = () => sandbox.requests.filter((r) => /customerFlexibilityCampaignEvents|savingSessions/.test(r.body ?? '')).length;
    const before = [exchanges(), asks(), dispatchAsks(), flexibilityAsks()] as const;
    const config = await loadConfig({ db: join(dir, 'one-token.duckdb'), baseUrl: sandbox.baseUrl }, { TARIFFS_API_KEY: SANDBOX_API_KEY });
    const summary = await runIngest({
      tariffs: [], products: [{ code: EV_PRODUCT, regions: ['L'] }], accounts: [SANDBOX_EV_ACCOUNT],
      useCases: ['rates', 'accounts', 'dispatches', 'flexibility'],
      noConsumption: true,
      from: new Date('2024-10-01T00:00:00Z'), to: new Date('2024-11-01T00:00:00Z'),
    }, { config, logger: silentLogger(), now: () => new Date(clock), http: NO_WAITS });
    expect(summary.status).toBe('ok');
    // both use cases asked GraphQL, with one token between them
    expect(dispatchAsks() - before[2]).toBeGreaterThan(0);
    expect(flexibilityAsks() - before[3]).toBeGreaterThan(0);
    expect(asks() - before[1]).toBeGreaterThan(2);
    expect(exchanges() - before[0]).toBe(1);
  });
});

describe('effective rates equal the brute force', () => {
  let db: string;
  const firstClock = Date.parse('2024-10-27T12:00:00Z');
  const secondClock = Date.parse('2024-11-01T00:00:00Z');

  beforeAll(async () => {
    db = join(dir, 'effective.duckdb');
    sandbox.setFaults([]);
    clock = firstClock;
    expect((await ingest(db)).status).toBe('ok');
  }, 120_000);

  const compare = async (mode: Mode, completed: Span[], planned: Span[], knownUntil: number, timeZone?: string) => {
    const rows = await query<Record<string, unknown>>(db, `
      SELECT slot_start, value_inc_vat, source, provisional, capped
      FROM effective_rates_with('${mode}')
      WHERE CAST(local_date AS VARCHAR) IN (${NIGHTS.map((d) => `'${d}'`).join(', ')})
      ORDER BY slot_start`, timeZone);
    const expected = bruteEffectiveRates(HOUSEHOLD, NIGHTS, completed, planned, knownUntil, mode);
    expect(rows.length).toBe(48 + 46 + 48 + 50); // 30 Mar, 31 Mar (spring forward), 26 Oct, 27 Oct (fall back)
    expect(rows.map((r) => ({ ...r, value_inc_vat: Math.round(Number(r.value_inc_vat) * 1e6) / 1e6 }))).toEqual(expected);
    return expected;
  };

  it('with a plan for the rest of the fall-back day: every mode, in UTC and two other session time zones', async () => {
    const completed = completedBy(firstClock);
    const planned = planAt(firstClock);
    for (const timeZone of [undefined, 'America/New_York', 'Pacific/Auckland']) {
      for (const mode of ['default', 'completed', 'planned', 'none'] as const) await compare(mode, completed, planned, firstClock, timeZone);
    }
    const expected = bruteEffectiveRates(HOUSEHOLD, NIGHTS, completed, planned, firstClock, 'default');
    // what the rules did here, so that the comparison cannot pass on an empty case
    const count = (source: string, date: string) => expected.filter((r) => r.source === source && halfHoursOf(date).includes(Date.parse(r.slot_start))).length;
    expect(count('completed_dispatch', '2024-10-26')).toBe(12);
    expect(expected.filter((r) => r.capped).length).toBeGreaterThanOrEqual(3);
    expect(count('planned_dispatch', '2024-10-27')).toBe(5);
    expect(count('night_band', '2024-10-27')).toBe(14); // 00:00-05:30 of a 25-hour night, and 23:30-00:00
    expect(count('night_band', '2024-03-31')).toBe(10); // 00:00-05:30 less the hour skipped, and 23:30-00:00
  });

  it('once every dispatch has completed: the cap on both clock-change days, nothing provisional', async () => {
    clock = secondClock;
    const summary = await ingest(db);
    expect(summary.dispatches_completed).toBe(1);
    const expected = await compare('default', completedBy(secondClock), [...planAt(firstClock), ...planAt(secondClock)], secondClock);
    expect(expected.filter((r) => r.source === 'planned_dispatch' || r.provisional)).toEqual([]);
    expect(expected.filter((r) => r.capped).map((r) => r.slot_start)).toEqual([
      '2024-03-31T12:00:00Z', '2024-10-26T13:00:00Z', '2024-10-26T13:30:00Z', '2024-10-27T18:30:00Z',
    ]);
    // the view is the 'default' mode
    expect(await query(db, `SELECT * FROM effective_rates EXCEPT SELECT * FROM effective_rates_with('default')`)).toEqual([]);
    expect(await query(db, `SELECT count(*) > 0 AS rows FROM effective_rates`)).toEqual([{ rows: true }]);
  });

  it('`cost` of the household equals the brute force, with and without dispatches; the mode is said', async () => {
    clock = secondClock;
    const from = '2024-10-26';
    const to = '2024-10-28';
    const half = halfHoursOf('2024-10-26').concat(halfHoursOf('2024-10-27'));
    const run = async (extra: string[]) => {
      const result = await runCli(['cost', '--meter', EV_HOUSEHOLD.mpan, '--per', 'half-hour', '--from', from, '--to', to, '--db', db,
        '--format', 'json', ...extra]);
      expect(result.code, result.stderr).toBe(0);
      return { rows: JSON.parse(result.stdout) as { slot_start: string; kwh: number; value_inc_vat: number; cost_inc_vat: number }[], stderr: result.stderr };
    };
    const known = secondClock;
    for (const [flags, mode] of [[[], 'default'], [['--dispatches', 'none'], 'none'], [['--dispatches', 'planned'], 'planned']] as const) {
      const { rows, stderr } = await run([...flags]);
      expect(stderr).toContain(`dispatches := '${mode}'`);
      const expected = bruteEffectiveRates(HOUSEHOLD, ['2024-10-26', '2024-10-27'], completedBy(known),
        [...planAt(firstClock), ...planAt(secondClock)], known, mode);
      expect(rows.map((r) => r.slot_start)).toEqual(half.map(iso));
      rows.forEach((r, i) => {
        const kwh = householdReading('import', half[i]!);
        expect(r.kwh).toBeCloseTo(kwh, 4);
        expect(r.value_inc_vat).toBeCloseTo(expected[i]!.value_inc_vat, 4);
        expect(r.cost_inc_vat).toBeCloseTo(kwh * expected[i]!.value_inc_vat, 3);
      });
    }
    const none = (await run(['--dispatches', 'none'])).rows.reduce((s, r) => s + r.cost_inc_vat, 0);
    const billed = (await run([])).rows.reduce((s, r) => s + r.cost_inc_vat, 0);
    expect(billed).toBeLessThan(none); // dispatches made some day-rate half-hours off-peak
    expect((await runCli(['cost', '--meter', EV_HOUSEHOLD.mpan, '--dispatches', 'sometimes', '--db', db])).code).toBe(2);
  }, 120_000);

  it('`compare` prices the household with its dispatches, as tariff_comparison does by default', async () => {
    clock = secondClock;
    const range = { from: new Date('2024-10-26T00:00:00+01:00'), to: new Date('2024-10-28T00:00:00Z') };
    const w = await Warehouse.open(db, { readOnly: true });
    try {
      const compared = await tariffComparison(w, { meter: EV_HOUSEHOLD.mpan, tariffs: [EV_HOUSEHOLD.tariff], payment: 'DIRECT_DEBIT', ...range });
      const macro = (mode: string) => w.all(`SELECT scenario, energy_cost_inc_vat FROM tariff_comparison($mp, [$tariff], CAST($from AS TIMESTAMPTZ),
        CAST($to AS TIMESTAMPTZ), dispatches := $mode) ORDER BY 1`, { mp: EV_HOUSEHOLD.mpan, tariff: EV_HOUSEHOLD.tariff,
        from: range.from.toISOString(), to: range.to.toISOString(), mode });
      const actual = compared.find((r) => r.scenario === 'actual')!;
      const [withDispatches, without] = [await macro('default'), await macro('none')];
      expect(actual.energy_cost_inc_vat).toBeCloseTo(Number(withDispatches.find((r) => r.scenario === 'actual')!.energy_cost_inc_vat), 9);
      // and the dispatches count: without them the same days cost more
      expect(Number(without.find((r) => r.scenario === 'actual')!.energy_cost_inc_vat)).toBeGreaterThan(Number(actual.energy_cost_inc_vat));
    } finally {
      w.close();
    }
  });

  it("the rates job's dispatches tick refreshes only the plan, only for an account on Intelligent Octopus Go", async () => {
    const tick = async (accounts: string[]) => runRates({
      config: { ...(await loadConfig({ db, baseUrl: sandbox.baseUrl }, { TARIFFS_API_KEY: SANDBOX_API_KEY })), accounts },
      logger: silentLogger(), now: () => new Date(clock), signal: new AbortController().signal, triggers: ['dispatches'], busyTimeoutMs: 5_000,
    });
    clock = Date.parse('2024-11-02T00:07:00Z');
    sandbox.resetRequests();
    expect(await tick(['A-NOT-ON-IOG'])).toMatchObject({ status: 'skipped', message: 'no configured account has an Intelligent Octopus Go agreement' });
    expect(sandbox.requests).toEqual([]);
    const result = await tick([SANDBOX_EV_ACCOUNT]);
    expect(result).toMatchObject({ status: 'ok', ratesChanged: 0, details: { dispatches_planned: 3, dispatches_superseded: 0 } });
    const asked = sandbox.requests.map((r) => r.body ?? r.path).join('\n');
    expect(asked).toContain('flexPlannedDispatches');
    expect(asked).not.toContain('completedDispatches');
    expect(sandbox.requests.some((r) => r.path.includes('-unit-rates') || r.path.includes('/consumption'))).toBe(false);
    clock = secondClock;
  });

  it('`off-peak` leaves dispatched half-hours out unless --include-dispatches', async () => {
    const plain = await runCli(['off-peak', '--tariff', EV_HOUSEHOLD.tariff, '--from', '2024-10-26', '--to', '2024-10-27', '--db', db, '--format', 'json']);
    expect(plain.code, plain.stderr).toBe(0);
    const periods = JSON.parse(plain.stdout) as { start: string; end: string; slots: number }[];
    expect(periods.map((p) => [p.start, p.slots])).toEqual([['2024-10-25T23:00:00Z', 11], ['2024-10-26T22:30:00Z', 1]]);
    const withDispatches = await runCli(['off-peak', '--tariff', EV_HOUSEHOLD.tariff, '--from', '2024-10-26', '--to', '2024-10-27', '--db', db,
      '--format', 'json', '--include-dispatches']);
    expect(withDispatches.code, withDispatches.stderr).toBe(0);
    expect(withDispatches.stderr).toContain('completed dispatches where known');
    const adjusted = JSON.parse(withDispatches.stdout) as { start: string; slots: number; dispatch_slots: number; account_number: string }[];
    // 07:00-13:00Z dispatched (12 half-hours credited; 13:00-14:00 past the cap)
    expect(adjusted.map((p) => [p.start, p.slots, p.dispatch_slots])).toEqual([
      ['2024-10-25T23:00:00Z', 11, 0], ['2024-10-26T07:00:00Z', 12, 12], ['2024-10-26T22:30:00Z', 1, 0],
    ]);
    expect(adjusted.every((p) => p.account_number === SANDBOX_EV_ACCOUNT)).toBe(true);
  }, 60_000);
});

describe('the strict spec profile', () => {
  it('serves no GraphQL: the ingest warns once about dispatches and goes on', async () => {
    const spec = await startSandbox({ profile: 'spec', now: () => new Date(clock) });
    try {
      clock = Date.parse('2024-10-27T12:00:00Z');
      const db = join(dir, 'spec.duckdb');
      const summary = await ingest(db, spec.baseUrl);
      const about = summary.warnings.filter((w) => /dispatches/.test(w));
      expect(about).toHaveLength(1);
      expect(about[0]).toMatch(/devices and dispatches not available \(HTTP 404\)/);
      expect([summary.dispatches_completed, summary.dispatches_planned]).toEqual([0, 0]);
      expect(await query(db, 'SELECT count(*) AS n FROM dispatches')).toEqual([{ n: 0 }]);
      expect(await query(db, `SELECT kind, outcome FROM dispatch_fetches`)).toEqual([{ kind: 'devices', outcome: 'failed' }]);
      // only the token was asked for (and refused with 404): no dispatch query followed
      const graphql = spec.requests.filter((r) => r.path.startsWith('/v1/graphql'));
      expect(graphql.length).toBeGreaterThanOrEqual(1);
      expect(graphql.every((r) => r.body?.includes('obtainKrakenToken'))).toBe(true);
    } finally {
      await spec.close();
    }
  }, 120_000);
});

describe('the rates job\'s dispatches tick', () => {
  it('is listed only for a config with accounts, every 5 minutes, never on :00 or :30', async () => {
    const config = join(dir, 'accounts.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(config, JSON.stringify({ accounts: [SANDBOX_EV_ACCOUNT], db: join(dir, 'tick.duckdb') }));
    const listed = await runCli(['schedule', '--list', '--config', config, '--now', '2026-10-24T12:00:00Z', '--hours', '1', '--format', 'json']);
    expect(listed.code, listed.stderr).toBe(0);
    const rates = (JSON.parse(listed.stdout) as { job: string; next: { at: string; triggers: string[] }[] }[]).find((j) => j.job === 'rates')!;
    const ticks = rates.next.filter((n) => n.triggers.includes('dispatches')).map((n) => n.at);
    expect(ticks.length).toBeGreaterThanOrEqual(11);
    for (const at of ticks) expect(new Date(at).getUTCMinutes() % 30).not.toBe(0);
    expect(ticks[0]).toBe('2026-10-24T12:03:00Z');
  });
});

describe('`cheapest` and `slots` with --dispatches equal a brute force over dispatch-adjusted prices', () => {
  // the state of the fall-back day at noon: completed dispatches up to then (the 26th capped),
  // the plan for its afternoon; a non-IOG Agile tariff besides, to show the flag changes nothing
  let db: string;
  const at = Date.parse('2024-10-27T12:00:00Z');
  const AGILE = 'E-1R-AGILE-18-02-21-J'; // served for 2020: the 25 October 2020 fall-back night
  const DAYS = ['2024-10-26', '2024-10-27'];
  const range = ['--from', DAYS[0]!, '--to', '2024-10-28'];

  beforeAll(async () => {
    db = join(dir, 'ranked.duckdb');
    sandbox.setFaults([]);
    clock = at;
    expect((await ingest(db)).status).toBe('ok');
    const config = await loadConfig({ db, baseUrl: sandbox.baseUrl }, { TARIFFS_API_KEY: SANDBOX_API_KEY });
    const agile = await runIngest({ tariffs: [AGILE], products: [], accounts: [], from: new Date('2020-10-20T00:00:00Z'), to: new Date('2020-10-30T00:00:00Z') },
      { config, logger: silentLogger(), now: () => new Date(clock) });
    expect(agile.status).toBe('ok');
  }, 120_000);

  const cli = async (args: string[], over = range) => {
    const result = await runCli([...args, ...over, '--db', db, '--format', 'json']);
    expect(result.code, result.stderr).toBe(0);
    return { rows: JSON.parse(result.stdout) as Record<string, unknown>[], stderr: result.stderr };
  };
  const brute = (mode: Mode) => bruteEffectiveRates(HOUSEHOLD, DAYS, completedBy(at), planAt(at), at, mode)
    .map((r) => ({ ms: Date.parse(r.slot_start), price: r.value_inc_vat }));
  const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

  /** Per local day, the n contiguous half-hours of least total price (the earliest of equals). */
  const bruteWindows = (prices: { ms: number; price: number }[], n: number) => DAYS.map((date) => {
    const day = prices.filter((p) => halfHoursOf(date).includes(p.ms));
    let best: { start: number; sum: number } | undefined;
    for (let i = 0; i + n <= day.length; i++) {
      const sum = day.slice(i, i + n).reduce((s, p) => s + p.price, 0);
      if (best === undefined || sum < best.sum - 1e-9) best = { start: day[i]!.ms, sum };
    }
    return { local_date: date, start: iso(best!.start), end: iso(best!.start + n * 1_800_000), mean_inc_vat: round4(best!.sum / n) };
  });
  /** The n half-hours of least price over both days (the earliest of equals), in time order. */
  const bruteSlots = (prices: { ms: number; price: number }[], n: number) => [...prices]
    .sort((a, b) => a.price - b.price || a.ms - b.ms).slice(0, n).sort((a, b) => a.ms - b.ms)
    .map((p) => ({ start: iso(p.ms), value_inc_vat: round4(p.price) }));

  it('cheapest --per-day and slots on the fall-back day, for every mode; the mode is said', async () => {
    const answers = new Map<string, string>();
    for (const [flags, mode] of [[[], 'default'], [['--dispatches', 'completed'], 'completed'], [['--dispatches', 'planned'], 'planned'],
      [['--dispatches', 'none'], 'none']] as const) {
      const prices = brute(mode);
      expect(prices).toHaveLength(48 + 50);
      const windows = await cli(['cheapest', '--tariff', EV_HOUSEHOLD.tariff, '--duration', '6h', '--per-day', ...flags]);
      expect(windows.stderr).toContain(`of account ${SANDBOX_EV_ACCOUNT} counted`);
      expect(windows.stderr).toContain(mode === 'none' ? 'the night band only' : `effective_rates_with('${mode}')`);
      expect(windows.rows.map((r) => ({ local_date: r.local_date, start: r.start, end: r.end, mean_inc_vat: round4(Number(r.mean_inc_vat)) })))
        .toEqual(bruteWindows(prices, 12));
      const slots = await cli(['slots', '--tariff', EV_HOUSEHOLD.tariff, '--count', '44', ...flags]);
      expect(slots.rows.map((r) => ({ start: r.start, value_inc_vat: round4(Number(r.value_inc_vat)) }))).toEqual(bruteSlots(prices, 44));
      answers.set(mode, JSON.stringify([windows.rows, slots.rows]));
    }
    // the four modes answer differently here (the 26th's completed dispatches move its window; the
    // 27th's planned afternoon joins the 44 cheapest half-hours), so no comparison passes on prices left alone
    expect(new Set(answers.values()).size).toBe(4);
    // the analyst's SQL (as --help gives it) asks the same question
    const sql = await query<{ start: string; local_date: string; mean_inc_vat: number }>(db, `
      SELECT CAST(local_date AS VARCHAR) AS local_date, start, "end", mean_inc_vat
      FROM price_windows('${EV_HOUSEHOLD.tariff}', 12, TIMESTAMPTZ '2024-10-25 23:00:00+00', TIMESTAMPTZ '2024-10-28 00:00:00+00', per := 'day',
        slot_prices := (SELECT list({payment_method: payment_method, slot_start: slot_start, value_inc_vat: value_inc_vat, value_exc_vat: value_exc_vat})
                        FROM effective_rates_with('completed') WHERE tariff_code = '${EV_HOUSEHOLD.tariff}' AND account_number = '${SANDBOX_EV_ACCOUNT}'))`,
      'Pacific/Auckland');
    expect(sql.map((r) => ({ ...r, mean_inc_vat: round4(Number(r.mean_inc_vat)) }))).toEqual(bruteWindows(brute('completed'), 12));
  }, 120_000);

  it('a tariff that is not Intelligent Octopus Go answers the same with and without the flag, and says so', async () => {
    const cli2020 = (args: string[]) => cli(args, ['--from', '2020-10-24', '--to', '2020-10-26']);
    const plainWindows = await cli2020(['cheapest', '--tariff', AGILE, '--duration', '2h', '--per-day']);
    const plainSlots = await cli2020(['slots', '--tariff', AGILE, '--count', '6']);
    expect(plainWindows.rows).toHaveLength(2);
    expect(plainSlots.rows).toHaveLength(6);
    expect(plainWindows.stderr).not.toContain('dispatches');
    for (const mode of ['completed', 'planned', 'none']) {
      const windows = await cli2020(['cheapest', '--tariff', AGILE, '--duration', '2h', '--per-day', '--dispatches', mode]);
      expect(windows.rows).toEqual(plainWindows.rows);
      expect(windows.stderr).toContain('--dispatches changes nothing');
      const slots = await cli2020(['slots', '--tariff', AGILE, '--count', '6', '--dispatches', mode]);
      expect(slots.rows).toEqual(plainSlots.rows);
    }
    expect((await runCli(['slots', '--tariff', AGILE, '--count', '6', '--dispatches', 'sometimes', '--db', db])).code).toBe(2);
  }, 120_000);
});
