// Every meter at once (portfolio_daily_costs, portfolio_comparison; `cost|compare --all-meters`)
// against a brute force in TypeScript over real prices (Agile J with negatives, the Flexible long
// rates, Agile Outgoing C, the VAR-22-11-01 standing charges) and four meters: an import meter
// switching tariff, one whose readings stop before the range ends, an export and a gas meter.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitRate } from '../src/api/schemas.js';
import { portfolioCosts } from '../src/analytics/portfolioCosts.js';
import { importConsumptionFile } from '../src/ingest/importConsumptionFile.js';
import { householdReading } from '../src/sandbox/householdProfile.js';
import { startRun } from '../src/store/ingestRuns.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { prepareStaging, stagedRates, writeRateBatch, type RateKind } from '../src/store/writeRates.js';
import { replaceAgreements, upsertMeterPoint } from '../src/store/writeConsumption.js';
import { runCli } from './helpers/runCli.js';

const SANDBOX = new URL('../data/sandbox/', import.meta.url);
const HH = 1_800_000;
const AGILE = 'E-1R-AGILE-18-02-21-J';
const FLEX = 'E-1R-VAR-17-01-11-A';
const OUTGOING = 'E-1R-AGILE-OUTGOING-19-05-13-C';
const GAS_TARIFF = 'G-1R-TEST-23-01-01-J';
const A = '1200000000001'; // import: Agile, then Flexible
const B = '1200000000002'; // import on Agile, readings stop on 2023-11-02
const X = '1200000000003'; // export on Agile Outgoing
const G = '3200000001'; // gas
// Local midnights 2023-10-20 (BST) to 2023-11-06 (GMT): the fall-back day has 50 half-hours.
const FROM_MS = Date.parse('2023-10-19T23:00:00Z');
const TO_MS = Date.parse('2023-11-06T00:00:00Z');
const SWITCH_MS = Date.parse('2023-10-25T12:00:00Z'); // mid-day: the day keeps its start's tariff's charge
const B_STOPS_MS = Date.parse('2023-11-02T00:00:00Z');
const MISSING_PRICE_MS = Date.parse('2023-10-22T12:00:00Z');

const series = (file: string, header: boolean, column: number) => {
  const out = new Map<number, number>();
  const rows = readFileSync(new URL(file, SANDBOX), 'utf8').split(/\r?\n/).filter((l) => l.trim());
  for (const line of header ? rows.slice(1) : rows) {
    const cells = line.split(',');
    const ms = Date.parse(cells[0]!.replace(' ', 'T'));
    if (ms >= FROM_MS - 86_400_000 && ms < TO_MS + 86_400_000) out.set(ms, Number(cells[column]));
  }
  return out;
};
const agile = series('wyvernp-agile_predictor/csv_agile_J_South_Eastern_England.csv', true, 1);
agile.delete(MISSING_PRICE_MS);
const outgoing = series('hramzan01-project_market/csv_agileoutgoing_C_London.csv', false, 4);
const results = (file: string) => (JSON.parse(readFileSync(new URL(file, SANDBOX), 'utf8')) as { results: UnitRate[] }).results;
const flexRates = results('domdfcoding-octo-api/tests_responses/standard_unit_rates.json');
const standing = results('ryanw-mobile-OctoMeter/extracted_from_kotlin_test_samples/GetStandingChargesSampleData__var221101Json.json');
const gasRate: UnitRate[] = [{ valid_from: '2023-01-01T00:00:00Z', valid_to: null, value_inc_vat: 6.93, value_exc_vat: 6.6, payment_method: null }];
const gasStanding: UnitRate[] = [{ valid_from: '2023-01-01T00:00:00Z', valid_to: null, value_inc_vat: 29.11, value_exc_vat: 27.72, payment_method: null }];

const agreements = [
  { mp: A, tariff: AGILE, from: Date.parse('2023-01-01T00:00:00Z'), to: SWITCH_MS },
  { mp: A, tariff: FLEX, from: SWITCH_MS, to: Infinity },
  { mp: B, tariff: AGILE, from: Date.parse('2023-01-01T00:00:00Z'), to: Infinity },
  { mp: X, tariff: OUTGOING, from: Date.parse('2023-01-01T00:00:00Z'), to: Infinity },
  { mp: G, tariff: GAS_TARIFF, from: Date.parse('2023-01-01T00:00:00Z'), to: Infinity },
];
const slots: number[] = [];
for (let ms = FROM_MS; ms < TO_MS; ms += HH) slots.push(ms);
const readings = new Map<string, Map<number, number>>([A, B, X, G].map((mp) => [mp, new Map()]));
for (const ms of slots) {
  readings.get(A)!.set(ms, householdReading('import', ms));
  if (ms < B_STOPS_MS) readings.get(B)!.set(ms, 0.5 * householdReading('import', ms + 7 * 86_400_000));
  readings.get(X)!.set(ms, householdReading('export', ms));
  readings.get(G)!.set(ms, 2 * householdReading('import', ms));
}

// ---- brute force -------------------------------------------------------------------------------
const dateFmt = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
const londonDate = (ms: number) => dateFmt.format(new Date(ms));
const validAt = (rates: UnitRate[], ms: number, payment?: string) => rates.find((r) => (payment === undefined || r.payment_method === payment || r.payment_method === null) &&
  Date.parse(r.valid_from) <= ms && (r.valid_to === null || ms < Date.parse(r.valid_to)))?.value_inc_vat;
function priceOf(tariff: string | undefined, ms: number): number | undefined {
  if (tariff === AGILE) return agile.get(ms);
  if (tariff === OUTGOING) return outgoing.get(ms);
  if (tariff === FLEX) return validAt(flexRates, ms);
  if (tariff === GAS_TARIFF) return validAt(gasRate, ms);
  return undefined;
}
const chargeOf = (tariff: string | undefined, ms: number) =>
  tariff === AGILE || tariff === FLEX ? validAt(standing, ms, 'DIRECT_DEBIT') : tariff === GAS_TARIFF ? validAt(gasStanding, ms) : undefined;
const tariffAt = (mp: string, ms: number) => agreements.find((a) => a.mp === mp && a.from <= ms && ms < a.to)?.tariff;

interface Day { date: string; halfHours: number; kwh: number; energy: number | undefined; charge: number | undefined; missing: number }
function bruteDays(mp: string, scenario: string): Day[] {
  const days = new Map<string, Day>();
  for (const ms of slots) {
    const tariff = scenario === 'actual' ? tariffAt(mp, ms) : scenario;
    const date = londonDate(ms);
    let day = days.get(date);
    if (!day) {
      day = { date, halfHours: 0, kwh: 0, energy: undefined, charge: mp === X ? 0 : chargeOf(tariff, ms), missing: 0 };
      days.set(date, day);
    }
    day.halfHours++;
    const kwh = readings.get(mp)!.get(ms);
    const price = priceOf(tariff, ms);
    if (kwh !== undefined) day.kwh += kwh;
    if (kwh === undefined || price === undefined) day.missing++;
    else day.energy = (day.energy ?? 0) + kwh * price;
  }
  return [...days.values()];
}
/** The rule: energy priced plus the standing charge (an export meter owes none); neither: no total. */
const dayTotal = (mp: string, d: Day) => (d.energy === undefined && (mp === X || d.charge === undefined) ? undefined : (d.energy ?? 0) + (mp === X ? 0 : d.charge ?? 0));

// ---- the warehouse ---------------------------------------------------------------------------
let dir: string;
let db: string;
let warehouse: Warehouse;
const range = { from: new Date(FROM_MS).toISOString(), to: new Date(TO_MS).toISOString() };

async function writeSeries(tariff: string, kind: RateKind, records: UnitRate[], runId: number): Promise<void> {
  await writeRateBatch(warehouse, {
    tariffCode: tariff, kind, runId, rates: stagedRates(records),
    window: { from: new Date('2017-01-01T00:00:00Z'), until: new Date('2024-03-01T00:00:00Z') },
  });
}
const halfHourly = (s: Map<number, number>): UnitRate[] => [...s].map(([ms, inc]) => ({
  valid_from: new Date(ms).toISOString(), valid_to: new Date(ms + HH).toISOString(),
  value_inc_vat: inc, value_exc_vat: Math.round((inc / 1.05) * 1e4) / 1e4, payment_method: null,
}));
const csv = (r: Map<number, number>) => `interval_start,kwh\n${[...r].map(([ms, kwh]) => `${new Date(ms).toISOString()},${kwh}`).join('\n')}\n`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tariffs-portfolio-'));
  db = join(dir, 'portfolio.duckdb');
  warehouse = await Warehouse.open(db);
  await prepareStaging(warehouse);
  const runId = await startRun(warehouse, 'test', new Date());
  await writeSeries(AGILE, 'standard', halfHourly(agile), runId);
  await writeSeries(OUTGOING, 'standard', halfHourly(outgoing), runId);
  await writeSeries(FLEX, 'standard', flexRates, runId);
  await writeSeries(GAS_TARIFF, 'standard', gasRate, runId);
  await writeSeries(AGILE, 'standing_charge', standing, runId);
  await writeSeries(FLEX, 'standing_charge', standing, runId);
  await writeSeries(GAS_TARIFF, 'standing_charge', gasStanding, runId);
  const now = new Date();
  for (const mp of [A, B, X, G]) {
    const fuel = mp === G ? 'gas' : 'electricity';
    await upsertMeterPoint(warehouse, { meterPoint: mp, fuel, isExport: mp === X, serials: [], accountNumber: 'A-TEST' }, now);
    await replaceAgreements(warehouse, mp, agreements.filter((a) => a.mp === mp).map((a) => ({
      meterPoint: mp, tariffCode: a.tariff, validFrom: new Date(a.from).toISOString(),
      validTo: a.to === Infinity ? null : new Date(a.to).toISOString(), accountNumber: 'A-TEST',
    })), now);
    await importConsumptionFile(warehouse, {
      text: csv(readings.get(mp)!), source: `${mp}.csv`, meter: { meterPoint: mp, serial: 'S1' },
      isExport: mp === X, fuel, unit: 'kWh', calorificValue: 39.5,
    });
  }
  warehouse.close();
  warehouse = await Warehouse.open(db, { readOnly: true });
}, 60_000);

afterAll(() => {
  warehouse?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const close = (actual: unknown, expected: number | undefined) => {
  if (expected === undefined) expect(actual).toBeNull();
  else expect(Math.abs(Number(actual) - expected)).toBeLessThan(1e-6);
};

describe('portfolio_daily_costs', () => {
  it('every meter and scenario per day equals the brute force: clock change, negatives, the totals rule', async () => {
    const rows = await warehouse.all(`SELECT * FROM portfolio_daily_costs(['actual', $agile, $gas], CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ),
      mismatches := 'skip') ORDER BY meter_point, scenario, local_date`, { agile: AGILE, gas: GAS_TARIFF, ...range });
    const expected = [[A, 'actual'], [A, AGILE], [B, 'actual'], [B, AGILE], [G, 'actual'], [G, GAS_TARIFF], [X, 'actual']].sort();
    expect([...new Set(rows.map((r) => `${String(r.meter_point)}|${String(r.scenario)}`))]).toEqual(expected.map((p) => p.join('|')).sort());
    let negatives = 0;
    for (const [mp, scenario] of expected as [string, string][]) {
      const mine = rows.filter((r) => r.meter_point === mp && r.scenario === scenario);
      const brute = bruteDays(mp, scenario);
      expect(mine.map((r) => r.local_date)).toEqual(brute.map((d) => d.date));
      mine.forEach((row, i) => {
        const d = brute[i]!;
        expect(row.half_hours).toBe(d.halfHours);
        close(row.energy_cost_inc_vat, d.energy);
        close(row.standing_charge_inc_vat, d.charge);
        close(row.total_inc_vat, dayTotal(mp, d));
        expect(row.missing_half_hours).toBe(d.missing);
        expect(row.complete).toBe(d.missing === 0 && d.charge !== undefined);
        if ((d.energy ?? 0) < 0) negatives++;
      });
    }
    expect(rows.find((r) => r.meter_point === A && r.local_date === '2023-10-29')!.half_hours).toBe(50);
    expect(negatives + [...agile.values()].filter((p) => p < 0).length).toBeGreaterThan(0);
  });

  it('a day without readings owes its standing charge: total = the charge, complete false', async () => {
    const day = await warehouse.one(`SELECT * FROM portfolio_daily_costs(['actual'], CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ),
      meters := [$b]) WHERE local_date = DATE '2023-11-03'`, { b: B, ...range });
    const charge = validAt(standing, Date.parse('2023-11-03T00:00:00Z'), 'DIRECT_DEBIT')!;
    expect(day!.kwh).toBeNull();
    expect(day!.energy_cost_inc_vat).toBeNull();
    close(day!.total_inc_vat, charge);
    expect(day!.complete).toBe(false);
    expect(day!.missing_readings).toBe(48);
    // the month sums its days: energy plus every day's charge
    const month = await warehouse.one(`SELECT * FROM monthly_costs($b, NULL, CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ)) WHERE month = DATE '2023-11-01'`, { b: B, ...range });
    close(month!.total_inc_vat, Number(month!.energy_cost_inc_vat) + Number(month!.standing_charge_inc_vat));
    // an export meter's day without readings has nothing priced and owes no charge: no total
    const exportDay = await warehouse.all(`SELECT total_inc_vat FROM daily_costs($x, NULL, TIMESTAMPTZ '2023-11-05 00:00:00Z', TIMESTAMPTZ '2023-11-08 00:00:00Z')`, { x: X });
    expect(exportDay.map((r) => r.total_inc_vat === null)).toEqual([false, true, true]);
  });

  it('a tariff of another fuel or direction is refused unless skipped', async () => {
    await expect(warehouse.all(`SELECT * FROM portfolio_comparison([$agile], CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ))`, { agile: AGILE, ...range }))
      .rejects.toThrow(/meter (3200000001 is a gas import|1200000000003 is an electricity export) meter; tariff E-1R-AGILE-18-02-21-J is an electricity import tariff/);
    const skipped = await warehouse.all(`SELECT DISTINCT meter_point FROM portfolio_comparison([$agile], CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ),
      mismatches := 'skip') WHERE scenario = $agile ORDER BY 1`, { agile: AGILE, ...range });
    expect(skipped.map((r) => r.meter_point)).toEqual([A, B]);
  });
});

describe('compare and cost --all-meters', () => {
  const cli = async (args: string[]) => {
    const r = await runCli([...args, '--db', db, '--from', '2023-10-20', '--to', '2023-11-06', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    return { rows: JSON.parse(r.stdout) as Record<string, unknown>[], stderr: r.stderr };
  };

  it('equals the single-meter compare of each meter; tariffs only for meters of their fuel and direction', async () => {
    const all = await cli(['compare', '--all-meters', '--tariff', AGILE, '--tariff', GAS_TARIFF, '--tariff', OUTGOING]);
    expect(all.rows.map((r) => [r.meter_point, r.scenario])).toEqual([
      [A, 'actual'], [A, AGILE], [B, 'actual'], [B, AGILE], [X, 'actual'], [X, OUTGOING], [G, 'actual'], [G, GAS_TARIFF],
    ].sort((p, q) => (p[0]! < q[0]! ? -1 : p[0]! > q[0]! ? 1 : 0)));
    expect(Object.keys(all.rows[0]!)[0]).toBe('meter_point');
    expect(all.stderr).toMatch(/tariff\(s\) not priced for 4 meter\(s\) of another fuel or direction/);
    const fits: Record<string, string[]> = { [A]: [AGILE], [B]: [AGILE], [X]: [OUTGOING], [G]: [GAS_TARIFF] };
    for (const [mp, tariffs] of Object.entries(fits)) {
      const one = await cli(['compare', '--meter', mp, ...tariffs.flatMap((t) => ['--tariff', t])]);
      expect(all.rows.filter((r) => r.meter_point === mp).map(({ meter_point: _, ...rest }) => rest)).toEqual(one.rows);
      for (const row of one.rows) {
        const brute = bruteDays(mp, String(row.scenario));
        const totals = brute.map((d) => dayTotal(mp, d)).filter((t) => t !== undefined);
        expect(Math.abs(Number(row.total_inc_vat) - totals.reduce((s, t) => s + t!, 0))).toBeLessThan(1e-3);
      }
    }
  });

  it('cost --all-meters per month equals each meter\'s cost per month, meter_point and scenario first', async () => {
    const all = await cli(['cost', '--all-meters', '--per', 'month']);
    expect(Object.keys(all.rows[0]!).slice(0, 2)).toEqual(['meter_point', 'scenario']);
    for (const mp of [A, B, X, G]) {
      const one = await cli(['cost', '--meter', mp, '--per', 'month']);
      expect(all.rows.filter((r) => r.meter_point === mp).map(({ meter_point: _, scenario: __, ...rest }) => rest)).toEqual(one.rows);
    }
  });

  it('one statement run batch after batch gives the rows of one batch of every meter', async () => {
    const request = { tariffs: [AGILE], payment: 'DIRECT_DEBIT' as const, from: new Date(FROM_MS), to: new Date(TO_MS), rounded: true };
    for (const question of ['compare', 'day'] as const) {
      const whole = await portfolioCosts(warehouse, question, request);
      // compare: every meter at its agreements, Agile for A and B only; day: Agile, for A and B
      expect(new Set(whole.rows.map((r) => r.meter_point))).toEqual(new Set(question === 'compare' ? [A, B, X, G] : [A, B]));
      const done: number[] = [];
      // 3 + 1 meters: the last batch shorter, each run of the statement with other meters
      const batched = await portfolioCosts(warehouse, question, { ...request, batch: 3, progress: { expect: () => undefined, done: (n) => done.push(n) } });
      expect(done).toEqual([3, 1]);
      expect(batched).toEqual(whole);
    }
  });

  it('flag rules: one of --meter and --all-meters; --all-meters per day or month', async () => {
    for (const args of [['compare', '--tariff', AGILE], ['cost', '--all-meters', '--meter', A], ['cost', '--all-meters', '--per', 'half-hour']]) {
      const r = await runCli([...args, '--db', db]);
      expect(r.code).toBe(2);
    }
    const csvOut = await runCli(['cost', '--all-meters', '--per', 'day', '--db', db, '--format', 'csv', '--from', '2023-11-01', '--to', '2023-11-03']);
    expect(csvOut.stdout.split('\n')[0]).toMatch(/^meter_point,scenario,tariff_code,local_date,/);
    expect(csvOut.stdout.trim().split('\n').length).toBe(1 + 4 * 2);
  });
});
