// The analytics SQL (sql/public, sql/internal) and src/analytics against brute force over the real
// Agile prices of regions A and J, read straight from the recorded CSVs: every local day, ties
// both ways, a band crossing midnight, days with gaps, and the 46- and 50-half-hour days.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cheapestSlots, cheapestWindows, dailyStats, gaps, monthlyStats, negativeRuns, negativeSlots,
  regionComparison, type WindowRow,
} from '../src/analytics/index.js';
import { NoDataError, UsageError } from '../src/errors.js';
import { parseDuration } from '../src/cli/parseDuration.js';
import { inCliWords } from '../src/cli/requestWords.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { TARIFF_A, TARIFF_J, buildAgileWarehouse } from './helpers/agileWarehouse.js';
import {
  HALF_HOUR, bandOccurrence, bestWindow, cheapestN, dayStats, groupBy, halfHoursInDay, localIso, negativeRunsOf,
  toSlots, utcIso, type BruteWindow, type Slot,
} from './helpers/analyticsBruteForce.js';
import { regionAPrices, regionJPrices } from './helpers/realAgilePrices.js';
import { runCliCases, type CliResult } from './helpers/runCli.js';

type Region = 'A' | 'J';
const REGIONS: Region[] = ['A', 'J'];
const TARIFF: Record<Region, string> = { A: TARIFF_A, J: TARIFF_J };
const DAY = 86_400_000;

/** Half-hours deleted from the warehouse: inside the cheapest window of the day, so it must move. */
const GAP_PLAN = [
  { region: 'J' as Region, date: '2021-06-15', slots: 6, drop: [2, 3] },
  { region: 'A' as Region, date: '2019-10-27', slots: 4, drop: [1] }, // a 50-half-hour day
];

/** Extra codes: J's prices as two series (payment methods), and a payment method tariffs never stores. */
const TWO_SERIES = 'E-1R-TWO-SERIES-J';
const ODD_PAYMENT = 'E-1R-ODD-PAYMENT-J';

let dir: string;
let db: string;
let warehouse: Warehouse;
/** The prices of each region as the brute force sees them: the CSVs minus the deleted half-hours. */
const series = {} as Record<Region, Slot[]>;
const deleted: { region: Region; ms: number }[] = [];
/** The cheapest window of each gap day before the deletion. */
const bestBeforeGap = new Map<Region, BruteWindow>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tariffs-analytics-'));
  db = await buildAgileWarehouse(dir);
  const full: Record<Region, Slot[]> = { A: toSlots(regionAPrices()), J: toSlots(regionJPrices()) };
  const writer = await Warehouse.open(db);
  try {
    for (const plan of GAP_PLAN) {
      const best = bestWindow(full[plan.region].filter((s) => s.date === plan.date), plan.slots, false)!;
      bestBeforeGap.set(plan.region, best);
      for (const k of plan.drop) {
        const ms = best.startMs + k * HALF_HOUR;
        deleted.push({ region: plan.region, ms });
        await writer.run('DELETE FROM unit_rates WHERE tariff_code = $tariff AND valid_from = CAST($at AS TIMESTAMPTZ)',
          { tariff: TARIFF[plan.region], at: new Date(ms).toISOString() });
      }
    }
    // two series under one code: J's prices for direct debit, 1p/kWh more for other payers
    await writer.run(`INSERT INTO unit_rates BY NAME
      SELECT u.* REPLACE ($two AS tariff_code, v.method AS payment_method,
                          u.value_exc_vat + v.extra AS value_exc_vat, u.value_inc_vat + v.extra AS value_inc_vat)
      FROM unit_rates AS u, (VALUES ('DIRECT_DEBIT', 0.0), ('NON_DIRECT_DEBIT', 1.0)) AS v(method, extra)
      WHERE u.tariff_code = $tariff AND u.local_date BETWEEN DATE '2020-03-28' AND DATE '2020-03-30'`, { two: TWO_SERIES, tariff: TARIFF_J });
    // a payment method tariffs never stores, beside J's prices 5p/kWh dearer with none
    await writer.run(`INSERT INTO unit_rates BY NAME
      SELECT u.* REPLACE ($odd AS tariff_code, v.method AS payment_method,
                          u.value_exc_vat + v.extra AS value_exc_vat, u.value_inc_vat + v.extra AS value_inc_vat)
      FROM unit_rates AS u, (VALUES ('PREPAYMENT', 0.0), (NULL, 5.0)) AS v(method, extra)
      WHERE u.tariff_code = $tariff AND u.local_date = DATE '2020-03-28'`, { odd: ODD_PAYMENT, tariff: TARIFF_J });
    // J as if ingest had never recorded it: region_comparison must parse product and region from the code
    await writer.run('DELETE FROM tariffs WHERE tariff_code = $tariff', { tariff: TARIFF_J });
    await writer.checkpoint();
  } finally {
    writer.close();
  }
  for (const region of REGIONS) {
    series[region] = full[region].filter((s) => !deleted.some((d) => d.region === region && d.ms === s.ms));
  }
  warehouse = await Warehouse.open(db, { readOnly: true });
}, 120_000);

afterAll(() => {
  warehouse?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const byDate = (slots: Slot[]) => groupBy(slots, (s) => s.date);
/** The slots (sorted by time) lying inside [from, to). */
function inRange(slots: Slot[], from: number, to: number): Slot[] {
  const firstAtOrAfter = (ms: number) => {
    let lo = 0;
    let hi = slots.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (slots[mid]!.ms < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return slots.slice(firstAtOrAfter(from), firstAtOrAfter(to - HALF_HOUR + 1));
}

/** Differences between SQL windows and brute-force ones, keyed by day or occurrence; [] when they agree. */
function compareWindows(rows: WindowRow[], expected: Map<string, BruteWindow>, slots: number, key: (r: WindowRow) => string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const k = key(row);
    seen.add(k);
    const want = expected.get(k);
    if (!want) {
      problems.push(`${k}: SQL has a window at ${row.start}, brute force none`);
      continue;
    }
    const end = want.startMs + slots * HALF_HOUR;
    if (row.start !== utcIso(want.startMs)) problems.push(`${k}: start ${row.start}, expected ${utcIso(want.startMs)}`);
    if (Math.abs(row.mean_inc_vat - want.mean) > 1e-9) problems.push(`${k}: mean ${row.mean_inc_vat}, expected ${want.mean}`);
    if (row.end !== utcIso(end) || row.local_start !== localIso(want.startMs) || row.local_end !== localIso(end) || row.slots !== slots) {
      problems.push(`${k}: ${JSON.stringify(row)} does not describe ${utcIso(want.startMs)} + ${slots} half-hours`);
    }
    // sandbox: exc = round(inc / 1.05, 4)
    if (Math.abs(row.mean_exc_vat - want.mean / 1.05) > 1e-4) problems.push(`${k}: mean_exc_vat ${row.mean_exc_vat}`);
  }
  for (const k of expected.keys()) if (!seen.has(k)) problems.push(`${k}: brute force has a window, SQL none`);
  return problems;
}

function bruteByGroup(groups: Map<string, Slot[]>, slots: number, latest: boolean, maxPrice?: number): Map<string, BruteWindow> {
  const out = new Map<string, BruteWindow>();
  for (const [k, group] of groups) {
    const best = bestWindow(group, slots, latest, maxPrice);
    if (best) out.set(k, best);
  }
  return out;
}

describe('the data under test', () => {
  it('the warehouse holds exactly the CSV prices inc VAT, minus the deleted half-hours', async () => {
    for (const region of REGIONS) {
      const rows = await warehouse.all(
        'SELECT epoch_ms(slot_start) AS ms, value_inc_vat FROM rate_slots WHERE tariff_code = $tariff ORDER BY slot_start',
        { tariff: TARIFF[region] });
      expect(rows.length).toBe(series[region].length);
      const differing = rows.filter((r, i) => r.ms !== series[region][i]!.ms || r.value_inc_vat !== series[region][i]!.inc);
      expect(differing).toEqual([]);
    }
    expect(series.A.length + series.J.length).toBe(158_007 - deleted.length);
  });

  it("the brute force's Europe/London clock agrees with Intl on every half-hour around the clock changes", () => {
    const intl = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    });
    const checked: string[] = [];
    for (const slot of [...series.A, ...series.J]) {
      const month = new Date(slot.ms).getUTCMonth();
      if ((month !== 2 && month !== 9) || new Date(slot.ms).getUTCDate() < 24) continue;
      const parts = Object.fromEntries(intl.formatToParts(new Date(slot.ms)).map((p) => [p.type, p.value]));
      const expected = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
      if (localIso(slot.ms).slice(0, 16) !== expected) checked.push(`${utcIso(slot.ms)}: ${localIso(slot.ms)} vs ${expected}`);
    }
    expect(checked).toEqual([]);
    expect(halfHoursInDay('2020-03-29')).toBe(46);
    expect(halfHoursInDay('2020-10-25')).toBe(50);
  });
});

describe('cheapest_window_per_day against brute force, every local day', () => {
  it.each(REGIONS.flatMap((region) => [1, 4, 6].map((slots) => ({ region, slots }))))(
    'region $region, $slots half-hours, earliest and latest ties',
    async ({ region, slots }) => {
      const days = byDate(series[region]);
      const starts: Record<string, Map<string, string>> = {};
      for (const latest of [false, true]) {
        const rows = await cheapestWindows(warehouse, { tariff: TARIFF[region], slots, perDay: true, latest });
        expect(rows.length).toBeGreaterThan(1500);
        expect(compareWindows(rows, bruteByGroup(days, slots, latest), slots, (r) => r.local_date!)).toEqual([]);
        starts[String(latest)] = new Map(rows.map((r) => [r.local_date!, r.start]));
      }
      // the real prices repeat: earliest and latest tie-breaks must really pick different windows
      const split = [...starts.false!].filter(([date, start]) => starts.true!.get(date) !== start);
      expect(split.length).toBeGreaterThan(slots === 1 ? 100 : 0);
    },
  );

  it('keeps windows inside the range when it cuts days (and across the spring-forward day)', async () => {
    const from = Date.parse('2020-03-28T12:00:00Z');
    const to = Date.parse('2020-03-30T05:00:00Z');
    for (const region of REGIONS) {
      for (const latest of [false, true]) {
        const rows = await cheapestWindows(warehouse, {
          tariff: TARIFF[region], slots: 4, perDay: true, latest, from: new Date(from), to: new Date(to),
        });
        expect(rows.map((r) => r.local_date)).toEqual(['2020-03-28', '2020-03-29', '2020-03-30']);
        expect(compareWindows(rows, bruteByGroup(byDate(inRange(series[region], from, to)), 4, latest), 4, (r) => r.local_date!)).toEqual([]);
      }
    }
  });

  it('with max_price, no half-hour of a window costs more', async () => {
    for (const region of REGIONS) {
      const rows = await cheapestWindows(warehouse, { tariff: TARIFF[region], slots: 4, perDay: true, maxPrice: 5 });
      const expected = bruteByGroup(byDate(series[region]), 4, false, 5);
      expect(expected.size).toBeGreaterThan(50);
      expect(expected.size).toBeLessThan(byDate(series[region]).size);
      expect(compareWindows(rows, expected, 4, (r) => r.local_date!)).toEqual([]);
    }
  });

  it.each([
    { date: '2020-03-29', slots: 46, localStart: '2020-03-29T00:00:00+00:00', localEnd: '2020-03-30T00:00:00+01:00' },
    { date: '2020-10-25', slots: 50, localStart: '2020-10-25T00:00:00+01:00', localEnd: '2020-10-26T00:00:00+00:00' },
    { date: '2021-03-28', slots: 46, localStart: '2021-03-28T00:00:00+00:00', localEnd: '2021-03-29T00:00:00+01:00' },
    { date: '2023-10-29', slots: 50, localStart: '2023-10-29T00:00:00+01:00', localEnd: '2023-10-30T00:00:00+00:00' },
    { date: '2022-06-01', slots: 48, localStart: '2022-06-01T00:00:00+01:00', localEnd: '2022-06-02T00:00:00+01:00' },
  ])('a window of the whole local day $date is $slots half-hours, and one more does not fit', async ({ date, slots, localStart, localEnd }) => {
    const region: Region = date < '2021-08-23' ? 'A' : 'J';
    const from = new Date(Date.parse(`${date}T00:00:00Z`) - DAY);
    const to = new Date(Date.parse(`${date}T00:00:00Z`) + 2 * DAY);
    const whole = await cheapestWindows(warehouse, { tariff: TARIFF[region], slots, perDay: true, from, to });
    const day = whole.find((r) => r.local_date === date);
    expect(day).toMatchObject({ local_start: localStart, local_end: localEnd, slots });
    const expectedMean = series[region].filter((s) => s.date === date).reduce((a, s) => a + s.inc, 0) / slots;
    expect(day!.mean_inc_vat).toBeCloseTo(expectedMean, 9);
    const tooLong = await cheapestWindows(warehouse, { tariff: TARIFF[region], slots: slots + 1, perDay: true, from, to });
    expect(tooLong.map((r) => r.local_date)).not.toContain(date);
  });
});

describe('cheapest_window over ranges, windows free to cross midnight', () => {
  /** 3-day ranges starting at varied times of day, every two months, plus the clock-change and gap nights. */
  function rangesOf(region: Region): { from: number; to: number }[] {
    const slots = series[region];
    const ranges: { from: number; to: number }[] = [];
    for (let i = 0, from = slots[0]!.ms; from < slots.at(-1)!.ms; i++, from += 61 * DAY + 7 * HALF_HOUR) {
      ranges.push({ from, to: from + 3 * DAY - (i % 5) * HALF_HOUR });
    }
    for (const day of ['2020-03-28', '2020-10-24', '2021-06-14', '2019-10-26']) {
      ranges.push({ from: Date.parse(`${day}T20:00:00Z`), to: Date.parse(`${day}T20:00:00Z`) + DAY });
    }
    return ranges.filter((r) => r.from >= slots[0]!.ms && r.to <= slots.at(-1)!.ms + HALF_HOUR);
  }

  it.each(REGIONS.flatMap((region) => [1, 6].map((slots) => ({ region, slots }))))(
    'region $region, $slots half-hours, earliest and latest ties',
    async ({ region, slots }) => {
      const ranges = rangesOf(region);
      for (const latest of [false, true]) {
        const rows: WindowRow[] = [];
        const expected = new Map<string, BruteWindow>();
        for (const [i, range] of ranges.entries()) {
          const found = await cheapestWindows(warehouse, { tariff: TARIFF[region], slots, latest, from: new Date(range.from), to: new Date(range.to) });
          expect(found.length).toBeLessThanOrEqual(1);
          rows.push(...found.map((row) => ({ ...row, local_date: String(i) })));
          const best = bestWindow(inRange(series[region], range.from, range.to), slots, latest);
          if (best) expected.set(String(i), best);
        }
        expect(expected.size).toBeGreaterThan(25);
        expect(compareWindows(rows, expected, slots, (r) => r.local_date!)).toEqual([]);
      }
    },
  );

  it('cheapestWindows() without perDay returns the one cheapest window of the range', async () => {
    const from = Date.parse('2020-10-24T00:00:00Z');
    const to = Date.parse('2020-10-27T00:00:00Z');
    const rows = await cheapestWindows(warehouse, { tariff: TARIFF_J, slots: 4, from: new Date(from), to: new Date(to), latest: true });
    expect(rows).toHaveLength(1);
    expect(rows[0]).not.toHaveProperty('local_date');
    expect(compareWindows(rows, new Map([['x', bestWindow(inRange(series.J, from, to), 4, true)!]]), 4, () => 'x')).toEqual([]);
  });
});

describe('cheapest_window_in_band against brute force', () => {
  const bands = [
    { name: '23:00-07:00', start: 1380, end: 420, slots: [1, 4, 6] },
    { name: '16:00-19:00', start: 960, end: 1140, slots: [2] },
    // start = end: a whole day from 07:00 to 07:00; back-to-back occurrences, windows must not join them
    { name: '07:00-07:00', start: 420, end: 420, slots: [4] },
  ];
  it.each(REGIONS.flatMap((region) => bands.map((band) => ({ region, band }))))(
    'region $region, band $band.name, every occurrence, earliest and latest ties',
    async ({ region, band }) => {
      const occurrences = new Map<string, Slot[]>();
      for (const slot of series[region]) {
        const date = bandOccurrence(slot, band.start, band.end);
        if (date === undefined) continue;
        const group = occurrences.get(date);
        if (group) group.push(slot);
        else occurrences.set(date, [slot]);
      }
      for (const slots of band.slots) {
        for (const latest of [false, true]) {
          const rows = await cheapestWindows(warehouse, {
            tariff: TARIFF[region], slots, band: { startMinutes: band.start, endMinutes: band.end }, latest,
          });
          expect(rows.length).toBeGreaterThan(1500);
          expect(compareWindows(rows, bruteByGroup(occurrences, slots, latest), slots, (r) => r.local_date!)).toEqual([]);
        }
      }
    },
  );

  it('a 23:00-07:00 night has 14 half-hours when clocks go forward and 18 when they go back', async () => {
    const band = { startMinutes: 1380, endMinutes: 420 };
    const nights = async (slots: number) =>
      (await cheapestWindows(warehouse, { tariff: TARIFF_J, slots, band })).map((r) => r.local_date);
    const eighteen = await nights(18);
    expect(eighteen).toEqual(['2020-10-24', '2021-10-30', '2022-10-29', '2023-10-28']);
    const springForward = ['2020-03-28', '2021-03-27', '2022-03-26', '2023-03-25', '2024-03-30'];
    expect(await nights(14)).toEqual(expect.arrayContaining(springForward));
    const fifteen = await nights(15);
    expect(fifteen.length).toBeGreaterThan(1500);
    expect(fifteen.filter((date) => springForward.includes(date!))).toEqual([]);
    const fallBack = (await cheapestWindows(warehouse, { tariff: TARIFF_J, slots: 18, band }))[0]!;
    expect(fallBack).toMatchObject({ local_start: '2020-10-24T23:00:00+01:00', local_end: '2020-10-25T07:00:00+00:00' });
  });
});

describe('gaps', () => {
  it('reports exactly the deleted half-hours, per series and local day', async () => {
    const rows = await gaps(warehouse);
    expect(rows).toEqual([
      { tariff_code: TARIFF_A, payment_method: null, rate_type: 'standard', local_date: '2019-10-27', day_slots: 50, expected_slots: 50, slots: 49, missing_slots: 1 },
      { tariff_code: TARIFF_J, payment_method: null, rate_type: 'standard', local_date: '2021-06-15', day_slots: 48, expected_slots: 48, slots: 46, missing_slots: 2 },
    ]);
    expect(await gaps(warehouse, { tariff: TARIFF_J })).toHaveLength(1);
  });

  it('no window spans a missing half-hour: the cheapest window of a gap day moves elsewhere', async () => {
    for (const plan of GAP_PLAN) {
      const rows = await cheapestWindows(warehouse, { tariff: TARIFF[plan.region], slots: plan.slots, perDay: true });
      const day = rows.find((r) => r.local_date === plan.date)!;
      const before = bestBeforeGap.get(plan.region)!;
      expect(day.start).not.toBe(utcIso(before.startMs));
      const start = Date.parse(day.start);
      const spans = deleted.filter((d) => d.region === plan.region && d.ms >= start && d.ms < Date.parse(day.end));
      expect(spans).toEqual([]);
      expect(day.mean_inc_vat).toBeGreaterThan(before.mean - 1e-9);
    }
  });
});

describe('cheapest_slots against brute force', () => {
  it('the n cheapest half-hours of 3-day ranges, in time order, earliest and latest ties', async () => {
    let checked = 0;
    const ties = { differ: 0 };
    for (const region of REGIONS) {
      const slots = series[region];
      for (let from = slots[0]!.ms + 13 * HALF_HOUR; from < slots.at(-1)!.ms - 3 * DAY; from += 151 * DAY) {
        const to = from + 3 * DAY;
        const picked: Record<string, string[]> = {};
        for (const latest of [false, true]) {
          const rows = await cheapestSlots(warehouse, { tariff: TARIFF[region], count: 5, from: new Date(from), to: new Date(to), latest });
          const expected = cheapestN(inRange(slots, from, to), 5, latest);
          expect(rows.map((r) => r.start)).toEqual(expected.map((s) => utcIso(s.ms)));
          expect(rows.map((r) => r.value_inc_vat)).toEqual(expected.map((s) => s.inc));
          expect(rows.map((r) => r.local_start)).toEqual(expected.map((s) => localIso(s.ms)));
          expect([...rows.map((r) => r.price_rank)].sort()).toEqual([1, 2, 3, 4, 5]);
          picked[String(latest)] = rows.map((r) => r.start);
          checked++;
        }
        if (picked.false!.join() !== picked.true!.join()) ties.differ++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(ties.differ).toBeGreaterThan(0);
  });
});

describe('daily_stats against brute force, every local day', () => {
  it.each(REGIONS)('region %s: count, expected, min, max, mean, median, p10, p90, negatives, peak', async (region) => {
    const rows = await dailyStats(warehouse, { tariff: TARIFF[region] });
    const expected = new Map([...byDate(series[region])].map(([date, slots]) => [date, dayStats(date, slots)]));
    expect(rows.map((r) => r.local_date)).toEqual([...expected.keys()]);
    const problems: string[] = [];
    const close = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9);
    for (const row of rows) {
      const want = expected.get(row.local_date)!;
      const same = row.slots === want.slots && row.expected_slots === want.expected && row.min_inc_vat === want.min &&
        row.max_inc_vat === want.max && row.negative_slots === want.negative && close(row.mean_inc_vat, want.mean) &&
        close(row.median_inc_vat, want.median) && close(row.p10_inc_vat, want.p10) && close(row.p90_inc_vat, want.p90) &&
        close(row.peak_mean_inc_vat, want.peakMean);
      if (!same) problems.push(`${row.local_date}: ${JSON.stringify(row)} vs ${JSON.stringify(want)}`);
    }
    expect(problems).toEqual([]);
    const lengths = new Set(rows.map((r) => r.expected_slots));
    expect([...lengths].sort()).toEqual([46, 48, 50]);
  });

  it.each([
    { date: '2020-03-29', slots: 46 }, { date: '2020-10-25', slots: 50 },
    { date: '2023-03-26', slots: 46 }, { date: '2023-10-29', slots: 50 },
  ])('$date has $slots half-hours stored and expected', async ({ date, slots }) => {
    const rows = await dailyStats(warehouse, { tariff: TARIFF_J, from: new Date(`${date}T12:00:00Z`), to: new Date(Date.parse(`${date}T12:00:00Z`) + DAY) });
    // a day is selected by its local midnight: the midday --from skips `date` and takes the next day
    expect(rows.map((r) => r.local_date)).not.toContain(date);
    const [day] = await dailyStats(warehouse, { tariff: TARIFF_J, from: new Date(Date.parse(`${date}T00:00:00Z`) - 2 * 3600_000), to: new Date(Date.parse(`${date}T00:00:00Z`) + 3600_000) });
    expect(day).toMatchObject({ local_date: date, slots, expected_slots: slots });
  });
});

describe('negative prices', () => {
  it.each(REGIONS)('region %s: every negative run matches brute force', async (region) => {
    const rows = await negativeRuns(warehouse, { tariff: TARIFF[region] });
    const expected = negativeRunsOf(series[region]);
    expect(expected.length).toBeGreaterThan(20);
    expect(rows.map((r) => [r.start, r.end, r.slots, r.min_inc_vat, r.local_start, r.local_end]))
      .toEqual(expected.map((r) => [utcIso(r.startMs), utcIso(r.endMs), r.slots, r.min, localIso(r.startMs), localIso(r.endMs)]));
    rows.forEach((row, i) => expect(row.mean_inc_vat).toBeCloseTo(expected[i]!.mean, 9));
  });

  it.each(REGIONS)('region %s: the negative half-hours are those of the CSV', async (region) => {
    const rows = await negativeSlots(warehouse, { tariff: TARIFF[region] });
    const expected = series[region].filter((s) => s.inc < 0);
    expect(rows.map((r) => [r.start, r.local_start, r.value_inc_vat]))
      .toEqual(expected.map((s) => [utcIso(s.ms), localIso(s.ms), s.inc]));
  });

  it('a range selects the half-hours inside it and the runs overlapping it', async () => {
    const range = { from: new Date('2020-05-23T05:00:00Z'), to: new Date('2020-05-24T06:00:00Z') };
    const slots = await negativeSlots(warehouse, { tariff: TARIFF_A, ...range });
    expect(slots.every((s) => s.start >= '2020-05-23T05:00:00Z' && s.end <= '2020-05-24T06:00:00Z')).toBe(true);
    expect(slots.length).toBe(series.A.filter((s) => s.inc < 0 && s.ms >= range.from.getTime() && s.ms + HALF_HOUR <= range.to.getTime()).length);
    const runs = await negativeRuns(warehouse, { tariff: TARIFF_A, ...range });
    expect(runs.map((r) => [r.start, r.end])).toEqual([
      ['2020-05-23T00:30:00Z', '2020-05-23T08:00:00Z'],
      ['2020-05-23T10:00:00Z', '2020-05-23T15:00:00Z'],
      ['2020-05-24T00:30:00Z', '2020-05-24T09:00:00Z'],
    ]);
  });

  it('no negative prices in a range with prices is an empty answer, not an error', async () => {
    expect(await negativeSlots(warehouse, { tariff: TARIFF_A, from: new Date('2019-01-10T00:00:00Z'), to: new Date('2019-01-11T00:00:00Z') })).toEqual([]);
  });
});

describe('monthly_stats and region_comparison', () => {
  it('months add up the local days, with the calendar month of half-hours expected', async () => {
    const months = await monthlyStats(warehouse, { tariff: TARIFF_J });
    const days = await dailyStats(warehouse, { tariff: TARIFF_J });
    for (const month of months) {
      const inMonth = days.filter((d) => d.local_date.slice(0, 7) === month.month.slice(0, 7));
      expect(month.slots).toBe(inMonth.reduce((a, d) => a + d.slots, 0));
      expect(month.days).toBe(inMonth.length);
      expect(month.negative_slots).toBe(inMonth.reduce((a, d) => a + d.negative_slots, 0));
    }
    const byMonth = new Map(months.map((m) => [m.month, m]));
    expect(byMonth.get('2020-03-01')).toMatchObject({ slots: 1486, expected_slots: 1486 });
    expect(byMonth.get('2020-10-01')).toMatchObject({ slots: 1490, expected_slots: 1490 });
  });

  it('compares the regions of a product over the same range (J parsed from its code)', async () => {
    const from = Date.parse('2020-06-01T00:00:00Z');
    const to = Date.parse('2021-06-01T00:00:00Z');
    const rows = await regionComparison(warehouse, { product: 'AGILE-18-02-21', from: new Date(from), to: new Date(to) });
    expect(rows.map((r) => [r.region, r.tariff_code])).toEqual([['A', TARIFF_A], ['J', TARIFF_J]]);
    for (const row of rows) {
      const slots = inRange(series[row.region as Region], from, to);
      expect(row.slots).toBe(slots.length);
      expect(row.mean_inc_vat).toBeCloseTo(slots.reduce((a, s) => a + s.inc, 0) / slots.length, 9);
      expect(row.negative_slots).toBe(slots.filter((s) => s.inc < 0).length);
    }
    expect(rows.map((r) => r.mean_rank).sort()).toEqual([1, 2]);
    await expect(regionComparison(warehouse, { product: 'NO-SUCH-PRODUCT' })).rejects.toThrow(NoDataError);
  });
});

describe('series: one code, several payment methods', () => {
  it('every window macro answers per series, names decoded, no window mixing two series', async () => {
    const range = { from: new Date('2020-03-27T00:00:00Z'), to: new Date('2020-03-31T00:00:00Z') };
    const j = await cheapestWindows(warehouse, { tariff: TARIFF_J, slots: 4, perDay: true, ...range });
    const two = await cheapestWindows(warehouse, { tariff: TWO_SERIES, slots: 4, perDay: true, ...range });
    expect(two.map((r) => [r.payment_method, r.rate_type, r.local_date])).toEqual([
      ['DIRECT_DEBIT', 'standard', '2020-03-28'], ['DIRECT_DEBIT', 'standard', '2020-03-29'], ['DIRECT_DEBIT', 'standard', '2020-03-30'],
      ['NON_DIRECT_DEBIT', 'standard', '2020-03-28'], ['NON_DIRECT_DEBIT', 'standard', '2020-03-29'], ['NON_DIRECT_DEBIT', 'standard', '2020-03-30'],
    ]);
    const jByDay = new Map(j.map((r) => [r.local_date, r]));
    for (const row of two) {
      const same = jByDay.get(row.local_date)!;
      expect(row.start).toBe(same.start);
      expect(row.mean_inc_vat).toBeCloseTo(same.mean_inc_vat + (row.payment_method === 'NON_DIRECT_DEBIT' ? 1 : 0), 9);
    }
    const overall = await cheapestWindows(warehouse, { tariff: TWO_SERIES, slots: 6, ...range });
    expect(overall.map((r) => r.payment_method)).toEqual(['DIRECT_DEBIT', 'NON_DIRECT_DEBIT']);
    expect(overall[0]!.start).toBe(overall[1]!.start);
    const nights = await cheapestWindows(warehouse, { tariff: TWO_SERIES, slots: 14, band: { startMinutes: 1380, endMinutes: 420 }, ...range });
    // the data starts at local midnight of the 28th: the night of the 27th is its last 14 half-hours
    expect(nights.map((r) => [r.payment_method, r.local_date])).toEqual([
      ['DIRECT_DEBIT', '2020-03-27'], ['DIRECT_DEBIT', '2020-03-28'], ['DIRECT_DEBIT', '2020-03-29'],
      ['NON_DIRECT_DEBIT', '2020-03-27'], ['NON_DIRECT_DEBIT', '2020-03-28'], ['NON_DIRECT_DEBIT', '2020-03-29'],
    ]);
    const days = await dailyStats(warehouse, { tariff: TWO_SERIES });
    expect(days.map((d) => [d.payment_method, d.local_date, d.slots])).toEqual([
      ['DIRECT_DEBIT', '2020-03-28', 48], ['DIRECT_DEBIT', '2020-03-29', 46], ['DIRECT_DEBIT', '2020-03-30', 48],
      ['NON_DIRECT_DEBIT', '2020-03-28', 48], ['NON_DIRECT_DEBIT', '2020-03-29', 46], ['NON_DIRECT_DEBIT', '2020-03-30', 48],
    ]);
  });

  it('a payment method tariffs never stores is a series of its own, never mixed with another', async () => {
    const odd = await cheapestWindows(warehouse, { tariff: ODD_PAYMENT, slots: 2, perDay: true });
    const [j] = await cheapestWindows(warehouse, {
      tariff: TARIFF_J, slots: 2, perDay: true, from: new Date('2020-03-28T00:00:00Z'), to: new Date('2020-03-29T00:00:00Z'),
    });
    expect(odd.map((r) => [r.payment_method, r.local_date, r.start])).toEqual([
      [null, '2020-03-28', j!.start], ['PREPAYMENT', '2020-03-28', j!.start],
    ]);
    expect(odd[0]!.mean_inc_vat).toBeCloseTo(j!.mean_inc_vat + 5, 9);
    expect(odd[1]!.mean_inc_vat).toBeCloseTo(j!.mean_inc_vat, 9);
  });
});

describe('no data, bad requests', () => {
  it('a tariff with no prices, or none in the range, is a NoDataError naming it', async () => {
    await expect(cheapestWindows(warehouse, { tariff: 'E-1R-NOPE-A', slots: 2 })).rejects.toThrow(/no prices stored for tariff E-1R-NOPE-A/);
    await expect(cheapestWindows(warehouse, { tariff: TARIFF_A, slots: 2, from: new Date('2023-01-01T00:00:00Z') }))
      .rejects.toThrow(NoDataError);
    await expect(dailyStats(warehouse, { tariff: TARIFF_J, to: new Date('2019-01-01T00:00:00Z') })).rejects.toThrow(/no prices for tariff/);
    await expect(gaps(warehouse, { tariff: 'E-1R-NOPE-A' })).rejects.toThrow(NoDataError);
  });

  it('prices there but no window qualifying is an empty answer', async () => {
    const rows = await cheapestWindows(warehouse, { tariff: TARIFF_A, slots: 4, maxPrice: -100, from: new Date('2020-01-01T00:00:00Z'), to: new Date('2020-01-02T00:00:00Z') });
    expect(rows).toEqual([]);
  });

  it('rejects impossible requests with a UsageError', async () => {
    await expect(cheapestWindows(warehouse, { tariff: TARIFF_A, slots: 0 })).rejects.toThrow(UsageError);
    await expect(inCliWords(() => cheapestWindows(warehouse, { tariff: TARIFF_A, slots: 2, from: new Date('2020-02-01'), to: new Date('2020-01-01') }))).rejects.toThrow(/--from must be before --to/);
  });

  it.each([
    ['30m', 1], ['90m', 3], ['2h', 4], ['1h30m', 3], ['24h', 48], [' 2H ', 4],
  ])('--duration %s is %i half-hours', (text, slots) => {
    expect(parseDuration(text)).toBe(slots);
  });

  it.each(['45m', '0m', '0h', '', 'h', '2', '1.5h', '-30m', '2h15m'])('--duration %j is a usage error naming the flag', (text) => {
    expect(() => parseDuration(text)).toThrow(UsageError);
    expect(() => parseDuration(text)).toThrow(/--duration/);
  });
});

describe('SQL first: an analyst session in another time zone gets the same answer', () => {
  it('cheapest_window_per_day and london_iso ignore the session TimeZone', async () => {
    const connection = await warehouse.instance.connect();
    try {
      await connection.run("SET TimeZone = 'America/New_York'");
      const reader = await connection.runAndReadAll(`
        SELECT local_date::VARCHAR AS d, local_start, local_end, epoch_ms(start) AS ms
        FROM cheapest_window_per_day('${TARIFF_A}', 4, TIMESTAMPTZ '2020-10-24 00:00:00+00', TIMESTAMPTZ '2020-10-27 00:00:00+00')`);
      const rows = reader.getRowObjectsJS();
      const expected = bruteByGroup(byDate(inRange(series.A, Date.parse('2020-10-24T00:00:00Z'), Date.parse('2020-10-27T00:00:00Z'))), 4, false);
      expect(rows.map((r) => [r.d, r.local_start, Number(r.ms)]))
        .toEqual([...expected].map(([date, w]) => [date, localIso(w.startMs), w.startMs]));
    } finally {
      connection.closeSync();
    }
  });
});

describe('the CLI (built, in dist/)', () => {
  const runs = {
    perDay: ['cheapest', '--tariff', TARIFF_A, '--duration', '2h', '--from', '2020-03-28', '--to', '2020-03-31', '--per-day', '--format', 'json'],
    between: ['cheapest', '--tariff', TARIFF_J, '--duration', '9h', '--from', '2020-10-24', '--to', '2020-10-26', '--between', '23:00-07:00', '--format', 'json'],
    daily: ['daily', '--tariff', TARIFF_J, '--from', '2020-10-24', '--to', '2020-10-26', '--format', 'json'],
    negative: ['negative', '--tariff', TARIFF_A, '--from', '2020-05-23', '--to', '2020-05-24', '--format', 'json'],
    runs: ['negative', '--tariff', TARIFF_A, '--runs', '--from', '2020-05-23', '--to', '2020-05-24', '--format', 'json'],
    slots: ['slots', '--tariff', TARIFF_J, '--count', '3', '--from', '2020-03-29', '--to', '2020-03-30', '--format', 'json'],
    monthly: ['monthly', '--tariff', TARIFF_A, '--format', 'csv'],
    regions: ['regions', '--product', 'AGILE-18-02-21', '--format', 'table'],
    gaps: ['gaps', '--format', 'json'],
    unknownTariff: ['cheapest', '--tariff', 'E-1R-NOPE-A', '--duration', '1h', '--from', '2020-01-01', '--format', 'json'],
    outsideData: ['slots', '--tariff', TARIFF_A, '--count', '2', '--from', '2023-01-01', '--format', 'json'],
    beforeData: ['daily', '--tariff', TARIFF_J, '--to', '2019-01-01', '--format', 'json'],
    duration45m: ['cheapest', '--tariff', TARIFF_A, '--duration', '45m'],
    duration0h: ['cheapest', '--tariff', TARIFF_A, '--duration', '0h'],
    durationWord: ['cheapest', '--tariff', TARIFF_A, '--duration', 'soon'],
  };
  let result = {} as Record<keyof typeof runs, CliResult>;

  // one process per case, all at once
  beforeAll(async () => {
    result = await runCliCases(runs, ['--db', db]);
  }, 120_000);

  const json = (name: keyof typeof runs) => {
    expect(result[name].stderr).toBe('');
    expect(result[name].code).toBe(0);
    return JSON.parse(result[name].stdout) as Record<string, unknown>[];
  };

  it('cheapest --per-day: JSON array with the contract fields, the same windows as the library', async () => {
    const rows = json('perDay');
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      for (const field of ['tariff_code', 'local_date', 'start', 'end', 'local_start', 'local_end', 'slots', 'mean_inc_vat', 'mean_exc_vat']) {
        expect(row).toHaveProperty(field);
      }
      expect(row.start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
      expect(row.local_start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\+0[01]:00$/);
    }
    const request = {
      tariff: TARIFF_A, slots: 4, perDay: true, from: new Date('2020-03-28T00:00:00Z'), to: new Date('2020-03-31T00:00:00+01:00'),
    };
    // the CLI prints the library's answer with prices rounded in SQL to 4 decimals, as the exports
    // and adds `complete` (every half-hour of the range priced)
    expect(rows).toEqual((await cheapestWindows(warehouse, { ...request, rounded: true })).map((row) => ({ ...row, complete: true })));
    const exact = await cheapestWindows(warehouse, request);
    rows.forEach((row, i) => {
      expect(row.mean_inc_vat).toBe(Number((exact[i]!.mean_inc_vat).toFixed(4)));
      expect(Math.abs((row.mean_exc_vat as number) - exact[i]!.mean_exc_vat)).toBeLessThanOrEqual(0.00005);
    });
    expect(rows[1]).toMatchObject({ local_date: '2020-03-29', local_start: '2020-03-29T03:00:00+01:00', slots: 4 });
  });

  it('cheapest --between 23:00-07:00 lists nights under the date they start; no --per-day needed', () => {
    expect(json('between')).toEqual([expect.objectContaining({
      local_date: '2020-10-24', start: '2020-10-24T22:00:00Z', end: '2020-10-25T07:00:00Z',
      local_start: '2020-10-24T23:00:00+01:00', local_end: '2020-10-25T07:00:00+00:00', slots: 18,
    })]);
  });

  it('daily, negative, negative --runs and slots: JSON field contracts', () => {
    const days = json('daily');
    expect(days.map((d) => [d.local_date, d.slots])).toEqual([['2020-10-24', 48], ['2020-10-25', 50]]);
    for (const field of ['tariff_code', 'local_date', 'slots', 'min_inc_vat', 'max_inc_vat', 'mean_inc_vat', 'median_inc_vat', 'negative_slots']) {
      expect(days[0]).toHaveProperty(field);
    }
    const halfHours = json('negative');
    expect(halfHours.length).toBe(series.A.filter((s) => s.inc < 0 && s.date === '2020-05-23').length);
    for (const field of ['tariff_code', 'start', 'end', 'local_start', 'value_inc_vat', 'value_exc_vat']) expect(halfHours[0]).toHaveProperty(field);
    const stretches = json('runs');
    expect(stretches).toHaveLength(2);
    for (const field of ['tariff_code', 'start', 'end', 'slots', 'min_inc_vat', 'mean_inc_vat']) expect(stretches[0]).toHaveProperty(field);
    expect(json('slots').map((s) => s.value_inc_vat)).toEqual(cheapestN(series.J.filter((s) => s.date === '2020-03-29'), 3, false).map((s) => s.inc));
  });

  it('monthly, regions and gaps answer; table output is readable', () => {
    expect(result.monthly.code).toBe(0);
    expect(result.monthly.stdout.split('\n')[0]).toContain('tariff_code,payment_method,rate_type,month,days,slots,expected_slots');
    expect(result.regions.code).toBe(0);
    expect(result.regions.stdout.split('\n')[0]).toBe('AGILE-18-02-21'); // the product, said once
    expect(result.regions.stdout).toMatch(/^A\s+E-1R-AGILE-18-02-21-A\s/m);
    expect(result.regions.stdout).toContain('2 rows');
    expect(json('gaps').map((g) => g.local_date)).toEqual(['2019-10-27', '2021-06-15']);
  });

  it('exits 1 with a message on stderr when the tariff has no data in the range', () => {
    for (const name of ['unknownTariff', 'outsideData', 'beforeData'] as const) {
      expect(result[name].code).toBe(1);
      expect(result[name].stdout).toBe('');
      expect(result[name].stderr).toMatch(/^tariffs: no prices/);
    }
    expect(result.unknownTariff.stderr).toContain('E-1R-NOPE-A');
  });

  it('exits 2 on a bad --duration, naming the flag', () => {
    for (const name of ['duration45m', 'duration0h', 'durationWord'] as const) {
      expect(result[name].code).toBe(2);
      expect(result[name].stderr).toContain('--duration');
      expect(result[name].stdout).toBe('');
    }
  });
});
