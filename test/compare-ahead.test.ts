// "Which tariff from here" (issue 55): expected_use, tariffs_on_sale and compare_ahead against a
// plain TypeScript loop over the same readings and prices (test/helpers/aheadBruteForce.ts), on a
// warehouse of region J meters across 2023's clock changes (test/helpers/aheadWarehouse.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Warehouse } from '../src/store/Warehouse.js';
import { addDays, aheadCosts, expectedUse, halfHoursOf, horizonDays, londonInstant, seasonalScale, type BruteRow } from './helpers/aheadBruteForce.js';
import {
  AGILE, EXPORT, FIX, GAS, GAS_FIX, GAS_VAR, GO, IMPORT, OTHER_REGION, OUT_AGILE, OUT_FIX, SHORT, VAR, WEEKDAYS_ONLY, WITHDRAWN,
  buildAheadWarehouse, type AheadFixture,
} from './helpers/aheadWarehouse.js';
import { runCli } from './helpers/runCli.js';

type Row = Record<string, unknown>;
let dir = '';
let fx: AheadFixture;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tariffs-ahead-'));
  fx = await buildAheadWarehouse(dir);
}, 120_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function query(sql: string, params: Record<string, string | null> = {}): Promise<Row[]> {
  const w = await Warehouse.open(fx.db, { readOnly: true });
  try {
    return await w.all(sql, params);
  } finally {
    w.close();
  }
}
const hhmm = (micros: unknown) => {
  const minutes = Number(micros) / 60_000_000;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
};
const close = (a: unknown, b: number | null, tol = 1e-6) => {
  if (b === null) expect(a).toBeNull();
  else expect(Math.abs(Number(a) - b), `${String(a)} vs ${b}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));
};

describe('expected_use: the rule, against the brute force', () => {
  // as of the eve of each clock change (the day ahead is it), and a fortnight later (it is history);
  // the last one also holds the incomplete Tuesday 2023-10-17
  const cases: [string, string, string][] = [
    ['spring-forward day ahead', '2023-03-25T17:00:00Z', '2023-03-26'],
    ['spring-forward day in history', '2023-04-09T12:00:00+01:00', '2023-04-10'],
    ['fall-back day ahead', '2023-10-28T17:00:00+01:00', '2023-10-29'],
    ['fall-back day in history', '2023-11-08T12:00:00Z', '2023-11-09'],
  ];
  it.each(cases)('%s', async (_name, asOf, asked) => {
    const rows = await query('SELECT * FROM expected_use($meter, CAST($asOf AS TIMESTAMPTZ))', { meter: IMPORT, asOf });
    const brute = expectedUse(fx.readings[IMPORT]!, Date.parse(asOf));
    expect(rows).toHaveLength(96);
    expect(new Set(rows.map((r) => r.asked_day))).toEqual(new Set([asked]));
    for (const r of rows) {
      const key = `${String(r.day_type)}|${hhmm(r.local_time)}`;
      close(r.kwh, brute.kwh.get(key) ?? null, 1e-9);
      expect([key, r.readings, r.days]).toEqual([key, brute.readings.get(key) ?? 0, brute.days[r.day_type as 'weekday' | 'weekend']]);
    }
    expect(brute.days.weekday + brute.days.weekend).toBeGreaterThanOrEqual(26);
  });

  it('counts a fall-back day twice at 01:00 and 01:30, a spring-forward day not at all', async () => {
    const rows = await query(`SELECT day_type, left(CAST(local_time AS VARCHAR), 5) AS t, readings, days
      FROM expected_use($meter, TIMESTAMPTZ '2023-11-08 12:00:00+00') WHERE day_type = 'weekend' AND local_time IN ('00:30', '01:00', '01:30', '02:00')`, { meter: IMPORT });
    const days = Number(rows[0]!.days);
    expect(rows.map((r) => [r.t, Number(r.readings)])).toEqual([['00:30', days], ['01:00', days + 1], ['01:30', days + 1], ['02:00', days]]);
    const spring = await query(`SELECT left(CAST(local_time AS VARCHAR), 5) AS t, readings, days
      FROM expected_use($meter, TIMESTAMPTZ '2023-04-09 11:00:00+00') WHERE day_type = 'weekend' AND local_time IN ('00:30', '01:00', '02:00')`, { meter: IMPORT });
    const sdays = Number(spring[0]!.days);
    expect(spring.map((r) => [r.t, Number(r.readings)])).toEqual([['00:30', sdays], ['01:00', sdays - 1], ['02:00', sdays]]);
  });

  it('skips an incomplete day and reads only what ended by as_of', async () => {
    const brute = expectedUse(fx.readings[IMPORT]!, Date.parse('2023-10-20T12:00:00+01:00'));
    const rows = await query("SELECT DISTINCT day_type, days FROM expected_use($meter, TIMESTAMPTZ '2023-10-20 12:00:00+01')", { meter: IMPORT });
    // 28 days before 2023-10-21: 20 weekdays less the 17th (two half-hours unread) and the 20th (not over by as_of)
    expect(brute.days).toEqual({ weekday: 18, weekend: 8 });
    expect(Object.fromEntries(rows.map((r) => [r.day_type, Number(r.days)]))).toEqual(brute.days);
  });
});

describe('tariffs_on_sale', () => {
  it('the meter\'s fuel, direction and region, on sale then, not business', async () => {
    const codes = async (meter: string, asOf: string) => (await query('SELECT tariff_code FROM tariffs_on_sale($meter, CAST($asOf AS TIMESTAMPTZ))', { meter, asOf })).map((r) => r.tariff_code);
    expect(await codes(IMPORT, '2023-10-28T16:00:00Z')).toEqual([AGILE, FIX, GO, VAR].sort());
    expect(await codes(IMPORT, '2023-05-01T00:00:00Z')).toEqual([AGILE, FIX, GO, VAR, WITHDRAWN].sort());
    expect(await codes(EXPORT, '2023-10-28T16:00:00Z')).toEqual([OUT_AGILE, OUT_FIX].sort());
    expect(await codes(GAS, '2023-10-28T16:00:00Z')).toEqual([GAS_FIX, GAS_VAR].sort());
    const other = await query("SELECT tariff_code FROM tariffs_on_sale($meter, TIMESTAMPTZ '2023-10-28 16:00:00+00', region := 'A')", { meter: IMPORT });
    expect(other.map((r) => r.tariff_code)).toEqual([OTHER_REGION]);
  });
});

function bruteFor(meter: string, asOf: string, horizon: 'tomorrow' | '7d' | '30d' | '12m', codes: string[], exporting = false): BruteRow[] {
  const profile = expectedUse(fx.readings[meter]!, Date.parse(asOf));
  const days = horizonDays(Date.parse(asOf), horizon);
  const seasons = horizon === '12m' ? seasonalScale(fx.readings[meter]!, Date.parse(asOf)) : null;
  const scale = (d: string) => (seasons && d >= addDays(days[0]!, 30) ? seasons.get(Number(d.slice(5, 7))) ?? 1 : 1);
  return aheadCosts(profile, codes.map((c) => fx.tariffs[c]!), Date.parse(asOf), days, exporting, scale);
}
async function ahead(meter: string, asOf: string, horizon: string, tariffs: string[] | null = null): Promise<Row[]> {
  return query(`SELECT * FROM compare_ahead($meter, CAST($asOf AS TIMESTAMPTZ), $horizon,
    tariffs := CAST($tariffs AS VARCHAR[]))`, { meter, asOf, horizon, tariffs: tariffs === null ? null : JSON.stringify(tariffs) });
}
function expectSame(rows: Row[], brute: BruteRow[], tol = 1e-6): void {
  expect(rows.map((r) => r.tariff_code).sort()).toEqual(brute.map((b) => b.tariff_code).sort());
  for (const b of brute) {
    const r = rows.find((x) => x.tariff_code === b.tariff_code)!;
    expect([b.tariff_code, Number(r.half_hours), Number(r.missing_half_hours), r.rank === null ? null : Number(r.rank)])
      .toEqual([b.tariff_code, b.half_hours, b.missing_half_hours, b.rank]);
    close(r.expected_kwh, b.expected_kwh, tol);
    close(r.energy_inc_vat, b.energy_inc_vat, tol);
    close(r.standing_charge_inc_vat, b.standing_charge_inc_vat, tol);
    close(r.total_inc_vat, b.total_inc_vat, tol);
    close(r.published_share, b.published_share, tol);
  }
}

describe('compare_ahead against the brute force', () => {
  it('tomorrow, the fall-back day, with Agile published at 16:00 the day before', async () => {
    const asOf = '2023-10-28T17:00:00+01:00';
    const rows = await ahead(IMPORT, asOf, 'tomorrow');
    expectSame(rows, bruteFor(IMPORT, asOf, 'tomorrow', [AGILE, FIX, GO, VAR]));
    const agile = rows.find((r) => r.tariff_code === AGILE)!;
    // every half-hour's price published; its standing charge (a variable product's open-ended one) estimated
    expect(Number(agile.half_hours)).toBe(50);
    expect(Number(agile.published_share)).toBeGreaterThan(0.85);
    expect(Number(agile.published_share)).toBeLessThan(1);
    expect(rows.find((r) => r.tariff_code === FIX)!.published_share).toBe(1);
    expect(rows.find((r) => r.tariff_code === FIX)!.is_current).toBe(true);
    expect(rows.filter((r) => r.is_current === true)).toHaveLength(1);
    // before 16:00 nothing of the 29th is published: Agile's day is its 28-day mean per wall-clock time
    const early = await ahead(IMPORT, '2023-10-28T15:30:00+01:00', 'tomorrow');
    expectSame(early, bruteFor(IMPORT, '2023-10-28T15:30:00+01:00', 'tomorrow', [AGILE, FIX, GO, VAR]));
    // nothing of Agile's day is published yet (its standing charge, open-ended on a variable product, is an estimate too)
    expect(early.find((r) => r.tariff_code === AGILE)!.published_share).toBe(0);
    expect(early.find((r) => r.tariff_code === FIX)!.published_share).toBe(1);
  });

  it('tomorrow, the spring-forward day (46 half-hours)', async () => {
    const asOf = '2023-03-25T18:00:00Z';
    const rows = await ahead(IMPORT, asOf, 'tomorrow');
    expectSame(rows, bruteFor(IMPORT, asOf, 'tomorrow', [AGILE, FIX, GO, VAR, WITHDRAWN]));
    expect(rows.every((r) => Number(r.half_hours) === 46)).toBe(true);
  });

  it('30 days: the fixed tariff\'s standing charge changes inside the horizon; the two-rate tariff is estimated past its last stored day', async () => {
    const asOf = '2023-09-20T12:00:00+01:00';
    const rows = await ahead(IMPORT, asOf, '30d');
    const brute = bruteFor(IMPORT, asOf, '30d', [AGILE, FIX, GO, VAR]);
    expectSame(rows, brute);
    const fix = rows.find((r) => r.tariff_code === FIX)!;
    // 10 days at 45p, 20 at 52p; every price of a fixed product published
    close(fix.standing_charge_inc_vat, 10 * 45 + 20 * 52);
    expect(fix.published_share).toBe(1);
    const go = await ahead(IMPORT, '2023-10-25T12:00:00+01:00', '30d', [GO]);
    expectSame(go, bruteFor(IMPORT, '2023-10-25T12:00:00+01:00', '30d', [GO, FIX]));
  });

  it('7 days and 12 months, naming tariffs; 12m scales by the seasonal shape where a year of history exists', async () => {
    for (const horizon of ['7d', '12m'] as const) {
      const asOf = '2023-10-10T20:00:00+01:00';
      const rows = await ahead(IMPORT, asOf, horizon, [AGILE, GO]);
      expectSame(rows, bruteFor(IMPORT, asOf, horizon, [AGILE, GO, FIX]));
    }
    const seasons = seasonalScale(fx.readings[IMPORT]!, Date.parse('2023-10-10T20:00:00+01:00'))!;
    expect(seasons.get(1)! / seasons.get(7)!).toBeGreaterThan(1.3); // winter over summer
    const scales = await query("SELECT month, scale FROM seasonal_scale($meter, TIMESTAMPTZ '2023-10-10 20:00:00+01')", { meter: IMPORT });
    expect(scales).toHaveLength(12);
    for (const s of scales) close(s.scale, seasons.get(Number(s.month))!, 1e-9);
    // less than a year (the export meter's history starts the same day, but as of March 2023): flat
    expect(await query("SELECT * FROM seasonal_scale($meter, TIMESTAMPTZ '2023-03-10 20:00:00+00')", { meter: IMPORT })).toEqual([]);
    expect(seasonalScale(fx.readings[IMPORT]!, Date.parse('2023-03-10T20:00:00Z'))).toBeNull();
  });

  it('gas', async () => {
    const asOf = '2023-10-28T17:00:00+01:00';
    const rows = await ahead(GAS, asOf, '7d');
    expectSame(rows, bruteFor(GAS, asOf, '7d', [GAS_FIX, GAS_VAR]));
    expect(rows.find((r) => r.tariff_code === GAS_VAR)!.is_current).toBe(true);
  });

  it('an export meter: rank 1 pays most', async () => {
    const asOf = '2023-10-28T17:00:00+01:00';
    const rows = await ahead(EXPORT, asOf, 'tomorrow');
    const brute = bruteFor(EXPORT, asOf, 'tomorrow', [OUT_AGILE, OUT_FIX], true);
    expectSame(rows, brute);
    const first = rows.find((r) => Number(r.rank) === 1)!;
    expect(Number(first.total_inc_vat)).toBeGreaterThan(Number(rows.find((r) => Number(r.rank) === 2)!.total_inc_vat));
  });

  it('fewer than 28 days: the days there are; a day type with none has no expected use, no total', async () => {
    const asOf = '2023-10-23T09:00:00+01:00';
    const rows = await ahead(SHORT, asOf, '7d');
    expectSame(rows, bruteFor(SHORT, asOf, '7d', [AGILE, FIX, GO, VAR]));
    expect([Number(rows[0]!.weekdays), Number(rows[0]!.weekend_days)]).toEqual([6, 4]);
    const none = await ahead(WEEKDAYS_ONLY, '2023-10-26T23:30:00+01:00', '7d');
    expect(none.every((r) => r.total_inc_vat === null && r.rank === null && Number(r.missing_half_hours) === 98)).toBe(true);
    const friday = await ahead(WEEKDAYS_ONLY, '2023-10-26T23:30:00+01:00', 'tomorrow');
    expectSame(friday, bruteFor(WEEKDAYS_ONLY, '2023-10-26T23:30:00+01:00', 'tomorrow', [AGILE, FIX, GO, VAR]));
    expect(halfHoursOf('2023-10-27')).toHaveLength(48);
  });
});

describe('tariffs compare --ahead (the built CLI)', () => {
  it('prints compare_ahead\'s rows, rounded; --help names the rule; refusals name why', async () => {
    const asOf = '2023-10-28T17:00:00+01:00';
    const [cli, help, refused, usage, allMeters] = await Promise.all([
      runCli(['compare', '--meter', IMPORT, '--ahead', 'tomorrow', '--as-of', asOf, '--db', fx.db, '--format', 'json']),
      runCli(['compare', '--help']),
      runCli(['compare', '--meter', WEEKDAYS_ONLY, '--ahead', '7d', '--as-of', '2023-10-26T23:30:00+01:00', '--db', fx.db, '--format', 'json']),
      runCli(['compare', '--meter', IMPORT, '--as-of', asOf, '--tariff', FIX, '--db', fx.db]),
      runCli(['compare', '--all-meters', '--ahead', '7d', '--as-of', '2023-10-26T23:30:00+01:00', '--db', fx.db, '--format', 'json']),
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    const rows = JSON.parse(cli.stdout) as Row[];
    expectSame(rows, bruteFor(IMPORT, asOf, 'tomorrow', [AGILE, FIX, GO, VAR]), 1e-4); // 4 decimals
    expect(rows.map((r) => Number(r.rank))).toEqual([1, 2, 3, 4]);
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(['tariff_code', 'is_current', 'expected_kwh', 'energy_inc_vat',
      'standing_charge_inc_vat', 'total_inc_vat', 'published_share', 'rank']));
    expect(help.stdout).toContain('expected_use(meter, as_of)');
    expect(help.stdout).toContain('--ahead <horizon>');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`meter ${WEEKDAYS_ONLY} has no complete weekend day`);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--as-of and --region go with --ahead');
    expect(allMeters.code, allMeters.stderr).toBe(0);
    expect(allMeters.stderr).toContain(`left out: meter ${WEEKDAYS_ONLY}`);
    expect(new Set((JSON.parse(allMeters.stdout) as Row[]).map((r) => r.meter_point))).toEqual(new Set([IMPORT, EXPORT, GAS, SHORT]));
  }, 120_000);
});

describe('compare --ahead --backtest against the brute force', () => {
  it('each day predicted as of 17:00 on its eve, priced as it came: MAPE and the cheapest hit rate', async () => {
    const tariffs = [AGILE, GO];
    const run = await runCli(['compare', '--meter', IMPORT, '--ahead', 'tomorrow', '--backtest', '--from', '2023-10-20', '--to', '2023-10-31',
      ...tariffs.flatMap((t) => ['--tariff', t]), '--db', fx.db, '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const rows = JSON.parse(run.stdout) as Row[];
    // the brute force: each day's prediction and what it cost
    const codes = [...tariffs, FIX];
    const errors = new Map<string, number[]>(codes.map((c) => [c, []]));
    let hits = 0;
    let days = 0;
    for (let d = '2023-10-20'; d < '2023-10-31'; d = addDays(d, 1)) {
      const asOf = londonInstant(addDays(d, -1), '17:00');
      const predicted = bruteFor(IMPORT, new Date(asOf).toISOString(), 'tomorrow', codes);
      const actual = new Map<string, number>();
      for (const code of codes) {
        const t = fx.tariffs[code]!;
        let total = 0;
        for (const ms of halfHoursOf(d)) {
          const rate = t.rates.filter((r) => r.from <= ms && (r.to === null || ms < r.to)).sort((a, b) => b.from - a.from)[0]!;
          total += fx.readings[IMPORT]!.get(ms)! * rate.inc;
        }
        const start = halfHoursOf(d)[0]!;
        total += t.standing.filter((r) => r.from <= start && (r.to === null || start < r.to))[0]?.inc ?? 0;
        actual.set(code, total);
        const p = predicted.find((r) => r.tariff_code === code)!.total_inc_vat!;
        errors.get(code)!.push(Math.abs(p - total) / Math.abs(total));
      }
      const pBest = [...predicted].sort((a, b) => a.total_inc_vat! - b.total_inc_vat!)[0]!.tariff_code;
      const aBest = [...actual.entries()].sort((a, b) => a[1] - b[1])[0]![0];
      days++;
      if (pBest === aBest) hits++;
    }
    expect(rows.map((r) => r.tariff_code)).toEqual(codes.sort());
    for (const r of rows) {
      const e = errors.get(String(r.tariff_code))!;
      expect([r.tariff_code, r.periods, r.ranked_periods]).toEqual([r.tariff_code, e.length, days]);
      close(r.mape_total, e.reduce((n, x) => n + x, 0) / e.length, 1e-6);
      close(r.first_hit_rate, hits / days, 1e-9);
    }
    expect(days).toBe(11);
  }, 300_000);
});
