// The warehouse against the sandbox: a whole real Agile series backfilled, idempotent re-runs,
// faults that change nothing, local days of 46/48/50 half-hours, revisions, accounts, and the
// data tests (queries that must return zero rows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY, startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { ingest, query, ratesFingerprint, recordedSleep, requestedWaits, tempDir } from './helpers/warehouseTools.js';
import type { IngestSummary } from '../src/ingest/ingest.js';
import { runCli, type CliResult } from './helpers/runCli.js';
import { PROFILE } from './helpers/testProfile.js';

const A = 'E-1R-AGILE-18-02-21-A';
const J = 'E-1R-AGILE-18-02-21-J';
const VAR = 'E-1R-VAR-17-01-11-A';
const SERIES_FROM = new Date('2017-01-01T00:00:00Z');

let sandbox: Sandbox;
const tmp = tempDir('tariffs-warehouse-');
const clean = tmp.file('clean.duckdb');
/** Faults bounded in number (times=) so that no request can be unlucky enough to exhaust its attempts. */
const FAULTS = ['503:every=4,times=8', 'reset:every=7,times=5', '429:retry_after=0,every=9,times=4',
  'truncate:every=11,times=4', 'stall-body:every=13,times=2'];
/** Runs that wait on the API rather than compute, started beside the clean backfill, each on a
 *  sandbox of its own, and asserted on by their cases below. */
let faultySandbox: Sandbox;
let faultyRun: Promise<IngestSummary>;
let accountSandbox: Sandbox;
let accountRun: Promise<CliResult>;

beforeAll(async () => {
  [sandbox, faultySandbox, accountSandbox] = await Promise.all([
    startSandbox({ profile: PROFILE }), startSandbox({ profile: PROFILE, faults: FAULTS }), startSandbox({ profile: PROFILE }),
  ]);
  faultyRun = ingest(tmp.file('faulty.duckdb'), faultySandbox.baseUrl, { tariffs: [A, J, VAR], from: SERIES_FROM }, {},
    { retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 10 }, timeouts: { bodyMs: 300 }, sleep: recordedSleep });
  accountRun = runCli(['ingest', '--account', SANDBOX_ACCOUNT, '--db', tmp.file('account.duckdb'), '--base-url', accountSandbox.baseUrl,
    '--no-products', '--format', 'json'], { env: { TARIFFS_API_KEY: SANDBOX_API_KEY } });
  for (const run of [faultyRun, accountRun]) run.catch(() => {}); // awaited, and so reported, by their cases
  await ingest(clean, sandbox.baseUrl, { tariffs: [A, J, VAR], from: SERIES_FROM });
}, 120_000);
afterAll(async () => {
  await Promise.allSettled([faultyRun, accountRun]);
  await Promise.all([sandbox, faultySandbox, accountSandbox].map((s) => s?.close()));
  tmp.remove();
});

describe('backfill', () => {
  it("stores each region's whole Agile series, one row per half-hour", async () => {
    const counts = await query(clean, `SELECT tariff_code, count(*) AS n, min(valid_from) AS first, max(valid_from) AS last
      FROM unit_rates GROUP BY 1 ORDER BY 1`);
    const byCode = Object.fromEntries(counts.map((r) => [r.tariff_code, r]));
    const served = Object.fromEntries(sandbox.tariffs().filter((t) => t.kind === 'standard-unit-rates').map((t) => [t.tariffCode, t]));
    for (const code of [A, J, VAR]) {
      expect(byCode[code]!.n).toBe(served[code]!.rows);
    }
    expect(byCode[A]!.first).toBe('2017-01-01T00:30:00Z');
    expect(byCode[J]!.last).toBe('2024-05-14T21:30:00Z');
  });

  it("waits the server's Retry-After: 1 s each time the spec profile throttles, never in the default profile (on the test's clock)", () => {
    expect(requestedWaits.includes(1000)).toBe(PROFILE === 'spec');
  });

  it('data tests: no duplicate key, no gap inside a series, no inverted validity', async () => {
    expect(await query(clean, `SELECT tariff_code, rate_type, valid_from, payment_method, count(*)
      FROM unit_rates GROUP BY ALL HAVING count(*) > 1`)).toEqual([]);
    expect(await query(clean, `SELECT * FROM unit_rates WHERE valid_to <= valid_from`)).toEqual([]);
    expect(await query(clean, `SELECT tariff_code, slot_start, count(*) FROM rate_slots
      WHERE tariff_code IN ('${A}', '${J}') GROUP BY ALL HAVING count(*) > 1`)).toEqual([]);
    // every local day strictly inside each series has exactly its number of half-hours
    const wrongDays = await query(clean, `WITH per_day AS (
        SELECT tariff_code, local_date, count(*) AS slots,
               min(settlement_period) AS first_sp, max(settlement_period) AS last_sp
        FROM rate_slots WHERE tariff_code IN ('${A}', '${J}') GROUP BY ALL),
      inner_days AS (
        SELECT p.*, d.slots AS expected FROM per_day p JOIN london_days d USING (local_date)
        WHERE p.local_date > (SELECT min(local_date) FROM per_day q WHERE q.tariff_code = p.tariff_code)
          AND p.local_date < (SELECT max(local_date) FROM per_day q WHERE q.tariff_code = p.tariff_code))
      SELECT * FROM inner_days WHERE slots <> expected OR first_sp <> 1 OR last_sp <> expected`);
    expect(wrongDays).toEqual([]);
  });

  it("data test: the stored local fields agree with Node's own tz database (Intl) for every row", async () => {
    // the ingest derives them in SQL (london_local, ICU); Intl.DateTimeFormat is an independent reading
    const wall = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
    });
    const walls = new Map<number, string>();
    const wallOf = (ms: number): string => {
      let text = walls.get(ms);
      if (text === undefined) {
        const p = Object.fromEntries(wall.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
        text = `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
        walls.set(ms, text);
      }
      return text;
    };
    // a local day starts at its first half-hour whose wall date is that day (searched from 04:00 UTC the day before)
    const starts = new Map<string, number>();
    const dayStart = (date: string): number => {
      let start = starts.get(date);
      if (start === undefined) {
        start = Date.parse(`${date}T00:00:00Z`) - 4 * 3_600_000;
        while (wallOf(start).slice(0, 10) !== date) start += 1_800_000;
        starts.set(date, start);
      }
      return start;
    };
    const rows = await query(clean, `SELECT epoch_ms(valid_from) AS ms, strftime(local_date, '%Y-%m-%d') AS local_date,
      strftime(local_start, '%Y-%m-%dT%H:%M:%S') AS local_start, utc_offset_minutes, settlement_period FROM unit_rates`);
    expect(rows.length).toBeGreaterThan(150_000);
    const wrong = rows.filter((r) => {
      const ms = Number(r.ms);
      const local = wallOf(ms);
      return r.local_start !== local || r.local_date !== local.slice(0, 10)
        || Number(r.utc_offset_minutes) !== (Date.parse(`${local}Z`) - ms) / 60_000
        || Number(r.settlement_period) !== (ms - dayStart(local.slice(0, 10))) / 1_800_000 + 1;
    });
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('data test: duration_us is valid_to - valid_from for every row, and long_unit_rates mirrors the others', async () => {
    // rate_slots takes the half-hours by duration_us and expands long_unit_rates: between them, every row once
    expect(await query(clean, `SELECT tariff_code, valid_from, valid_to, duration_us FROM unit_rates
      WHERE duration_us IS DISTINCT FROM epoch_us(valid_to) - epoch_us(valid_from) LIMIT 5`)).toEqual([]);
    expect(await query(clean, `(SELECT tariff_code, rate_type, valid_from, valid_to, payment_method FROM unit_rates
                                WHERE duration_us IS DISTINCT FROM 1800000000
                                EXCEPT ALL SELECT tariff_code, rate_type, valid_from, valid_to, payment_method FROM long_unit_rates)
                               UNION ALL
                               (SELECT tariff_code, rate_type, valid_from, valid_to, payment_method FROM long_unit_rates
                                EXCEPT ALL SELECT tariff_code, rate_type, valid_from, valid_to, payment_method FROM unit_rates
                                WHERE duration_us IS DISTINCT FROM 1800000000)`)).toEqual([]);
  });

  it('clock-change days have 46 and 50 half-hours, numbered without gaps', async () => {
    const days = await query(clean, `SELECT local_date, count(*) AS slots, max(settlement_period) AS last_sp,
        count(DISTINCT settlement_period) AS distinct_sp
      FROM rate_slots WHERE tariff_code = '${J}'
        AND local_date IN ('2020-03-29', '2020-10-25', '2024-03-31', '2023-10-29', '2023-06-01')
      GROUP BY 1 ORDER BY 1`);
    expect(days).toEqual([
      { local_date: '2020-03-29', slots: 46, last_sp: 46, distinct_sp: 46 },
      { local_date: '2020-10-25', slots: 50, last_sp: 50, distinct_sp: 50 },
      { local_date: '2023-06-01', slots: 48, last_sp: 48, distinct_sp: 48 },
      { local_date: '2023-10-29', slots: 50, last_sp: 50, distinct_sp: 50 },
      { local_date: '2024-03-31', slots: 46, last_sp: 46, distinct_sp: 46 },
    ]);
    // 2020-10-25: the repeated 01:00 and 01:30 wall times are periods 3,4 (BST) and 5,6 (GMT), all negative in region A
    const repeated = await query(clean, `SELECT settlement_period, strftime(local_start, '%H:%M') AS wall, utc_offset_minutes,
        value_inc_vat < 0 AS negative
      FROM rate_slots WHERE tariff_code = '${A}' AND local_date = '2020-10-25' AND settlement_period BETWEEN 3 AND 6
      ORDER BY settlement_period`);
    expect(repeated).toEqual([
      { settlement_period: 3, wall: '01:00', utc_offset_minutes: 60, negative: true },
      { settlement_period: 4, wall: '01:30', utc_offset_minutes: 60, negative: true },
      { settlement_period: 5, wall: '01:00', utc_offset_minutes: 0, negative: true },
      { settlement_period: 6, wall: '01:30', utc_offset_minutes: 0, negative: true },
    ]);
  });

  it('expands long rates to half-hours up to a bounded horizon', async () => {
    const rows = await query(clean, `SELECT count(*) AS n, min(slot_start) AS first, max(slot_start) AS last,
        count(DISTINCT value_inc_vat) AS prices
      FROM rate_slots WHERE tariff_code = '${VAR}'`);
    expect(rows[0]!.first).toBe('2017-01-11T10:00:00Z');
    expect(Date.parse(rows[0]!.last as string)).toBeLessThan(Date.now() + 4 * 86_400_000);
    expect(Date.parse(rows[0]!.last as string)).toBeGreaterThan(Date.now());
    expect(rows[0]!.prices).toBe(6);
  });
});

describe('idempotence and incrementality', () => {
  it('a second run inserts and updates nothing, with one request per tariff', async () => {
    sandbox.resetRequests();
    const summary = await ingest(clean, sandbox.baseUrl, { tariffs: [A, J, VAR], noProducts: true });
    expect(summary).toMatchObject({ status: 'ok', inserted: 0, updated: 0 });
    expect(summary.unchanged).toBeGreaterThan(0); // the look-back re-read
    expect(summary.pages).toBe(3);
    // one rates request per tariff (the spec profile may throttle one: the same URL again)
    const asked = sandbox.requests.map((r) => r.path).filter((p) => p.includes('-tariffs/'));
    expect(new Set(asked).size).toBe(3);
    if (PROFILE === 'default') expect(summary.requests).toBe(3);
  });

  it('the same backfill with faults on gives an identical unit_rates', async () => {
    // FAULTS on its own sandbox, started in beforeAll beside the clean backfill
    const summary = await faultyRun;
    expect(summary.errors).toEqual([]);
    expect(summary.status).toBe('ok');
    expect(summary.requests - summary.pages).toBeGreaterThanOrEqual(20); // the faults did happen
    expect(await ratesFingerprint(tmp.file('faulty.duckdb'))).toEqual(await ratesFingerprint(clean));
  });

  it('keeps the old price in unit_rate_revisions when a re-fetch changes it', async () => {
    const db = tmp.file('revised.duckdb');
    const code = 'E-1R-REVISED-24-01-01-A';
    const slot = (i: number, price: number) => ({
      valid_from: new Date(Date.UTC(2024, 0, 1) + i * 1800_000).toISOString().replace('.000Z', 'Z'),
      valid_to: new Date(Date.UTC(2024, 0, 1) + (i + 1) * 1800_000).toISOString().replace('.000Z', 'Z'),
      value_exc_vat: price, value_inc_vat: price * 1.05, payment_method: null,
    });
    sandbox.addTariff({ tariffCode: code, rates: Array.from({ length: 96 }, (_, i) => slot(i, 10 + i)) });
    await ingest(db, sandbox.baseUrl, { tariffs: [code], from: new Date('2024-01-01T00:00:00Z'), noProducts: true });
    sandbox.addTariff({ tariffCode: code, rates: [slot(95, 99)] });
    const summary = await ingest(db, sandbox.baseUrl, { tariffs: [code], noProducts: true });
    expect(summary).toMatchObject({ inserted: 0, updated: 1 });
    const revisions = await query(db, 'SELECT valid_from, old_value_exc_vat, new_value_exc_vat, run_id FROM unit_rate_revisions');
    expect(revisions).toEqual([{ valid_from: '2024-01-02T23:30:00Z', old_value_exc_vat: 105, new_value_exc_vat: 99, run_id: summary.run_id }]);
  });
});

describe('long rates', () => {
  it('an open-ended rate later closed and followed by a new one: rate_slots follows', async () => {
    const db = tmp.file('fixed.duckdb');
    const code = 'E-1R-FIXED-24-01-01-A';
    const rate = (from: string, to: string | null, price: number) => ({
      valid_from: from, valid_to: to, value_exc_vat: price, value_inc_vat: price * 1.05, payment_method: 'DIRECT_DEBIT',
    });
    sandbox.addTariff({ tariffCode: code, rates: [rate('2024-01-01T00:00:00Z', null, 20)] });
    await ingest(db, sandbox.baseUrl, { tariffs: [code], from: new Date('2024-01-01T00:00:00Z'), noProducts: true });
    const open = await query(db, `SELECT count(*) AS n, count(DISTINCT value_exc_vat) AS prices FROM rate_slots WHERE tariff_code = '${code}'`);
    expect(open[0]!.prices).toBe(1);
    expect(open[0]!.n).toBeGreaterThan(48 * 365 * 2); // 2024 → three days past today
    sandbox.addTariff({ tariffCode: code, rates: [rate('2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z', 20), rate('2024-01-02T00:00:00Z', '2024-01-03T00:00:00Z', 10)] });
    const summary = await ingest(db, sandbox.baseUrl, { tariffs: [code], from: new Date('2024-01-01T00:00:00Z'), noProducts: true });
    expect(summary).toMatchObject({ inserted: 1, updated: 1 });
    const closed = await query(db, `SELECT value_exc_vat, count(*) AS n, min(slot_start) AS first, max(slot_start) AS last
      FROM rate_slots WHERE tariff_code = '${code}' GROUP BY 1 ORDER BY 1`);
    expect(closed).toEqual([
      { value_exc_vat: 10, n: 48, first: '2024-01-02T00:00:00Z', last: '2024-01-02T23:30:00Z' },
      { value_exc_vat: 20, n: 48, first: '2024-01-01T00:00:00Z', last: '2024-01-01T23:30:00Z' },
    ]);
    expect(await query(db, `SELECT * FROM unit_rate_revisions WHERE tariff_code = '${code}'`)).toHaveLength(1);
  });

  it('a long rate re-fetched as a half-hour becomes a half-hour of rate_slots, once', async () => {
    const db = tmp.file('shortened.duckdb');
    const code = 'E-1R-FIXED-24-02-01-A';
    const rate = (from: string, to: string | null, price: number) => ({
      valid_from: from, valid_to: to, value_exc_vat: price, value_inc_vat: price * 1.05, payment_method: 'DIRECT_DEBIT',
    });
    sandbox.addTariff({ tariffCode: code, rates: [rate('2024-02-01T00:00:00Z', '2024-02-02T00:00:00Z', 20)] });
    await ingest(db, sandbox.baseUrl, { tariffs: [code], from: new Date('2024-02-01T00:00:00Z'), noProducts: true });
    expect((await query(db, `SELECT count(*) AS n FROM rate_slots WHERE tariff_code = '${code}'`))[0]!.n).toBe(48);
    sandbox.addTariff({ tariffCode: code, rates: [rate('2024-02-01T00:00:00Z', '2024-02-01T00:30:00Z', 20)] });
    const summary = await ingest(db, sandbox.baseUrl, { tariffs: [code], from: new Date('2024-02-01T00:00:00Z'), noProducts: true });
    expect(summary).toMatchObject({ updated: 1 });
    expect(await query(db, `SELECT slot_start, value_exc_vat FROM rate_slots WHERE tariff_code = '${code}'`))
      .toEqual([{ slot_start: '2024-02-01T00:00:00Z', value_exc_vat: 20 }]);
    expect(await query(db, `SELECT duration_us FROM unit_rates WHERE tariff_code = '${code}'`)).toEqual([{ duration_us: 1800000000 }]);
  });
});

describe('accounts', () => {
  it("ingests the agreements' tariffs over their own periods with the sandbox key", async () => {
    const db = tmp.file('account.duckdb');
    const result = await accountRun; // on its own sandbox, started in beforeAll
    expect(result.stderr).not.toContain(SANDBOX_API_KEY);
    // Every agreement's tariff has rates (the gas one its product's quoted unit rate): nothing empty.
    expect(JSON.parse(result.stdout)[0].empty).toEqual([]);
    if (PROFILE === 'default') {
      expect(result.stderr.trim()).toBe('');
      expect(result.code).toBe(0);
    } else {
      // No day/night rates on a server of only the documented interface: the account's two-register
      // tariff fails (they are its required rates); the others are stored, with a warning each
      // about their standing charges (optional).
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/tariffs: E-2R-VAR-22-11-01-A: GET \S+\/(day|night)-unit-rates\/\S*: HTTP 404/);
      expect(result.stderr).toMatch(/optional resource missing: standing_charges of E-1R-AGILE-18-02-21-A/);
      const summary = JSON.parse(result.stdout)[0];
      expect(summary).toMatchObject({ status: 'partial', tariffs_failed: 1 });
    }
    const rows = await query(db, `SELECT tariff_code, min(valid_from) AS first, max(valid_from) AS last FROM unit_rates
      WHERE tariff_code = '${A}' GROUP BY 1`);
    // the sandbox account's Agile agreement runs 2019-01-01 → 2020-01-01
    expect(rows).toEqual([{ tariff_code: A, first: '2019-01-01T00:00:00Z', last: '2019-12-31T23:30:00Z' }]);
    expect(result.stdout).not.toContain(SANDBOX_API_KEY);
  });

  it('a wrong key fails with a clear auth error and exit 1', async () => {
    const db = tmp.file('account-wrong.duckdb');
    const result = await runCli(['ingest', '--account', SANDBOX_ACCOUNT, '--db', db, '--base-url', sandbox.baseUrl, '--no-products'],
      { env: { TARIFFS_API_KEY: 'sk_live_wrong_key_0000' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/401 unauthorised: the API key was not accepted/);
    expect(result.stderr).not.toContain('sk_live_wrong_key_0000');
  });
});
