// Windows for every household decision (issue 12) against brute force over real prices: highest
// and cheapest, price thresholds (negative too), weights, flexible lengths, ties both ways, per
// local day, per band and over ranges, on Agile J (with its negative prices and both 2020 clock
// changes) and the real Agile Outgoing export series of region C (both 2023 clock changes);
// slots; partly priced ranges; rolling "from now"; "is it now?".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkWindow, cheapestSlots, cheapestWindows, rangeCoverage, rollingStart, type LengthMode, type WindowRow,
} from '../src/analytics/index.js';
import { loadConfig } from '../src/config/loadConfig.js';
import { UsageError } from '../src/errors.js';
import { runIngest } from '../src/ingest/ingest.js';
import { silentLogger } from '../src/log/createLogger.js';
import { startSandbox } from '../src/sandbox/startSandbox.js';
import { Warehouse } from '../src/store/Warehouse.js';
import {
  HALF_HOUR, bandOccurrence, bestGeneralWindow, bruteSlots, groupBy, halfHoursInDay, localDate, localIso, toSlots, utcIso,
  type BruteGeneralWindow, type Slot, type WindowOptions,
} from './helpers/analyticsBruteForce.js';
import { outgoingCPrices, regionJPrices } from './helpers/realAgilePrices.js';
import { runCliCases, type CliResult } from './helpers/runCli.js';
import { inCliWords } from '../src/cli/requestWords.js';

const J = 'E-1R-AGILE-18-02-21-J';
const OUT = 'E-1R-AGILE-OUTGOING-19-05-13-C';
const DAY = 86_400_000;
/** J from before the 2020 spring-forward to after the fall-back, with May's negative prices. */
const J_FROM = Date.parse('2020-03-20T00:00:00Z');
const J_TO = Date.parse('2020-11-05T00:00:00Z');
/** Half-hours deleted from J: a gap inside a negative afternoon, and one in the fall-back night. */
const DELETED = ['2020-05-24T13:00:00Z', '2020-05-24T13:30:00Z', '2020-10-25T01:00:00Z'].map(Date.parse);

type Data = 'J' | 'OUT';
const TARIFF: Record<Data, string> = { J, OUT };
const series = {} as Record<Data, Slot[]>;
let dir: string;
let db: string;
let warehouse: Warehouse;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tariffs-windows-'));
  db = join(dir, 'windows.duckdb');
  const sandbox = await startSandbox();
  try {
    const config = await loadConfig({ db, baseUrl: sandbox.baseUrl }, {});
    const context = { config, logger: silentLogger(), now: () => new Date('2024-06-01T00:00:00Z') };
    const j = await runIngest({ tariffs: [J], products: [], accounts: [], from: new Date(J_FROM), to: new Date(J_TO) }, context);
    // the export tariff resolved from its product, as a user would: --product … --region C
    const out = await runIngest({
      tariffs: [], products: [{ code: 'AGILE-OUTGOING-19-05-13', regions: ['C'] }], accounts: [],
      from: new Date('2023-01-01T00:00:00Z'), to: new Date('2024-01-01T00:00:00Z'),
    }, context);
    expect([j.status, out.status]).toEqual(['ok', 'ok']);
  } finally {
    await sandbox.close();
  }
  const writer = await Warehouse.open(db);
  try {
    for (const ms of DELETED) {
      await writer.run('DELETE FROM unit_rates WHERE tariff_code = $t AND valid_from = CAST($at AS TIMESTAMPTZ)', { t: J, at: new Date(ms).toISOString() });
    }
    await writer.checkpoint();
  } finally {
    writer.close();
  }
  series.J = toSlots(regionJPrices().filter((p) => p.ms >= J_FROM && p.ms < J_TO && !DELETED.includes(p.ms)));
  series.OUT = toSlots(outgoingCPrices().filter((p) => p.ms < Date.parse('2024-01-01T00:00:00Z'))); // as ingested
  warehouse = await Warehouse.open(db, { readOnly: true });
}, 120_000);

afterAll(() => {
  warehouse?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function inRange(slots: Slot[], from: number, to: number): Slot[] {
  return slots.filter((s) => s.ms >= from && s.ms + HALF_HOUR <= to);
}

/** Differences between SQL windows and brute-force ones, by group key; [] when they agree. */
function compare(rows: WindowRow[], expected: Map<string, BruteGeneralWindow>, key: (r: WindowRow) => string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const k = key(row);
    seen.add(k);
    const want = expected.get(k);
    if (!want) {
      problems.push(`${k}: SQL has ${row.start} (${row.slots}), brute force none`);
      continue;
    }
    const end = want.startMs + want.slots * HALF_HOUR;
    if (row.start !== utcIso(want.startMs) || row.slots !== want.slots) {
      problems.push(`${k}: ${row.start} × ${row.slots}, expected ${utcIso(want.startMs)} × ${want.slots}`);
      continue;
    }
    if (Math.abs(row.mean_inc_vat - want.mean) > 1e-9) problems.push(`${k}: mean ${row.mean_inc_vat}, expected ${want.mean}`);
    if (Math.abs(row.score_inc_vat - want.score) > 1e-9) problems.push(`${k}: score ${row.score_inc_vat}, expected ${want.score}`);
    if (row.end !== utcIso(end) || row.local_start !== localIso(want.startMs) || row.local_end !== localIso(end)) {
      problems.push(`${k}: ${JSON.stringify(row)} does not describe ${utcIso(want.startMs)} + ${want.slots}`);
    }
  }
  for (const k of expected.keys()) if (!seen.has(k)) problems.push(`${k}: brute force has ${utcIso(expected.get(k)!.startMs)}, SQL none`);
  return problems;
}

function bruteGroups(groups: Map<string, Slot[]>, o: WindowOptions): Map<string, BruteGeneralWindow> {
  const out = new Map<string, BruteGeneralWindow>();
  for (const [k, group] of groups) {
    const best = bestGeneralWindow(group, o);
    if (best) out.set(k, best);
  }
  return out;
}

const requestOf = (o: WindowOptions) => ({
  slots: o.n, latest: o.latest ?? false, highest: o.highest ?? false,
  ...(o.min === undefined ? {} : { minPrice: o.min }), ...(o.max === undefined ? {} : { maxPrice: o.max }),
  ...(o.weights === undefined ? {} : { weights: o.weights }), ...(o.mode === undefined ? {} : { lengthMode: o.mode }),
});

/** Thresholds per data set: none, a negative cap (J's negative prices), a floor, a band, zero (Outgoing's floor). */
const THRESHOLDS: Record<Data, { min?: number; max?: number }[]> = {
  J: [{}, { max: -1 }, { min: 0 }, { min: 5, max: 15 }],
  OUT: [{}, { max: 0 }, { min: 10 }, { min: 4, max: 12 }],
};
const MODES: LengthMode[] = ['exact', 'at_least', 'at_most'];

describe('per local day: highest × thresholds × lengths × ties against brute force', () => {
  it.each((['J', 'OUT'] as Data[]).flatMap((data) => [false, true].map((highest) => ({ data, highest }))))(
    '$data, highest $highest',
    async ({ data, highest }) => {
      const days = groupBy(series[data], (s) => s.date);
      const found = { longer: 0, shorter: 0, split: 0, answered: 0 };
      for (const threshold of THRESHOLDS[data]) {
        for (const mode of MODES) {
          const starts: string[][] = [];
          for (const latest of [false, true]) {
            const o: WindowOptions = { n: 4, highest, latest, mode, ...threshold };
            const rows = await cheapestWindows(warehouse, { tariff: TARIFF[data], perDay: true, ...requestOf(o) });
            const expected = bruteGroups(days, o);
            expect(compare(rows, expected, (r) => r.local_date!), JSON.stringify(o)).toEqual([]);
            found.longer += rows.filter((r) => r.slots > 4).length;
            found.shorter += rows.filter((r) => r.slots < 4).length;
            found.answered += rows.length;
            starts.push(rows.map((r) => r.start));
          }
          found.split += starts[0]!.filter((s, i) => s !== starts[1]![i]).length;
        }
      }
      // every option really changed answers on this real data
      expect(found.answered).toBeGreaterThan(1000);
      expect(found.longer).toBeGreaterThan(10);
      expect(found.shorter).toBeGreaterThan(3);
      expect(found.split).toBeGreaterThan(0);
    },
  );

  it('the export tariff came from its real product, listed with direction EXPORT, and holds the CSV prices', async () => {
    const products = await warehouse.all(`SELECT code, direction FROM products WHERE code IN ('AGILE-OUTGOING-19-05-13', 'AGILE-18-02-21') ORDER BY code`);
    expect(products).toEqual([{ code: 'AGILE-18-02-21', direction: 'IMPORT' }, { code: 'AGILE-OUTGOING-19-05-13', direction: 'EXPORT' }]);
    const rows = await warehouse.all('SELECT epoch_ms(slot_start) AS ms, value_inc_vat AS inc FROM rate_slots WHERE tariff_code = $t ORDER BY 1', { t: OUT });
    expect(rows.length).toBe(series.OUT.length);
    expect(rows.filter((r, i) => r.ms !== series.OUT[i]!.ms || r.inc !== series.OUT[i]!.inc)).toEqual([]);
  });

  it('the highest window is not the cheapest one, and thresholds change the answers', async () => {
    const cheap = await cheapestWindows(warehouse, { tariff: OUT, slots: 4, perDay: true });
    const dear = await cheapestWindows(warehouse, { tariff: OUT, slots: 4, perDay: true, highest: true });
    expect(dear).toHaveLength(cheap.length);
    dear.forEach((row, i) => expect(row.mean_inc_vat).toBeGreaterThan(cheap[i]!.mean_inc_vat));
    // a negative max_price: only J's negative stretches qualify, a handful of days
    const negative = await cheapestWindows(warehouse, { tariff: J, slots: 2, perDay: true, maxPrice: -2 });
    expect(negative.length).toBeGreaterThan(3);
    expect(negative.length).toBeLessThan(40);
    for (const row of negative) expect(row.mean_inc_vat).toBeLessThanOrEqual(-2);
  });

  it.each([
    { data: 'J' as Data, date: '2020-03-29', slots: 46 },
    { data: 'OUT' as Data, date: '2023-03-26', slots: 46 },
    { data: 'OUT' as Data, date: '2023-10-29', slots: 50 },
  ])('$data $date: --at-least with no threshold takes the whole $slots-half-hour day', async ({ data, date, slots }) => {
    expect(halfHoursInDay(date)).toBe(slots);
    const from = new Date(Date.parse(`${date}T00:00:00Z`) - DAY);
    const to = new Date(Date.parse(`${date}T00:00:00Z`) + 2 * DAY);
    for (const highest of [false, true]) {
      const rows = await cheapestWindows(warehouse, { tariff: TARIFF[data], slots: 4, perDay: true, lengthMode: 'at_least', highest, from, to });
      const day = rows.find((r) => r.local_date === date)!;
      expect(day.slots).toBe(slots);
      expect(day.mean_inc_vat).toBeCloseTo(series[data].filter((s) => s.date === date).reduce((a, s) => a + s.inc, 0) / slots, 9);
    }
  });
});

describe('weights: Σ price × weight', () => {
  const cases: WindowOptions[] = [
    { n: 3, weights: [2, 1, 1] },
    { n: 3, weights: [2, 1, 1], highest: true, latest: true },
    { n: 4, weights: [3] },
    { n: 2, weights: [1, 4], max: 10, mode: 'at_most' },
    { n: 3, weights: [0.5, 1, 2], min: 0, mode: 'at_least' },
  ];
  it.each(cases)('per day, per band and over ranges: %j', async (o) => {
    for (const data of ['J', 'OUT'] as Data[]) {
      const days = groupBy(series[data], (s) => s.date);
      const rows = await cheapestWindows(warehouse, { tariff: TARIFF[data], perDay: true, ...requestOf(o) });
      expect(compare(rows, bruteGroups(days, o), (r) => r.local_date!)).toEqual([]);
      const nights = groupBy(series[data].filter((s) => bandOccurrence(s, 1380, 420) !== undefined), (s) => bandOccurrence(s, 1380, 420)!);
      const band = await cheapestWindows(warehouse, { tariff: TARIFF[data], band: { startMinutes: 1380, endMinutes: 420 }, ...requestOf(o) });
      expect(compare(band, bruteGroups(nights, o), (r) => r.local_date!)).toEqual([]);
    }
    const from = Date.parse('2020-10-23T21:00:00Z');
    const to = Date.parse('2020-10-26T05:00:00Z');
    const range = await cheapestWindows(warehouse, { tariff: J, from: new Date(from), to: new Date(to), ...requestOf(o) });
    expect(compare(range, bruteGroups(new Map([['r', inRange(series.J, from, to)]]), o), () => 'r')).toEqual([]);
  });

  it('weights pick other windows than the plain mean on real days', async () => {
    const plain = await cheapestWindows(warehouse, { tariff: J, slots: 3, perDay: true });
    const weighted = await cheapestWindows(warehouse, { tariff: J, slots: 3, perDay: true, weights: [4, 1, 1] });
    expect(weighted.filter((r, i) => r.start !== plain[i]!.start).length).toBeGreaterThan(20);
  });

  it('refuses weights that cannot score a window', async () => {
    await expect(cheapestWindows(warehouse, { tariff: J, slots: 2, weights: [1, 1, 1] })).rejects.toThrow(UsageError);
    await expect(inCliWords(() => cheapestWindows(warehouse, { tariff: J, slots: 2, weights: [0, 1] }))).rejects.toThrow(/--weights/);
    await expect(inCliWords(() => cheapestWindows(warehouse, { tariff: J, slots: 2, minPrice: 5, maxPrice: 1 }))).rejects.toThrow(/--min-price/);
  });
});

describe('bands and ranges: highest × thresholds × lengths', () => {
  it.each(['J', 'OUT'] as Data[])('%s: 23:00-07:00 nights (14 and 18 half-hours on clock-change nights)', async (data) => {
    const nights = groupBy(series[data].filter((s) => bandOccurrence(s, 1380, 420) !== undefined), (s) => bandOccurrence(s, 1380, 420)!);
    for (const highest of [false, true]) {
      for (const mode of MODES) {
        for (const threshold of THRESHOLDS[data].slice(0, 3)) {
          const o: WindowOptions = { n: 6, highest, mode, latest: highest, ...threshold };
          const rows = await cheapestWindows(warehouse, { tariff: TARIFF[data], band: { startMinutes: 1380, endMinutes: 420 }, ...requestOf(o) });
          expect(compare(rows, bruteGroups(nights, o), (r) => r.local_date!), JSON.stringify(o)).toEqual([]);
        }
      }
    }
  });

  it.each(['J', 'OUT'] as Data[])('%s: 3-day ranges starting at odd times, over the clock changes', async (data) => {
    const slots = series[data];
    const ranges: [number, number][] = [];
    for (let from = slots[0]!.ms + 7 * HALF_HOUR; from + 3 * DAY < slots.at(-1)!.ms; from += 23 * DAY + 5 * HALF_HOUR) ranges.push([from, from + 3 * DAY]);
    for (const day of data === 'J' ? ['2020-03-28', '2020-10-24'] : ['2023-03-25', '2023-10-28']) ranges.push([Date.parse(`${day}T20:00:00Z`), Date.parse(`${day}T20:00:00Z`) + DAY]);
    let checked = 0;
    for (const [from, to] of ranges) {
      for (const o of [
        { n: 4, highest: true }, { n: 4, highest: true, latest: true, ...THRESHOLDS[data][3] },
        { n: 5, mode: 'at_least' as const, ...THRESHOLDS[data][2] }, { n: 8, mode: 'at_most' as const, ...THRESHOLDS[data][1] },
      ] as WindowOptions[]) {
        const rows = await cheapestWindows(warehouse, { tariff: TARIFF[data], from: new Date(from), to: new Date(to), ...requestOf(o) });
        expect(compare(rows, bruteGroups(new Map([['r', inRange(slots, from, to)]]), o), () => 'r'), `${utcIso(from)} ${JSON.stringify(o)}`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });
});

describe('SQL first: the macros as an analyst calls them', () => {
  it('cheapest_window, cheapest_window_per_day and cheapest_window_in_band answer as price_windows, weights and NULL n_slots included', async () => {
    const same = async (named: string, general: string) => {
      const [a, b] = [await warehouse.all(named, { t: J }), await warehouse.all(general, { t: J })];
      expect(a.length).toBeGreaterThan(0);
      expect(b).toEqual(a);
      return a.length;
    };
    const cols = 'tariff_code, payment_method, rate_type, start, "end", local_start, local_end, slots, round(mean_inc_vat, 9) AS m, ' +
      'round(mean_exc_vat, 9) AS e, round(score_inc_vat, 9) AS s';
    const perDay = await same(`SELECT local_date, ${cols} FROM cheapest_window_per_day($t, 3, NULL, NULL, weights := [2.0, 1, 1], highest := true)`,
      `SELECT local_date, ${cols} FROM price_windows($t, NULL, NULL, NULL, per := 'day', weights := [2.0, 1, 1], highest := true)`);
    expect(perDay).toBeGreaterThan(200);
    await same(`SELECT local_date, ${cols} FROM cheapest_window_per_day($t, 4, NULL, NULL, latest := true, max_price := 10, min_price := 0)`,
      `SELECT local_date, ${cols} FROM price_windows($t, 4, NULL, NULL, per := 'day', latest := true, max_price := 10, min_price := 0)`);
    await same(`SELECT local_date, ${cols} FROM cheapest_window_in_band($t, 4, 1380, 420, NULL, NULL, latest := true, min_price := 0)`,
      `SELECT local_date, ${cols} FROM price_windows($t, 4, NULL, NULL, per := 'band', band_start_minutes := 1380, band_end_minutes := 420, latest := true, min_price := 0)`);
    await same(`SELECT ${cols} FROM cheapest_window($t, 6, TIMESTAMPTZ '2020-05-20 00:00:00+00', TIMESTAMPTZ '2020-05-27 00:00:00+00', highest := true, weights := [1.0, 3])`,
      `SELECT ${cols} FROM price_windows($t, 6, TIMESTAMPTZ '2020-05-20 00:00:00+00', TIMESTAMPTZ '2020-05-27 00:00:00+00', highest := true, weights := [1.0, 3])`);
  });
});

describe('slots: highest × thresholds × counts against brute force', () => {
  it.each(['J', 'OUT'] as Data[])('%s: 2-day ranges', async (data) => {
    const slots = series[data];
    let checked = 0;
    let empty = 0;
    for (let from = slots[0]!.ms + 3 * HALF_HOUR; from + 2 * DAY < slots.at(-1)!.ms; from += 53 * DAY) {
      const to = from + 2 * DAY;
      for (const highest of [false, true]) {
        for (const mode of MODES) {
          for (const threshold of THRESHOLDS[data]) {
            const o = { n: 6, highest, mode, latest: mode === 'at_most', ...threshold };
            const rows = await cheapestSlots(warehouse, {
              tariff: TARIFF[data], count: 6, from: new Date(from), to: new Date(to), highest, lengthMode: mode, latest: o.latest,
              ...(o.min === undefined ? {} : { minPrice: o.min }), ...(o.max === undefined ? {} : { maxPrice: o.max }),
            });
            const expected = bruteSlots(inRange(slots, from, to), o);
            expect(rows.map((r) => [r.start, r.value_inc_vat, r.local_start]), JSON.stringify(o))
              .toEqual(expected.map((s) => [utcIso(s.ms), s.inc, localIso(s.ms)]));
            if (rows.length === 0) empty++;
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(80);
    expect(empty).toBeGreaterThan(0);
  });

  it('asking for 2 half-hours of a range holding one priced half-hour gets none, unless --at-most', async () => {
    const last = series.J.at(-1)!.ms;
    const range = { tariff: J, count: 2, from: new Date(last), to: new Date(last + 4 * HALF_HOUR) };
    expect(await cheapestSlots(warehouse, range)).toEqual([]);
    expect((await cheapestSlots(warehouse, { ...range, lengthMode: 'at_most' })).map((r) => r.start)).toEqual([utcIso(last)]);
    expect(await cheapestWindows(warehouse, { tariff: J, slots: 2, from: range.from, to: range.to })).toEqual([]);
  });
});

describe('range_coverage: how much of a range is priced', () => {
  it('counts expected, priced and missing half-hours like a brute force, open ends closed by the data', async () => {
    const cases: [number | undefined, number | undefined][] = [
      [Date.parse('2020-05-24T00:00:00Z'), Date.parse('2020-05-25T00:00:00Z')], // the gap
      [Date.parse('2020-10-24T23:00:00Z'), Date.parse('2020-10-26T00:00:00Z')], // 50-half-hour day, one deleted
      [Date.parse('2020-03-28T10:10:00Z'), Date.parse('2020-03-30T00:00:00Z')], // unaligned start
      [J_TO - DAY - 60_000, J_TO + DAY], // beyond the data: tomorrow not published
      [undefined, undefined],
    ];
    for (const [from, to] of cases) {
      const [row] = await rangeCoverage(warehouse, { tariff: J, ...(from === undefined ? {} : { from: new Date(from) }), ...(to === undefined ? {} : { to: new Date(to) }) });
      const start = from ?? series.J[0]!.ms;
      const end = to ?? series.J.at(-1)!.ms + HALF_HOUR;
      let expected = 0;
      for (let t = Math.ceil(start / HALF_HOUR) * HALF_HOUR; t + HALF_HOUR <= end; t += HALF_HOUR) expected++;
      const priced = inRange(series.J, start, end);
      expect(row).toMatchObject({
        expected_slots: expected, priced_slots: priced.length, missing_slots: expected - priced.length,
        complete: expected === priced.length, min_inc_vat: Math.min(...priced.map((s) => s.inc)), max_inc_vat: Math.max(...priced.map((s) => s.inc)),
      });
    }
  });
});

describe('rolling from now', () => {
  it.each([
    ['2024-05-13T16:10:00Z', 0, '2024-05-13T16:00:00Z'],
    ['2024-05-13T16:10:00Z', 20, '2024-05-13T16:00:00Z'],
    ['2024-05-13T16:10:00Z', 21, '2024-05-13T16:30:00Z'],
    ['2024-05-13T16:30:00Z', 30, '2024-05-13T16:30:00Z'],
    ['2024-05-13T16:59:59Z', 1, '2024-05-13T17:00:00Z'],
    // fall-back night: the second 01:30 local is 01:30Z
    ['2020-10-25T01:45:00Z', 16, '2020-10-25T02:00:00Z'],
  ])('now %s, --min-remaining %i: starts at %s', (now, minutes, start) => {
    expect(rollingStart(new Date(now), minutes).toISOString()).toBe(new Date(start).toISOString());
  });

  it('rejects a --min-remaining outside 0-30', () => {
    expect(() => inCliWords(() => rollingStart(new Date(), 31))).toThrow(/--min-remaining/);
  });
});

describe('is it now? (--check)', () => {
  it('in_window exactly when now lies in the brute-force window of its local day; next is the following one', async () => {
    const days = groupBy(series.J, (s) => s.date);
    const o: WindowOptions = { n: 4 };
    const samples = ['2020-05-24', '2020-10-25', '2020-03-29', '2020-07-01'];
    let inside = 0;
    for (const date of samples) {
      const best = bestGeneralWindow(days.get(date)!, o)!;
      for (const offset of [-HALF_HOUR, 0, HALF_HOUR + 60_000, 4 * HALF_HOUR - 1, 4 * HALF_HOUR]) {
        const now = best.startMs + offset;
        const result = await checkWindow(warehouse, { tariff: J, slots: 4, now: new Date(now) });
        const own = bestGeneralWindow(days.get(localDate(now))!, o)!;
        const want = now >= own.startMs && now < own.startMs + 4 * HALF_HOUR;
        expect(result.in_window, `${date} ${utcIso(now)}`).toBe(want);
        if (localDate(now) !== date) continue;
        expect(result.today?.start).toBe(utcIso(best.startMs));
        const window = days.get(date)!.filter((s) => s.ms >= best.startMs && s.ms < best.startMs + 4 * HALF_HOUR).map((s) => s.inc);
        expect([result.today!.min_inc_vat, result.today!.max_inc_vat]).toEqual([Math.min(...window), Math.max(...window)]);
        if (want) {
          inside++;
          expect(result.current?.start).toBe(utcIso(best.startMs));
          // the next local date (not now + 24 h: the fall-back day lasts 25)
          const tomorrow = bestGeneralWindow(days.get(new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10))!, o)!;
          expect(result.next?.start).toBe(utcIso(tomorrow.startMs));
        } else if (now < best.startMs) {
          expect(result.next?.start).toBe(utcIso(best.startMs));
        }
      }
    }
    expect(inside).toBeGreaterThanOrEqual(samples.length * 3);
  });
});

describe('the CLI (built, in dist/)', () => {
  const last = utcIso(Date.parse('2020-11-04T23:30:00Z'));
  const runs = {
    highest: ['cheapest', '--tariff', OUT, '--duration', '2h', '--highest', '--from', '2023-10-28', '--to', '2023-10-30', '--per-day', '--format', 'json'],
    weights: ['cheapest', '--tariff', J, '--weights', '2,1,1', '--from', '2020-03-28', '--to', '2020-03-30', '--per-day', '--format', 'json'],
    atLeast: ['cheapest', '--tariff', J, '--duration', '1h', '--max-price', '-1', '--at-least', '--from', '2020-05-23', '--to', '2020-05-24', '--format', 'json'],
    slotsHighest: ['slots', '--tariff', OUT, '--count', '3', '--highest', '--min-price', '10', '--from', '2023-03-26', '--to', '2023-03-27', '--format', 'json'],
    partly: ['slots', '--tariff', J, '--count', '2', '--from', last, '--to', '2020-11-06', '--format', 'json'],
    partlyAtMost: ['slots', '--tariff', J, '--count', '2', '--from', last, '--to', '2020-11-06', '--at-most', '--format', 'json'],
    refuse: ['cheapest', '--tariff', J, '--duration', '1h', '--from', '2020-05-24', '--to', '2020-05-25', '--complete', '--format', 'json'],
    rolling: ['cheapest', '--tariff', J, '--duration', '1h', '--now', '2020-11-04T20:10:00Z', '--min-remaining', '25', '--format', 'json'],
    rollingNow: ['cheapest', '--tariff', J, '--duration', '1h', '--from', 'now', '--now', '2020-11-04T20:10:00Z', '--format', 'json'],
    checkIn: ['cheapest', '--tariff', J, '--duration', '2h', '--per-day', '--check', '--now', '', '--format', 'json'],
    checkOut: ['cheapest', '--tariff', J, '--duration', '2h', '--per-day', '--check', '--now', '', '--format', 'csv'],
    checkNoPerDay: ['cheapest', '--tariff', J, '--duration', '2h', '--check'],
    bothModes: ['slots', '--tariff', J, '--count', '2', '--at-least', '--at-most'],
    badWeights: ['cheapest', '--tariff', J, '--weights', '2,,1'],
    noDuration: ['cheapest', '--tariff', J],
  };
  let result = {} as Record<keyof typeof runs, CliResult>;
  let checkWindowStart = 0;

  beforeAll(async () => {
    const day = bestGeneralWindow(series.J.filter((s) => s.date === '2020-05-24'), { n: 4 })!;
    checkWindowStart = day.startMs;
    runs.checkIn[runs.checkIn.indexOf('--now') + 1] = utcIso(day.startMs + 10 * 60_000);
    runs.checkOut[runs.checkOut.indexOf('--now') + 1] = utcIso(day.startMs + 4 * HALF_HOUR);
    result = await runCliCases(runs, ['--db', db]);
  }, 120_000);

  const json = (name: keyof typeof runs) => {
    expect(result[name].stderr).toBe('');
    expect(result[name].code).toBe(0);
    return JSON.parse(result[name].stdout) as Record<string, unknown>[];
  };

  it('--highest on the export tariff: the dearest 2 hours of each day, the fall-back day included', () => {
    const rows = json('highest');
    const days = groupBy(series.OUT, (s) => s.date);
    expect(rows.map((r) => [r.local_date, r.start, r.slots, r.complete])).toEqual(['2023-10-28', '2023-10-29'].map((d) => {
      const best = bestGeneralWindow(days.get(d)!, { n: 4, highest: true })!;
      return [d, utcIso(best.startMs), 4, true];
    }));
  });

  it('--weights without --duration: one half-hour per weight, score_inc_vat the weighted mean', () => {
    const rows = json('weights');
    const days = groupBy(series.J, (s) => s.date);
    expect(rows.map((r) => [r.start, r.slots])).toEqual(['2020-03-28', '2020-03-29'].map((d) => {
      const best = bestGeneralWindow(days.get(d)!, { n: 3, weights: [2, 1, 1] })!;
      return [utcIso(best.startMs), 3];
    }));
    // the CLI prints prices rounded in SQL to 4 decimals, as the exports do
    const score = bestGeneralWindow(days.get('2020-03-29')!, { n: 3, weights: [2, 1, 1] })!.score;
    expect(Math.abs(rows[1]!.score_inc_vat as number - score)).toBeLessThanOrEqual(0.00005 + 1e-12);
  });

  it('--max-price -1 --at-least: the whole negative run holding the best hour', () => {
    const rows = json('atLeast');
    const best = bestGeneralWindow(inRange(series.J, Date.parse('2020-05-22T23:00:00Z'), Date.parse('2020-05-23T23:00:00Z')), { n: 2, max: -1, mode: 'at_least' })!;
    expect(best.slots).toBeGreaterThan(2);
    expect(rows.map((r) => [r.start, r.slots])).toEqual([[utcIso(best.startMs), best.slots]]);
  });

  it('slots --highest --min-price on the spring-forward day', () => {
    const rows = json('slotsHighest');
    const day = inRange(series.OUT, Date.parse('2023-03-26T00:00:00Z'), Date.parse('2023-03-26T23:00:00Z'));
    expect(rows.map((r) => r.start)).toEqual(bruteSlots(day, { n: 3, highest: true, min: 10 }).map((s) => utcIso(s.ms)));
  });

  it('a partly priced range: a warning naming how many are missing, complete false, never fewer than asked', () => {
    expect(result.partly.code).toBe(0);
    expect(JSON.parse(result.partly.stdout)).toEqual([]);
    expect(result.partly.stderr).toMatch(/warning: E-1R-AGILE-18-02-21-J has no price for 48 of the 49 half-hours/);
    expect(result.partlyAtMost.code).toBe(0);
    expect(JSON.parse(result.partlyAtMost.stdout)).toEqual([expect.objectContaining({ start: last, complete: false })]);
    expect(result.atLeast.stderr).toBe('');
  });

  it('--complete refuses a range with missing half-hours: exit 1, nothing on stdout', () => {
    expect(result.refuse.code).toBe(1);
    expect(result.refuse.stdout).toBe('');
    expect(result.refuse.stderr).toMatch(/no price for 2 of the 48 half-hours .*--complete/);
  });

  it('--now and --min-remaining: the range starts at the next half-hour when too little is left', () => {
    const from = (ms: number) => bestGeneralWindow(inRange(series.J, ms, J_TO), { n: 2 })!;
    expect(json('rolling').map((r) => r.start)).toEqual([utcIso(from(Date.parse('2020-11-04T20:30:00Z')).startMs)]);
    expect(json('rollingNow').map((r) => r.start)).toEqual([utcIso(from(Date.parse('2020-11-04T20:00:00Z')).startMs)]);
  });

  it('--check: exit 0 inside today\'s window, 3 outside, JSON with today, current and next', () => {
    expect(result.checkIn.code).toBe(0);
    const check = JSON.parse(result.checkIn.stdout) as { in_window: boolean; current: { start: string; min_inc_vat: number }; next: { local_date: string } };
    expect(check.in_window).toBe(true);
    expect(check.current.start).toBe(utcIso(checkWindowStart));
    expect(check.next.local_date).toBe('2020-05-25');
    expect(result.checkOut.code).toBe(3);
    expect(result.checkOut.stdout.split('\n')[0]).toContain('in_window');
    expect(result.checkOut.stdout).toContain(utcIso(checkWindowStart));
  });

  it('bad usage exits 2 naming the flag', () => {
    expect(result.checkNoPerDay).toMatchObject({ code: 2 });
    expect(result.checkNoPerDay.stderr).toContain('--per-day');
    expect(result.bothModes.stderr).toContain('--at-least and --at-most');
    expect(result.badWeights.stderr).toContain('--weights');
    expect(result.noDuration.stderr).toContain('--duration');
    for (const name of ['bothModes', 'badWeights', 'noDuration'] as const) expect(result[name].code).toBe(2);
  });
});
