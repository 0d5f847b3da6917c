// The peers' remaining cases (issue 28, section 2) against the sandbox and real DuckDB files, each
// answer checked against a brute force written apart from the SQL: target-rate info over several
// blocks (HomeAssistant-OctopusEnergy get_target_rate_info) for `slots|cheapest --per-day --check`
// across both 2020 clock changes and negative prices; a weight per half-hour (`--weights-from`) and
// its refusals; off-peak periods only from fully priced local days; a four-rate EV entry without
// night_start/night_end (evcc's mocked IOG product), ingested with IOG's published band.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkSlots, checkWindow, cheapestSlots, cheapestWindows, offPeakPeriods, relationSql,
  type BlockRow,
} from '../src/analytics/index.js';
import { loadConfig } from '../src/config/loadConfig.js';
import { runIngest } from '../src/ingest/ingest.js';
import { isIntelligentGoProduct, publishedNightBand } from '../src/ingest/publishedNightBand.js';
import { targetsFromProduct, type NightBandNotice } from '../src/ingest/resolveTargets.js';
import { silentLogger } from '../src/log/createLogger.js';
import { startSandbox, type RateInput, type Sandbox } from '../src/sandbox/startSandbox.js';
import { parseOffset } from '../src/cli/parseOffset.js';
import { inCliWords } from '../src/cli/requestWords.js';
import { Warehouse } from '../src/store/Warehouse.js';
import {
  HALF_HOUR, contiguousRuns, groupBy, halfHoursInDay, toSlots, utcIso, type Slot,
} from './helpers/analyticsBruteForce.js';
import { runCli, runCliCases } from './helpers/runCli.js';

const J = 'E-1R-AGILE-18-02-21-J';
/** create_rate_data(2023-10-14T00:00Z, 2023-10-15T00:00Z, [1, 2, 3, 4]) of the peer's off-peak
 *  tests: 48 half-hours cycling four prices; the last two are 00:00-01:00 BST of 2023-10-15. */
const AGILE_LIKE = 'E-1R-PEER-AGILE-LIKE-23-10-14-C';
/** The peer's two-rate days of test_get_off_peak_times (8.99997 p 00:30-04:30Z, else 30.24714 p). */
const GO_LIKE = 'E-1R-PEER-GO-LIKE-23-11-03-C';
const IOG = 'E-1R-IOG-SMB-VAR-24-10-29-H';
const MINUTE = 60_000;
const DAY = 86_400_000;
/** Real Agile J around the spring-forward, May's negative prices and the fall-back of 2020. */
const J_SPANS: [string, string][] = [
  ['2020-03-27T00:00:00Z', '2020-04-01T00:00:00Z'],
  ['2020-05-22T00:00:00Z', '2020-05-27T00:00:00Z'],
  ['2020-10-23T00:00:00Z', '2020-10-28T00:00:00Z'],
];

// Provenance: BottlecapDave/HomeAssistant-OctopusEnergy tests/unit/utils/test_get_off_peak_times.py
// (also shared/data/real/…/go_style_two_rate_2023-11-03_2023-11-07_test_get_off_peak_times.json).
const GO_LIKE_RATES: RateInput[] = [
  ['2023-11-06T04:30:00Z', '2023-11-07T00:30:00Z', 28.8068, 30.24714],
  ['2023-11-06T00:30:00Z', '2023-11-06T04:30:00Z', 8.5714, 8.99997],
  ['2023-11-05T04:30:00Z', '2023-11-06T00:30:00Z', 28.8068, 30.24714],
  ['2023-11-05T00:30:00Z', '2023-11-05T04:30:00Z', 8.5714, 8.99997],
  ['2023-11-04T04:30:00Z', '2023-11-05T00:30:00Z', 28.8068, 30.24714],
  ['2023-11-04T00:30:00Z', '2023-11-04T04:30:00Z', 8.5714, 8.99997],
  ['2023-11-03T04:30:00Z', '2023-11-04T00:30:00Z', 28.8068, 30.24714],
].map(([from, to, exc, inc]) => ({ valid_from: from as string, valid_to: to as string, value_exc_vat: exc as number, value_inc_vat: inc as number }));

function agileLikeRates(): RateInput[] {
  const start = Date.parse('2023-10-14T00:00:00Z');
  return Array.from({ length: 48 }, (_, i) => {
    const inc = [1, 2, 3, 4][i % 4]!;
    return {
      valid_from: utcIso(start + i * HALF_HOUR), valid_to: utcIso(start + (i + 1) * HALF_HOUR),
      value_inc_vat: inc, value_exc_vat: Math.round((inc / 1.05) * 1e4) / 1e4,
    };
  });
}

let dir: string;
let db: string;
let sandbox: Sandbox;
let warehouse: Warehouse;
let iogIngest: Awaited<ReturnType<typeof runCli>>;
let j: Slot[];
/** The weights of the `peer_weights` table (and of weights.csv), by instant, as stored. */
const WEIGHTS = new Map<number, number>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tariffs-peers-'));
  db = join(dir, 'peers.duckdb');
  sandbox = await startSandbox();
  sandbox.addTariff({ tariffCode: AGILE_LIKE, rates: agileLikeRates() });
  sandbox.addTariff({ tariffCode: GO_LIKE, rates: GO_LIKE_RATES });
  // evcc's IOG mock: the tariff under four_rate_ev_electricity_tariffs, its entry without a night band
  const iog = JSON.parse(readFileSync(new URL('./fixtures/peers/iog_smb_product.json', import.meta.url), 'utf8')) as {
    listing: Record<string, unknown>; day_unit_rates: RateInput[]; night_unit_rates: RateInput[];
  };
  sandbox.addTariff({
    tariffCode: IOG, productCode: 'IOG-SMB-VAR-24-10-29', group: 'four_rate_ev_electricity_tariffs', product: iog.listing,
    dayRates: iog.day_unit_rates, nightRates: iog.night_unit_rates,
  });
  const config = await loadConfig({ db, baseUrl: sandbox.baseUrl }, {});
  const context = { config, logger: silentLogger(), now: () => new Date('2024-06-01T00:00:00Z') };
  for (const [from, to] of J_SPANS) {
    const run = await runIngest({ tariffs: [J], products: [], accounts: [], from: new Date(from), to: new Date(to), noProducts: true }, context);
    expect(run.status).toBe('ok');
  }
  const peers = await runIngest({
    tariffs: [AGILE_LIKE, GO_LIKE], products: [], accounts: [], noProducts: true,
    from: new Date('2023-10-13T00:00:00Z'), to: new Date('2023-11-08T00:00:00Z'),
  }, context);
  expect(peers.status).toBe('ok');
  // the IOG product as a user ingests it: by product and region, through the CLI
  iogIngest = await runCli(['ingest', '--db', db, '--base-url', sandbox.baseUrl, '--product', 'IOG-SMB-VAR-24-10-29',
    '--region', 'H', '--from', '2026-03-01', '--no-products']);

  const writer = await Warehouse.open(db);
  try {
    // 1 and 2.5 in turn, 90 minutes each (a 2-hour window straddles both); 3 over May 24th's
    // negative afternoon (times 3 makes a negative price more attractive still)
    await writer.run(`CREATE TABLE peer_weights AS
      SELECT slot_start,
             CASE WHEN slot_start >= TIMESTAMPTZ '2020-05-24 11:00:00+00' AND slot_start < TIMESTAMPTZ '2020-05-24 15:00:00+00' THEN 3.0
                  ELSE 1 + ((epoch_ms(slot_start) // 5400000) % 2) * 1.5 END AS weight
      FROM rate_slots WHERE tariff_code = $t`, { t: J });
    const stored = await writer.all<{ ms: number; weight: number }>('SELECT epoch_ms(slot_start) AS ms, CAST(weight AS DOUBLE) AS weight FROM peer_weights');
    for (const { ms, weight } of stored) WEIGHTS.set(ms, weight);
    expect(new Set(WEIGHTS.values())).toEqual(new Set([1, 2.5, 3]));
    // relations a user could get wrong, each refused naming --weights-from
    await writer.run(`CREATE TABLE weights_wrong_columns AS SELECT slot_start AS ts, weight AS w FROM peer_weights`);
    await writer.run(`CREATE TABLE weights_naive AS SELECT CAST(timezone('UTC', slot_start) AS TIMESTAMP) AS slot_start, weight FROM peer_weights`);
    await writer.run(`CREATE TABLE weights_twice AS
      SELECT * FROM (SELECT * FROM peer_weights ORDER BY slot_start LIMIT 5)
      UNION ALL SELECT * FROM (SELECT * FROM peer_weights ORDER BY slot_start LIMIT 5)`);
    await writer.run(`CREATE TABLE weights_zero AS SELECT slot_start, 0.0 AS weight FROM peer_weights LIMIT 3`);
    await writer.run(`CREATE TABLE weights_off_grid AS SELECT slot_start + INTERVAL 10 MINUTE AS slot_start, weight FROM peer_weights LIMIT 3`);
    await writer.checkpoint();
  } finally {
    writer.close();
  }
  writeFileSync(join(dir, 'weights.csv'), `slot_start,weight\n${[...WEIGHTS].map(([ms, w]) => `${utcIso(ms)},${w}`).join('\n')}\n`);
  warehouse = await Warehouse.open(db, { readOnly: true });
  const rows = await warehouse.all<{ ms: number; inc: number }>(
    'SELECT epoch_ms(slot_start) AS ms, value_inc_vat AS inc FROM rate_slots WHERE tariff_code = $t ORDER BY 1', { t: J });
  j = toSlots(rows);
}, 180_000);

afterAll(async () => {
  warehouse?.close();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// --- brute force ------------------------------------------------------------------------------

const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
const dateOf = (ms: number) => toSlots([{ ms, inc: 0 }])[0]!.date;
const weightOf = (s: Slot) => WEIGHTS.get(s.ms) ?? 1;

/** Per local day, the n half-hours with the lowest price × weight (ties: earliest); none for a
 *  day with fewer than n. */
function pickPerDay(slots: Slot[], n: number, weight: (s: Slot) => number = () => 1): Slot[] {
  const out: Slot[] = [];
  for (const day of groupBy(slots, (s) => s.date).values()) {
    if (day.length < n) continue;
    out.push(...[...day].sort((a, b) => a.inc * weight(a) - b.inc * weight(b) || a.ms - b.ms).slice(0, n));
  }
  return out.sort((a, b) => a.ms - b.ms);
}

/** Per local day, the n contiguous half-hours with the lowest Σ price × positional × own weight
 *  (within 1e-9: the earliest). */
function windowPerDay(slots: Slot[], n: number, weight: (s: Slot) => number = () => 1, positional: number[] = []): Slot[][] {
  const out: Slot[][] = [];
  for (const day of groupBy(slots, (s) => s.date).values()) {
    let best: { run: Slot[]; score: number } | undefined;
    for (const run of contiguousRuns(day)) {
      for (let i = 0; i + n <= run.length; i++) {
        let score = 0;
        for (let k = 0; k < n; k++) score += run[i + k]!.inc * weight(run[i + k]!) * (positional[k] ?? 1);
        if (!best || score < best.score - 1e-9) best = { run: run.slice(i, i + n), score };
      }
    }
    if (best) out.push(best.run);
  }
  return out;
}

interface BruteBlock { start: number; end: number; slots: number; mean: number; min: number; max: number }

function blocksOf(selected: Slot[]): BruteBlock[] {
  return contiguousRuns([...selected].sort((a, b) => a.ms - b.ms)).map((run) => {
    const prices = run.map((s) => s.inc);
    return {
      start: run[0]!.ms, end: run.at(-1)!.ms + HALF_HOUR, slots: run.length,
      mean: prices.reduce((a, b) => a + b, 0) / prices.length, min: Math.min(...prices), max: Math.max(...prices),
    };
  });
}

/** What a target-rate sensor says at `at`: the block it is in (moved by the offset) and the next. */
function bruteCheck(blocks: BruteBlock[], at: number, offsetMinutes: number) {
  const off = offsetMinutes * MINUTE;
  const current = blocks.find((b) => b.start + off <= at && at < b.end + off);
  const next = blocks.filter((b) => b.start + off > at).sort((a, b) => a.start - b.start)[0];
  return { current, next };
}

/** The two local days a check at `at` looks at: that of at − offset, and the next. */
function checkedSlots(at: number, offsetMinutes: number): Slot[] {
  const today = dateOf(at - offsetMinutes * MINUTE);
  return j.filter((s) => s.date === today || s.date === nextDate(today));
}

function expectBlock(actual: BlockRow | null, expected: BruteBlock | undefined, offsetMinutes: number): void {
  if (!expected) {
    expect(actual).toBeNull();
    return;
  }
  expect(actual).toMatchObject({
    start: utcIso(expected.start), end: utcIso(expected.end), slots: expected.slots,
    act_start: utcIso(expected.start + offsetMinutes * MINUTE), act_end: utcIso(expected.end + offsetMinutes * MINUTE),
  });
  expect(actual!.mean_inc_vat).toBeCloseTo(expected.mean, 9);
  expect([actual!.min_inc_vat, actual!.max_inc_vat]).toEqual([expected.min, expected.max]);
}

/** Instants every 97 minutes over [from, to), plus each block's edges moved by the offset. */
function instants(from: string, to: number | string, blocks: BruteBlock[], offsetMinutes: number): number[] {
  const out = new Set<number>();
  for (let t = Date.parse(from); t < (typeof to === 'number' ? to : Date.parse(to)); t += 97 * MINUTE) out.add(t);
  for (const b of blocks) {
    const off = offsetMinutes * MINUTE;
    for (const t of [b.start + off, b.start + off - 1, b.end + off - 1, b.end + off]) out.add(t);
  }
  return [...out].sort((a, b) => a - b);
}

// --- target-rate info over several blocks -------------------------------------------------------

describe('slots --per-day --check: intermittent half-hours as blocks, with an offset', () => {
  it.each([
    { name: 'fall-back day (50 half-hours)', day: '2020-10-25', n: 7 },
    { name: 'spring-forward day (46 half-hours)', day: '2020-03-29', n: 5 },
    { name: 'negative afternoon', day: '2020-05-24', n: 6 },
  ])('$name: active, current and next block equal the brute force at every instant, offsets 0, -1h, +30m', async ({ day, n }) => {
    expect(j.filter((s) => s.date === day).length).toBe(halfHoursInDay(day));
    let checked = 0;
    let active = 0;
    for (const offset of [0, -60, 30]) {
      const dayStart = Date.parse(`${day}T00:00:00Z`) - 3 * 3_600_000;
      const selected = pickPerDay(checkedSlots(dayStart + DAY / 2, offset), n);
      for (const at of instants(utcIso(dayStart), dayStart + DAY + 6 * 3_600_000, blocksOf(selected), offset)) {
        const blocks = blocksOf(pickPerDay(checkedSlots(at, offset), n));
        const expected = bruteCheck(blocks, at, offset);
        const result = await checkSlots(warehouse, { tariff: J, count: n, now: new Date(at), offsetMinutes: offset });
        expect(result.local_date).toBe(dateOf(at - offset * MINUTE));
        expect(result.active, `${utcIso(at)} offset ${offset}`).toBe(expected.current !== undefined);
        expectBlock(result.current_block, expected.current, offset);
        expectBlock(result.next_block, expected.next, offset);
        expect(result.blocks.map((b) => b.start)).toEqual(blocks.map((b) => utcIso(b.start)));
        expect(result.selection?.slots ?? 0).toBe(blocks.reduce((a, b) => a + b.slots, 0));
        checked++;
        if (result.active) active++;
      }
    }
    // several blocks a day, both answers seen
    expect(checked).toBeGreaterThan(90);
    expect(active).toBeGreaterThan(10);
    expect(checked - active).toBeGreaterThan(10);
  }, 120_000);

  it('the peer\'s cases through the CLI: before, inside, at the end, and an hour early (exit 0 / 3)', async () => {
    const day = '2020-10-25';
    const blocks = blocksOf(pickPerDay(j.filter((s) => s.date === day || s.date === nextDate(day)), 6));
    const block = blocks.find((b) => b.slots >= 2 && dateOf(b.start) === day)!;
    expect(block).toBeDefined();
    const at = (ms: number) => utcIso(ms);
    const cases = {
      before: ['--now', at(block.start - MINUTE)],
      inside: ['--now', at(block.start + HALF_HOUR + 5 * MINUTE)],
      atEnd: ['--now', at(block.end)],
      hourEarly: ['--now', at(block.start - 60 * MINUTE), '--offset', '-1h'],
      hourEarlyClock: ['--now', at(block.end - 61 * MINUTE), '--offset=-01:00:00'],
      afterShiftedEnd: ['--now', at(block.end - 60 * MINUTE), '--offset', '-60m'],
    };
    const base = ['slots', '--db', db, '--tariff', J, '--count', '6', '--per-day', '--check', '--format', 'json'];
    const results = await runCliCases(Object.fromEntries(Object.entries(cases).map(([k, v]) => [k, [...base, ...v]])) as Record<keyof typeof cases, string[]>, []);
    for (const [name, extra] of Object.entries(cases)) {
      const result = results[name as keyof typeof cases];
      const offset = extra.includes('--offset') || extra.some((e) => e.startsWith('--offset=')) ? -60 : 0;
      const now = Date.parse(extra[1]!);
      const expected = bruteCheck(blocksOf(pickPerDay(checkedSlots(now, offset), 6)), now, offset);
      expect(result.stderr, name).toBe('');
      expect(result.code, name).toBe(expected.current ? 0 : 3);
      const json = JSON.parse(result.stdout) as { active: boolean; offset_minutes: number; current_block: BlockRow | null; next_block: BlockRow | null };
      expect(json.offset_minutes, name).toBe(offset);
      expect(json.current_block?.start ?? null, name).toBe(expected.current ? utcIso(expected.current.start) : null);
      expect(json.next_block?.act_start ?? null, name).toBe(expected.next ? utcIso(expected.next.start + offset * MINUTE) : null);
    }
    // the peer's own words: just before → not active; inside → active; at the end → not (half-open);
    // an hour early → active until an hour before the end
    expect([results.before.code, results.inside.code, results.atEnd.code, results.hourEarly.code, results.hourEarlyClock.code,
      results.afterShiftedEnd.code]).toEqual([3, 0, 3, 0, 0, 3]);
  }, 60_000);

  it('refuses what it cannot answer, naming the flag (exit 2)', async () => {
    const base = ['slots', '--db', db, '--tariff', J, '--count', '6'];
    const results = await runCliCases({
      noPerDay: [...base, '--check'],
      offsetAlone: [...base, '--per-day', '--offset', '-1h'],
      badOffset: [...base, '--per-day', '--check', '--offset', '-1d'],
      withRange: [...base, '--per-day', '--check', '--from', '2020-10-25'],
    }, []);
    expect(results.noPerDay).toMatchObject({ code: 2 });
    expect(results.noPerDay.stderr).toMatch(/--check needs --per-day/);
    expect(results.offsetAlone.stderr).toMatch(/--offset applies to --check only/);
    expect(results.badOffset.stderr).toMatch(/--offset: '-1d'/);
    expect(results.withRange.stderr).toMatch(/drop --from/);
    for (const r of Object.values(results)) expect(r.code).toBe(2);
  }, 60_000);

  it('parseOffset: the forms a user types', () => {
    expect(['-1h', '+30m', '-1h30m', '45m', '-01:00:00', '-01:30', '0', '-0m'].map((t) => parseOffset(t)))
      .toEqual([-60, 30, -90, 45, -60, -90, 0, 0]);
    for (const bad of ['', '1', '-1d', '24h', '-25:00', '1h-30m', '--1h']) expect(() => parseOffset(bad)).toThrow(/--offset/);
  });
});

describe('cheapest --per-day --check: the day\'s windows as blocks, with an offset', () => {
  it('active, in_window, current and next block equal the brute force around the fall-back, offsets 0 and -1h', async () => {
    let checked = 0;
    for (const offset of [0, -60]) {
      const from = Date.parse('2020-10-24T20:00:00Z');
      const windows = windowPerDay(checkedSlots(Date.parse('2020-10-25T12:00:00Z'), offset), 4);
      for (const at of instants(utcIso(from), '2020-10-26T06:00:00Z', blocksOf(windows.flat()), offset)) {
        const today = dateOf(at - offset * MINUTE);
        const chosen = windowPerDay(checkedSlots(at, offset), 4);
        const blocks = blocksOf(chosen.flat());
        const expected = bruteCheck(blocks, at, offset);
        const result = await checkWindow(warehouse, { tariff: J, slots: 4, now: new Date(at), offsetMinutes: offset });
        const todays = chosen.find((w) => w[0]!.date === today);
        const t = at - offset * MINUTE;
        expect(result.in_window, utcIso(at)).toBe(todays !== undefined && todays[0]!.ms <= t && t < todays.at(-1)!.ms + HALF_HOUR);
        expect(result.active, utcIso(at)).toBe(expected.current !== undefined);
        expect(result.active).toBe(result.in_window);
        expectBlock(result.current_block, expected.current, offset);
        expectBlock(result.next_block, expected.next, offset);
        expect(result.today?.start ?? null).toBe(todays ? utcIso(todays[0]!.ms) : null);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  }, 120_000);
});

// --- per-slot weights ----------------------------------------------------------------------------

describe('--weights-from: a weight per half-hour', () => {
  const FROM = new Date('2020-10-24T00:00:00+01:00');
  const TO = new Date('2020-10-27T00:00:00Z');
  const inRange = () => j.filter((s) => s.ms >= FROM.getTime() && s.ms + HALF_HOUR <= TO.getTime());

  it('windows per day: Σ price × positional weight × own weight, as the brute force (fall-back day included)', async () => {
    for (const positional of [[], [2, 1]]) {
      const rows = await cheapestWindows(warehouse, {
        tariff: J, slots: 4, perDay: true, from: FROM, to: TO, weightsFrom: 'peer_weights',
        ...(positional.length ? { weights: positional } : {}),
      });
      const expected = windowPerDay(inRange(), 4, weightOf, positional);
      expect(rows.map((r) => [r.local_date, r.start, r.slots])).toEqual(expected.map((w) => [w[0]!.date, utcIso(w[0]!.ms), 4]));
      for (const [i, w] of expected.entries()) {
        const ws = w.map((s, k) => weightOf(s) * (positional[k] ?? 1));
        const score = w.reduce((a, s, k) => a + s.inc * ws[k]!, 0) / ws.reduce((a, b) => a + b, 0);
        expect(rows[i]!.score_inc_vat).toBeCloseTo(score, 9);
      }
      // the weights move the answer: unweighted, some day's window differs
      const plain = windowPerDay(inRange(), 4);
      expect(plain.map((w) => w[0]!.ms)).not.toEqual(expected.map((w) => w[0]!.ms));
    }
  });

  it('slots per day: ranked by price × weight, negative prices too; the weight shown', async () => {
    for (const [from, to, n] of [[FROM, TO, 5], [new Date('2020-05-23T00:00:00+01:00'), new Date('2020-05-26T00:00:00+01:00'), 8]] as const) {
      const rows = await cheapestSlots(warehouse, { tariff: J, count: n, perDay: true, from, to, weightsFrom: 'peer_weights' });
      const slots = j.filter((s) => s.ms >= from.getTime() && s.ms + HALF_HOUR <= to.getTime());
      const expected = pickPerDay(slots, n, weightOf);
      expect(rows.map((r) => [r.start, r.weight])).toEqual(expected.map((s) => [utcIso(s.ms), weightOf(s)]));
      expect(pickPerDay(slots, n).map((s) => s.ms)).not.toEqual(expected.map((s) => s.ms));
    }
    const plain = await cheapestSlots(warehouse, { tariff: J, count: 3, from: FROM, to: TO });
    expect(plain.every((r) => !('weight' in r))).toBe(true);
  });

  it('a CSV file gives the same answer as the table (CLI, JSON)', async () => {
    const base = ['--db', db, '--tariff', J, '--from', FROM.toISOString(), '--to', TO.toISOString(), '--format', 'json'];
    const results = await runCliCases({
      table: ['cheapest', ...base, '--duration', '2h', '--per-day', '--weights-from', 'peer_weights'],
      file: ['cheapest', ...base, '--duration', '2h', '--per-day', '--weights-from', join(dir, 'weights.csv')],
      slots: ['slots', ...base, '--count', '5', '--per-day', '--weights-from', 'main.peer_weights'],
    }, []);
    for (const r of Object.values(results)) expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(results.file.stdout)).toEqual(JSON.parse(results.table.stdout));
    const slots = JSON.parse(results.slots.stdout) as { start: string; weight: number; complete: boolean }[];
    expect(slots.map((s) => s.start)).toEqual(pickPerDay(inRange(), 5, weightOf).map((s) => utcIso(s.ms)));
    expect(Object.keys(slots[0]!).slice(-2)).toEqual(['weight', 'complete']);
  }, 60_000);

  it('refuses a relation it cannot use, naming --weights-from and what is wrong (exit 2)', async () => {
    const base = ['slots', '--db', db, '--tariff', J, '--count', '3', '--from', '2020-10-25', '--to', '2020-10-26', '--weights-from'];
    const results = await runCliCases({
      missing: [...base, 'no_such_weights'],
      columns: [...base, 'weights_wrong_columns'],
      naive: [...base, 'weights_naive'],
      twice: [...base, 'weights_twice'],
      zero: [...base, 'weights_zero'],
      offGrid: [...base, 'weights_off_grid'],
    }, []);
    const said = Object.fromEntries(Object.entries(results).map(([k, r]) => [k, [r.code, r.stdout]]));
    expect(said).toEqual(Object.fromEntries(Object.keys(results).map((k) => [k, [2, '']])));
    for (const r of Object.values(results)) expect(r.stderr).toMatch(/--weights-from/);
    expect(results.missing.stderr).toMatch(/no table, view or file named no_such_weights/);
    expect(results.columns.stderr).toMatch(/needs a column slot_start .* it has ts, w/);
    expect(results.naive.stderr).toMatch(/slot_start is TIMESTAMP; it must be an instant/);
    expect(results.twice.stderr).toMatch(/half-hours given more than one weight/);
    expect(results.zero.stderr).toMatch(/3 weights not above 0/);
    expect(results.offGrid.stderr).toMatch(/3 slot starts not on a half-hour/);
  }, 60_000);

  it('relation names are quoted part by part; anything else is one identifier or refused', () => {
    expect(relationSql('peer_weights')).toBe('"peer_weights"');
    expect(relationSql('main.peer_weights')).toBe('"main"."peer_weights"');
    expect(relationSql('"odd.name"')).toBe('"odd.name"');
    expect(relationSql('x; DROP TABLE rates; --')).toBe('"x; DROP TABLE rates; --"');
    expect(() => inCliWords(() => relationSql('x"; DROP TABLE rates; --'))).toThrow(/--weights-from: .* is not a relation name/);
    expect(relationSql('/tmp/w.parquet')).toBe('"/tmp/w.parquet"');
    expect(() => inCliWords(() => relationSql('a.b.c.d'))).toThrow(/--weights-from: .* more than three parts/);
    expect(() => inCliWords(() => relationSql(' '))).toThrow(/--weights-from/);
  });
});

// --- off-peak over partly priced days -----------------------------------------------------------

describe('off_peak_periods: fully priced local days only', () => {
  it('an Agile-like day whose last two half-hours fall on the next local day: no period (as the peer)', async () => {
    // the two half-hours of 2023-10-15 (00:00-01:00 BST) carry two prices: a partly priced day
    const partial = await warehouse.all(`SELECT local_date, count(*) AS n, count(DISTINCT value_inc_vat) AS prices
      FROM rate_slots WHERE tariff_code = $t GROUP BY 1 ORDER BY 1`, { t: AGILE_LIKE });
    expect(partial).toEqual([{ local_date: '2023-10-14', n: 46, prices: 4 }, { local_date: '2023-10-15', n: 2, prices: 2 }]);
    expect(await offPeakPeriods(warehouse, { tariff: AGILE_LIKE })).toEqual([]);
    const cli = await runCli(['off-peak', '--db', db, '--tariff', AGILE_LIKE, '--format', 'json']);
    expect([cli.code, JSON.parse(cli.stdout)]).toEqual([0, []]);
  });

  it('the peer\'s two-rate days: 00:30-04:30 UTC on each fully priced day, as the brute force', async () => {
    const rows = await warehouse.all<{ ms: number; inc: number }>(
      'SELECT epoch_ms(slot_start) AS ms, value_inc_vat AS inc FROM rate_slots WHERE tariff_code = $t ORDER BY 1', { t: GO_LIKE });
    const expected: [string, string, number][] = [];
    for (const [date, day] of groupBy(toSlots(rows), (s) => s.date)) {
      if (day.length !== halfHoursInDay(date)) continue; // the first (from 04:30Z) and last (00:00-00:30Z) are not whole
      const prices = new Set(day.map((s) => s.inc));
      if (prices.size < 2 || prices.size > 3) continue;
      const low = Math.min(...prices);
      for (const run of contiguousRuns(day.filter((s) => s.inc === low))) expected.push([utcIso(run[0]!.ms), utcIso(run.at(-1)!.ms + HALF_HOUR), run.length]);
    }
    expect(expected).toEqual(['04', '05', '06'].map((d) => [`2023-11-${d}T00:30:00Z`, `2023-11-${d}T04:30:00Z`, 8]));
    const periods = await offPeakPeriods(warehouse, { tariff: GO_LIKE });
    expect(periods.map((p) => [p.start, p.end, p.slots])).toEqual(expected);
    expect(periods.every((p) => p.value_inc_vat === 8.99997 && p.day_rates === 2)).toBe(true);
  });
});

// --- a four-rate EV entry without its night band -------------------------------------------------

describe('a four-rate EV entry without night_start/night_end (evcc\'s IOG mock)', () => {
  const NIGHT = { start: 23 * 60 + 30, end: 5 * 60 + 30 };
  /** The product's prices (test/fixtures/peers/iog_smb_product.json). */
  const iogPrice = (slot: Slot) => {
    const night = slot.wallMinute >= NIGHT.start || slot.wallMinute < NIGHT.end;
    const later = slot.ms >= Date.parse('2026-07-05T23:00:00Z');
    return night ? (later ? 6.89997 : 7.5) : (later ? 30.371355 : 28.5);
  };

  it('ingests (exit 0) with the published IOG band, warning once', async () => {
    expect(iogIngest.code).toBe(0);
    expect(iogIngest.stderr.match(/names no night band/g)).toHaveLength(1);
    expect(iogIngest.stderr).toMatch(/IOG-SMB-VAR-24-10-29.*using the tariff's published band 23:30-05:30 Europe\/London/);
    expect(iogIngest.stderr).not.toMatch(/night_start must be HH:MM/);
    const [tariff] = await warehouse.all('SELECT register, night_start_minutes, night_end_minutes FROM tariffs WHERE tariff_code = $t', { t: IOG });
    expect(tariff).toEqual({ register: 'dual', night_start_minutes: 1410, night_end_minutes: 330 });
  });

  it.each([
    { date: '2026-03-29', slots: 46, night: 10 },
    { date: '2026-06-15', slots: 48, night: 12 },
    { date: '2026-10-25', slots: 50, night: 14 },
  ])('$date: every half-hour priced by its wall clock as the brute force ($night at night); the off-peak periods', async ({ date, slots, night }) => {
    const rows = await warehouse.all<{ ms: number; inc: number }>(`SELECT epoch_ms(slot_start) AS ms, value_inc_vat AS inc
      FROM rate_slots WHERE tariff_code = $t AND local_date = CAST($d AS DATE) ORDER BY 1`, { t: IOG, d: date });
    const day = toSlots(rows);
    expect(day.length).toBe(slots);
    expect(day.filter((s) => s.inc !== iogPrice(s)).map((s) => utcIso(s.ms))).toEqual([]);
    expect(day.filter((s) => s.inc < 10).length).toBe(night);
    const periods = await offPeakPeriods(warehouse, { tariff: IOG, from: new Date(day[0]!.ms), to: new Date(day.at(-1)!.ms + HALF_HOUR) });
    const runs = contiguousRuns(day.filter((s) => s.inc < 10));
    expect(periods.map((p) => [p.start, p.slots])).toEqual(runs.map((r) => [utcIso(r[0]!.ms), r.length]));
  });

  it('targetsFromProduct: the published band for IOG products only; a lone or malformed field is still refused', () => {
    const detail = (code: string, fields: Record<string, unknown> = {}) => ({
      code, four_rate_ev_electricity_tariffs: { _L: { direct_debit_monthly: { code: `E-2R-${code}-L`, links: [], ...fields } } },
    }) as unknown as Parameters<typeof targetsFromProduct>[0];
    const notices: NightBandNotice[] = [];
    expect(targetsFromProduct(detail('INTELLI-VAR-22-10-14'), ['L'], notices)[0]!.nightBand).toEqual({ startMinutes: 1410, endMinutes: 330 });
    expect(targetsFromProduct(detail('EV-NOBAND-24-01-01'), ['L'], notices)[0]!.nightBand).toBeUndefined();
    expect(targetsFromProduct(detail('INTELLI-VAR-22-10-14', { night_start: '00:30', night_end: '04:30' }), ['L'], notices)[0]!.nightBand)
      .toEqual({ startMinutes: 30, endMinutes: 270 });
    expect(notices).toEqual([
      { product: 'INTELLI-VAR-22-10-14', tariffs: ['E-2R-INTELLI-VAR-22-10-14-L'], band: { startMinutes: 1410, endMinutes: 330 } },
      { product: 'EV-NOBAND-24-01-01', tariffs: ['E-2R-EV-NOBAND-24-01-01-L'], band: undefined },
    ]);
    expect(() => targetsFromProduct(detail('IOG-X', { night_end: '05:30' }), ['L'])).toThrow(/night_start must be HH:MM, got undefined/);
    expect(() => targetsFromProduct(detail('IOG-X', { night_start: '24:00', night_end: '05:30' }), ['L'])).toThrow(/night_start must be HH:MM/);
    expect(['INTELLI-VAR-22-10-14', 'INTELLI-BB-VAR-23-03-01', 'IOG-SMB-VAR-24-10-29', 'INTELLI-FIX-12M-24-01-01', 'INTELLI-23-03-01']
      .map(isIntelligentGoProduct)).toEqual([true, true, true, true, true]);
    expect(['INTELLI-FLUX-IMPORT-23-07-14', 'GO-VAR-22-10-14', 'AGILE-24-10-01'].map(isIntelligentGoProduct)).toEqual([false, false, false]);
    expect(publishedNightBand('GO-VAR-22-10-14')).toBeUndefined();
  });
});
