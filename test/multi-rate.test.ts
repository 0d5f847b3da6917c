// Multi-rate tariffs (issue 12, point 7) against brute force: a four-rate EV tariff resolved with
// `tariffs ingest --product --region` (the sandbox's synthetic product: day and night open-ended
// rates, night 23:30-05:30 Europe/London) expanded half-hour by half-hour across four clock
// changes; off_peak_periods on it and on real Octopus Go rates; Agile days never off-peak.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cheapestWindows, offPeakPeriods } from '../src/analytics/index.js';
import { targetsFromProduct } from '../src/ingest/resolveTargets.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { Warehouse } from '../src/store/Warehouse.js';
import {
  HALF_HOUR, contiguousRuns, groupBy, halfHoursInDay, localIso, toSlots, utcIso, type Slot,
} from './helpers/analyticsBruteForce.js';
import { runCli, type CliResult } from './helpers/runCli.js';

const EV = 'E-2R-EV-SANDBOX-24-01-01-L';
const GO = 'E-1R-GO-22-07-05-D';
const J = 'E-1R-AGILE-18-02-21-J';
/** Checked span of the open-ended EV rates: four clock changes. */
const FROM = Date.parse('2024-01-01T00:00:00Z');
const TO = Date.parse('2025-12-01T00:00:00Z');
const NIGHT = { start: 23 * 60 + 30, end: 5 * 60 + 30 };

let dir: string;
let db: string;
let warehouse: Warehouse;
let sandbox: Sandbox;
const ingests: CliResult[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tariffs-multirate-'));
  db = join(dir, 'multi.duckdb');
  sandbox = await startSandbox();
  const base = ['--db', db, '--base-url', sandbox.baseUrl];
  // as a user would: the EV product by region, then Go and a slice of Agile by tariff code
  ingests.push(await runCli(['ingest', ...base, '--product', 'EV-SANDBOX-24-01-01', '--region', 'L', '--from', '2024-01-01', '--no-products']));
  ingests.push(await runCli(['ingest', ...base, '--tariff', GO, '--tariff', J, '--from', '2022-10-01', '--to', '2022-10-15', '--no-products']));
  warehouse = await Warehouse.open(db, { readOnly: true });
}, 120_000);

afterAll(async () => {
  warehouse?.close();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The brute force's EV price: night band by wall clock, day rate 25.2 until 2024-07-01, then 26.25. */
function evPrice(slot: Slot): number {
  const night = slot.wallMinute >= NIGHT.start || slot.wallMinute < NIGHT.end;
  if (night) return 7.35;
  return slot.ms < Date.parse('2024-07-01T00:00:00Z') ? 25.2 : 26.25;
}

function evSlots(): Slot[] {
  const points = [];
  for (let ms = FROM; ms < TO; ms += HALF_HOUR) points.push({ ms, inc: 0 });
  return toSlots(points).map((s) => ({ ...s, inc: evPrice(s) }));
}

/** Off-peak periods by brute force: fully priced days with 2-3 distinct prices, runs at the day's minimum. */
function bruteOffPeak(slots: Slot[]): { start: string; end: string; slots: number; price: number; date: string }[] {
  const out = [];
  for (const [date, day] of groupBy(slots, (s) => s.date)) {
    if (day.length !== halfHoursInDay(date)) continue;
    const prices = new Set(day.map((s) => s.inc));
    if (prices.size < 2 || prices.size > 3) continue;
    const low = Math.min(...prices);
    for (const run of contiguousRuns(day.filter((s) => s.inc === low))) {
      out.push({ start: utcIso(run[0]!.ms), end: utcIso(run.at(-1)!.ms + HALF_HOUR), slots: run.length, price: low, date });
    }
  }
  return out.sort((a, b) => a.start.localeCompare(b.start));
}

describe('a four-rate EV tariff', () => {
  it('is resolved from the product detail with its night band and both rates', async () => {
    expect(ingests.map((r) => [r.code, r.stderr.includes('"level":50')])).toEqual([[0, false], [0, false]]);
    const [tariff] = await warehouse.all('SELECT register, night_start_minutes, night_end_minutes, rate_kinds FROM tariffs WHERE tariff_code = $t', { t: EV });
    expect(tariff).toMatchObject({ register: 'dual', night_start_minutes: 1410, night_end_minutes: 330 });
    const rates = await warehouse.all('SELECT rate_type, count(*) AS n FROM unit_rates WHERE tariff_code = $t GROUP BY 1 ORDER BY 1', { t: EV });
    expect(rates).toEqual([{ rate_type: 'day', n: 2 }, { rate_type: 'night', n: 1 }]);
  });

  it('a four-rate entry without a valid night band is refused, naming product, region and field', () => {
    const detail = (night_start: unknown) => ({
      code: 'EV-X', four_rate_ev_electricity_tariffs: { _L: { direct_debit_monthly: { code: 'E-2R-EV-X-L', links: [], night_start, night_end: '05:30' } } },
    }) as unknown as Parameters<typeof targetsFromProduct>[0];
    expect(targetsFromProduct(detail('00:30'), ['L'])[0]).toMatchObject({ nightBand: { startMinutes: 30, endMinutes: 330 }, kinds: ['day', 'night', 'standing_charge'] });
    expect(() => targetsFromProduct(detail('24:00'), ['L'])).toThrow(/product EV-X region L .*night_start must be HH:MM, got "24:00"/);
    expect(() => targetsFromProduct(detail(undefined), ['L'])).toThrow(/night_start/);
  });

  it('rate_slots: one series, every half-hour priced by its wall-clock time, as the brute force says', async () => {
    const rows = await warehouse.all(`SELECT epoch_ms(slot_start) AS ms, value_inc_vat, rate_type, local_date, settlement_period
      FROM rate_slots WHERE tariff_code = $t AND slot_start >= CAST($from AS TIMESTAMPTZ) AND slot_start < CAST($to AS TIMESTAMPTZ)
      ORDER BY slot_start`, { t: EV, from: new Date(FROM).toISOString(), to: new Date(TO).toISOString() });
    const expected = evSlots();
    expect(rows.length).toBe(expected.length);
    const wrong = rows.filter((r, i) => r.ms !== expected[i]!.ms || r.value_inc_vat !== expected[i]!.inc || r.rate_type !== 'standard');
    expect(wrong).toEqual([]);
    expect(new Set(rows.map((r) => r.rate_type))).toEqual(new Set(['standard']));
  });

  it('rate_slots_for: the same half-hours for its tariffs and range, bounds off the half-hour grid, arguments as subqueries', async () => {
    // rate_slots_for narrows the long rates before expanding them; the brute force knows nothing of that
    const from = '2024-10-26T22:15:00Z';
    const to = '2024-10-28T01:45:00Z';
    const expected = evSlots().filter((s) => s.ms >= Date.parse(from) && s.ms < Date.parse(to));
    expect(expected.length).toBe(55); // those starting 22:30Z to 01:30Z, across the fall-back night
    for (const call of [
      `rate_slots_for([$t, $other], CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ))`,
      `rate_slots_for((SELECT list(tariff_code) FROM tariffs WHERE tariff_code IN ($t, $other)),
                      (SELECT CAST($from AS TIMESTAMPTZ)), (SELECT CAST($to AS TIMESTAMPTZ)))`,
    ]) {
      const rows = await warehouse.all(`SELECT epoch_ms(slot_start) AS ms, value_inc_vat AS inc, tariff_code FROM ${call}
        WHERE tariff_code = $t ORDER BY slot_start`, { t: EV, other: GO, from, to });
      expect(rows.map((r) => [r.ms, r.inc]), call).toEqual(expected.map((e) => [e.ms, e.inc]));
    }
    const count = async (call: string) => Number((await warehouse.one(`SELECT count(*) AS n FROM ${call}`, { t: EV }))!.n);
    expect(await count('rate_slots_for(CAST([] AS VARCHAR[]), NULL, NULL)')).toBe(0);
    expect(await count('rate_slots_for([$t], NULL, NULL)')).toBe(await count('rate_slots WHERE tariff_code = $t'));
    expect(await count('rate_slots_for(NULL, NULL, NULL)')).toBe(await count('rate_slots'));
  });

  it.each([
    { date: '2024-03-31', day: 46, night: 10 },
    { date: '2024-10-27', day: 50, night: 14 },
    { date: '2025-03-30', day: 46, night: 10 },
    { date: '2025-10-26', day: 50, night: 14 },
    { date: '2025-06-15', day: 48, night: 12 },
  ])('$date: $day half-hours, $night of them at the night rate', async ({ date, day, night }) => {
    expect(halfHoursInDay(date)).toBe(day);
    const [row] = await warehouse.all(`SELECT count(*) AS n, count(*) FILTER (WHERE value_inc_vat = 7.35) AS night
      FROM rate_slots WHERE tariff_code = $t AND local_date = CAST($d AS DATE)`, { t: EV, d: date });
    expect(row).toEqual({ n: day, night });
  });

  it('the cheapest 5 hours of each night band is the 23:30-04:30 stretch (band = night)', async () => {
    const rows = await cheapestWindows(warehouse, {
      tariff: EV, slots: 10, band: { startMinutes: NIGHT.start, endMinutes: NIGHT.end },
      from: new Date('2024-10-26T00:00:00Z'), to: new Date('2024-10-29T00:00:00Z'),
    });
    expect(rows.map((r) => [r.local_date, r.local_start, r.mean_inc_vat])).toEqual([
      ['2024-10-26', '2024-10-26T23:30:00+01:00', 7.35],
      ['2024-10-27', '2024-10-27T23:30:00+00:00', 7.35],
    ]);
  });
});

describe('off_peak_periods against brute force', () => {
  it('EV: the night band of every local day, cut at midnight, across the clock changes', async () => {
    const rows = await offPeakPeriods(warehouse, { tariff: EV, from: new Date(FROM), to: new Date(TO) });
    const expected = bruteOffPeak(evSlots());
    expect(expected.length).toBeGreaterThan(1000);
    expect(rows.map((r) => [r.local_date, r.start, r.end, r.slots, r.value_inc_vat, r.day_rates]))
      .toEqual(expected.map((e) => [e.date, e.start, e.end, e.slots, e.price, 2]));
    expect(rows.find((r) => r.local_date === '2024-10-27' && r.slots === 13)).toMatchObject({
      local_start: '2024-10-27T00:00:00+01:00', local_end: '2024-10-27T05:30:00+00:00',
    });
  });

  it('real Octopus Go rates: 00:30-04:30 each local day; Agile days never', async () => {
    const goRows = await warehouse.all(`SELECT epoch_ms(slot_start) AS ms, value_inc_vat AS inc FROM rate_slots WHERE tariff_code = $t ORDER BY 1`, { t: GO });
    expect(goRows.length).toBeGreaterThan(100);
    const expected = bruteOffPeak(toSlots(goRows.map((r) => ({ ms: r.ms as number, inc: r.inc as number }))));
    const rows = await offPeakPeriods(warehouse, { tariff: GO });
    expect(rows.map((r) => [r.start, r.end, r.slots, r.value_inc_vat])).toEqual(expected.map((e) => [e.start, e.end, e.slots, e.price]));
    expect(rows.filter((r) => r.slots === 8).map((r) => [r.local_start, r.local_end])).toContainEqual(['2022-10-08T00:30:00+01:00', '2022-10-08T04:30:00+01:00']);
    expect(await offPeakPeriods(warehouse, { tariff: J })).toEqual([]);
  });

  it('tariffs off-peak: JSON rows equal to the library, exit 0', async () => {
    const cli = await runCli(['off-peak', '--db', db, '--tariff', EV, '--from', '2025-03-29', '--to', '2025-04-01', '--format', 'json']);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    const rows = JSON.parse(cli.stdout) as { local_start: string; slots: number }[];
    expect(rows).toEqual(await offPeakPeriods(warehouse, { tariff: EV, from: new Date('2025-03-29T00:00:00Z'), to: new Date('2025-03-31T23:00:00Z') }));
    expect(rows.map((r) => [r.local_start, r.slots])).toEqual([
      ['2025-03-29T00:00:00+00:00', 11], ['2025-03-29T23:30:00+00:00', 1],
      ['2025-03-30T00:00:00+00:00', 9], ['2025-03-30T23:30:00+01:00', 1],
      ['2025-03-31T00:00:00+01:00', 11], ['2025-03-31T23:30:00+01:00', 1],
    ]);
    expect(localIso(Date.parse('2025-03-30T00:00:00Z'))).toBe('2025-03-30T00:00:00+00:00');
  });
});
