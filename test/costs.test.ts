// The cost SQL (sql/public: half_hour_costs, daily_costs, monthly_costs, tariff_comparison,
// net_costs; the supplier_cost_check view) against an independent brute force in TypeScript, over
// real prices read from data/sandbox/ (Agile J, the Flexible VAR-17-01-11-A long rates, Agile
// Outgoing C, VAR-22-11-01 standing charges), and the synthetic household's consumption imported
// through `tariffs consumption import`'s code: 2023-03-20 → 2023-11-06 (Europe/London), both clock
// changes, negative prices, one price and one reading deleted, an agreement switch mid-range.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitRate } from '../src/api/schemas.js';
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
const IMPORT_MP = '1100000000001';
const EXPORT_MP = '1100000000002';
const SWITCH_MS = Date.parse('2023-08-01T00:00:00+01:00');
// Local midnights: 2023-03-20 (GMT) to 2023-11-06 (GMT).
const FROM_MS = Date.parse('2023-03-20T00:00:00Z');
const TO_MS = Date.parse('2023-11-06T00:00:00Z');
const MISSING_PRICE_MS = Date.parse('2023-07-15T12:00:00Z');
const MISSING_READING_MS = Date.parse('2023-10-29T00:30:00Z'); // the first 01:30 of the fall-back day

// ---- the real inputs, straight from the files -------------------------------------------------
function csvSeries(file: string, header: boolean, priceColumn: number): Map<number, number> {
  const lines = readFileSync(new URL(file, SANDBOX), 'utf8').split(/\r?\n/).filter((l) => l.trim());
  const out = new Map<number, number>();
  for (const line of header ? lines.slice(1) : lines) {
    const cells = line.split(',');
    const ms = Date.parse(cells[0]!.replace(' ', 'T'));
    if (ms >= FROM_MS - 86_400_000 && ms < TO_MS + 86_400_000) out.set(ms, Number(cells[priceColumn]));
  }
  return out;
}
const jsonResults = (file: string) => (JSON.parse(readFileSync(new URL(file, SANDBOX), 'utf8')) as { results: UnitRate[] }).results;

const agile = csvSeries('wyvernp-agile_predictor/csv_agile_J_South_Eastern_England.csv', true, 1);
agile.delete(MISSING_PRICE_MS);
const outgoing = csvSeries('hramzan01-project_market/csv_agileoutgoing_C_London.csv', false, 4);
const flexRates = jsonResults('domdfcoding-octo-api/tests_responses/standard_unit_rates.json');
const standing = jsonResults('ryanw-mobile-OctoMeter/extracted_from_kotlin_test_samples/GetStandingChargesSampleData__var221101Json.json');

const agreements = [
  { mp: IMPORT_MP, tariff: AGILE, from: Date.parse('2023-01-01T00:00:00Z'), to: SWITCH_MS },
  { mp: IMPORT_MP, tariff: FLEX, from: SWITCH_MS, to: Infinity },
  { mp: EXPORT_MP, tariff: OUTGOING, from: Date.parse('2023-01-01T00:00:00Z'), to: Infinity },
];

// ---- brute force -------------------------------------------------------------------------------
const dateFmt = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
const londonDate = (ms: number) => dateFmt.format(new Date(ms));
const slots: number[] = [];
for (let ms = FROM_MS; ms < TO_MS; ms += HH) slots.push(ms);

const halfHoursOfDay = new Map<string, number>();
for (const ms of slots) halfHoursOfDay.set(londonDate(ms), (halfHoursOfDay.get(londonDate(ms)) ?? 0) + 1);
const importKwh = new Map<number, number>();
const exportKwh = new Map<number, number>();
for (const ms of slots) {
  if (ms !== MISSING_READING_MS) importKwh.set(ms, householdReading('import', ms));
  exportKwh.set(ms, householdReading('export', ms));
}

function priceOf(tariff: string, ms: number): number | undefined {
  if (tariff === AGILE) return agile.get(ms);
  if (tariff === OUTGOING) return outgoing.get(ms);
  if (tariff === FLEX) {
    const r = flexRates.find((x) => Date.parse(x.valid_from) <= ms && (x.valid_to === null || ms < Date.parse(x.valid_to)));
    return r?.value_inc_vat;
  }
  return undefined;
}
function tariffAt(mp: string, ms: number): string | undefined {
  return agreements.find((a) => a.mp === mp && a.from <= ms && ms < a.to)?.tariff;
}
function standingAt(ms: number): number | undefined {
  return standing.find((s) => s.payment_method === 'DIRECT_DEBIT' && Date.parse(s.valid_from) <= ms &&
    (s.valid_to === null || ms < Date.parse(s.valid_to)))?.value_inc_vat;
}

interface BruteDay {
  date: string; halfHours: number; kwh: number; energy: number; standing: number | undefined;
  missingPrices: number; missingReadings: number; missingHalfHours: number; tariff: string | undefined;
}

/** scenario: a tariff code, or undefined = the agreement in force. */
function bruteDays(mp: string, readings: Map<number, number>, scenario: string | undefined, isExport = false): BruteDay[] {
  const days = new Map<string, BruteDay>();
  for (const ms of slots) {
    const date = londonDate(ms);
    const tariff = scenario ?? tariffAt(mp, ms);
    let day = days.get(date);
    if (!day) {
      day = { date, halfHours: 0, kwh: 0, energy: 0, standing: isExport ? 0 : tariff && tariff !== OUTGOING ? standingAt(ms) : undefined,
        missingPrices: 0, missingReadings: 0, missingHalfHours: 0, tariff };
      days.set(date, day);
    }
    day.halfHours++;
    const kwh = readings.get(ms);
    const price = tariff === undefined ? undefined : priceOf(tariff, ms);
    if (kwh !== undefined) day.kwh += kwh;
    if (price === undefined) day.missingPrices++;
    if (kwh === undefined) day.missingReadings++;
    if (kwh === undefined || price === undefined) day.missingHalfHours++;
    else day.energy += kwh * price;
  }
  return [...days.values()];
}
const total = (d: { energy: number; standing: number | undefined }) => d.energy + (d.standing ?? 0);

function byMonth(days: BruteDay[]): Map<string, { energy: number; standing: number; total: number; kwh: number; missing: number; complete: boolean }> {
  const months = new Map<string, { energy: number; standing: number; total: number; kwh: number; missing: number; complete: boolean }>();
  for (const d of days) {
    const key = `${d.date.slice(0, 7)}-01`;
    const m = months.get(key) ?? { energy: 0, standing: 0, total: 0, kwh: 0, missing: 0, complete: true };
    m.energy += d.energy;
    m.standing += d.standing ?? 0;
    m.total += total(d);
    m.kwh += d.kwh;
    m.missing += d.missingHalfHours;
    m.complete &&= d.missingHalfHours === 0 && d.standing !== undefined;
    months.set(key, m);
  }
  return months;
}

// ---- the warehouse ---------------------------------------------------------------------------
let dir: string;
let db: string;
let warehouse: Warehouse;
const params = { from: new Date(FROM_MS).toISOString(), to: new Date(TO_MS).toISOString() };

/** A plain `interval_start,kwh` CSV with Europe/London offsets, as a user would export it. */
function plainCsv(readings: Map<number, number>): string {
  const offsetFmt = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', timeZoneName: 'longOffset' });
  const lines = ['interval_start,kwh'];
  for (const [ms, kwh] of readings) {
    const name = offsetFmt.formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')!.value; // GMT or GMT+01:00
    const offset = name === 'GMT' ? 0 : 60;
    const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19);
    lines.push(`${local}${offset ? '+01:00' : '+00:00'},${kwh}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The supplier dashboard's CSV: its estimated cost per half-hour, rounded to 2 decimals (p). */
function supplierCsv(readings: Map<number, number>): string {
  const lines = ['Consumption (kwh), Estimated Cost Inc. Tax (p), Standing Charge Inc. Tax (p), Start, End'];
  for (const [ms, kwh] of readings) {
    const price = priceOf(tariffAt(IMPORT_MP, ms)!, ms) ?? agileOriginal.get(ms)!;
    const sc = standingAt(ms)!;
    const halfHours = halfHoursOfDay.get(londonDate(ms))!;
    lines.push(`${kwh}, ${(kwh * price).toFixed(2)}, ${(sc / halfHours).toFixed(2)}, ${new Date(ms).toISOString().replace('.000Z', 'Z')}, ${new Date(ms + HH).toISOString().replace('.000Z', 'Z')}`);
  }
  return `${lines.join('\n')}\n`;
}
const agileOriginal = csvSeries('wyvernp-agile_predictor/csv_agile_J_South_Eastern_England.csv', true, 1);

async function writeSeries(tariff: string, kind: RateKind, records: UnitRate[], runId: number, target = warehouse): Promise<void> {
  await writeRateBatch(target, {
    tariffCode: tariff, kind, runId, rates: stagedRates(records),
    window: { from: new Date('2017-01-01T00:00:00Z'), until: new Date('2024-03-01T00:00:00Z') },
  });
}
const halfHourly = (series: Map<number, number>): UnitRate[] => [...series].map(([ms, inc]) => ({
  valid_from: new Date(ms).toISOString(), valid_to: new Date(ms + HH).toISOString(),
  value_inc_vat: inc, value_exc_vat: Math.round((inc / 1.05) * 1e4) / 1e4, payment_method: null,
}));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tariffs-costs-'));
  db = join(dir, 'costs.duckdb');
  warehouse = await Warehouse.open(db);
  await prepareStaging(warehouse);
  const runId = await startRun(warehouse, 'test', new Date());
  await writeSeries(AGILE, 'standard', halfHourly(agile), runId);
  await writeSeries(OUTGOING, 'standard', halfHourly(outgoing), runId);
  await writeSeries(FLEX, 'standard', flexRates, runId);
  // The VAR-22-11-01 standing charges (real, DD and non-DD), recorded for the two import tariffs.
  await writeSeries(AGILE, 'standing_charge', standing, runId);
  await writeSeries(FLEX, 'standing_charge', standing, runId);
  const now = new Date();
  for (const mp of [IMPORT_MP, EXPORT_MP]) {
    await upsertMeterPoint(warehouse, { meterPoint: mp, fuel: 'electricity', isExport: mp === EXPORT_MP, serials: [], accountNumber: 'A-TEST' }, now);
    await replaceAgreements(warehouse, mp, agreements.filter((a) => a.mp === mp).map((a) => ({
      meterPoint: mp, tariffCode: a.tariff, validFrom: new Date(a.from).toISOString(),
      validTo: a.to === Infinity ? null : new Date(a.to).toISOString(), accountNumber: 'A-TEST',
    })), now);
  }
  await importConsumptionFile(warehouse, {
    text: supplierCsv(importKwh), source: 'import.csv', meter: { meterPoint: IMPORT_MP, serial: 'IMP1' },
    isExport: false, fuel: 'electricity', unit: 'kWh', calorificValue: 39.5,
  });
  await importConsumptionFile(warehouse, {
    text: plainCsv(exportKwh), source: 'export.csv', meter: { meterPoint: EXPORT_MP, serial: 'EXP1' },
    isExport: true, fuel: 'electricity', unit: 'kWh', calorificValue: 39.5,
  });
}, 60_000);

afterAll(() => {
  warehouse?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const close = (actual: unknown, expected: number) => expect(Math.abs(Number(actual) - expected)).toBeLessThan(1e-6);

describe('the inputs cover what the costs must get right', () => {
  it('both clock changes, negative prices and the two holes', () => {
    const days = bruteDays(IMPORT_MP, importKwh, undefined);
    expect(days.find((d) => d.date === '2023-03-26')!.halfHours).toBe(46);
    expect(days.find((d) => d.date === '2023-10-29')!.halfHours).toBe(50);
    expect([...agile.values()].filter((p) => p < 0).length).toBeGreaterThan(20);
    expect(importKwh.has(MISSING_READING_MS)).toBe(false);
    expect(agileOriginal.has(MISSING_PRICE_MS)).toBe(true);
  });
});

describe('half_hour_costs', () => {
  it('equals the brute force on every half-hour, on a what-if tariff, negatives included', async () => {
    const rows = await warehouse.all(`SELECT * FROM half_hour_costs($m, $t, $from, $to)`, { m: IMPORT_MP, t: AGILE, ...params });
    expect(rows.length).toBe(slots.length);
    let negatives = 0;
    rows.forEach((row, i) => {
      const ms = slots[i]!;
      expect(Date.parse(String(row.slot_start))).toBe(ms);
      expect(row.local_date).toBe(londonDate(ms));
      const kwh = importKwh.get(ms);
      const price = agile.get(ms);
      if (kwh === undefined || price === undefined) {
        expect(row.cost_inc_vat).toBeNull();
      } else {
        close(row.cost_inc_vat, kwh * price);
        if (kwh * price < 0) negatives++;
      }
    });
    expect(negatives).toBeGreaterThan(10);
    expect(rows.filter((r) => !r.has_price).map((r) => r.slot_start)).toEqual([new Date(MISSING_PRICE_MS).toISOString().replace('.000Z', 'Z')]);
    expect(rows.filter((r) => !r.has_reading).map((r) => r.slot_start)).toEqual([new Date(MISSING_READING_MS).toISOString().replace('.000Z', 'Z')]);
  });

  it('settlement periods run 1..46 and 1..50 on the clock-change days', async () => {
    const rows = await warehouse.all(`SELECT local_date, max(settlement_period) AS n, count(*) AS c FROM half_hour_costs($m, NULL, $from, $to)
      WHERE local_date IN ('2023-03-26', '2023-10-29', '2023-06-01') GROUP BY 1 ORDER BY 1`, { m: IMPORT_MP, ...params });
    expect(rows.map((r) => [r.n, r.c])).toEqual([[46, 46], [48, 48], [50, 50]]);
  });
});

describe('daily_costs and monthly_costs', () => {
  it('what did I pay: per day, the agreement in force, one standing charge valid at the day start', async () => {
    const rows = await warehouse.all(`SELECT * FROM daily_costs($m, NULL, $from, $to)`, { m: IMPORT_MP, ...params });
    const brute = bruteDays(IMPORT_MP, importKwh, undefined);
    expect(rows.map((r) => r.local_date)).toEqual(brute.map((d) => d.date));
    rows.forEach((row, i) => {
      const d = brute[i]!;
      expect([row.local_date, row.tariff_code, row.half_hours, row.missing_prices, row.missing_readings, row.missing_half_hours])
        .toEqual([d.date, d.tariff, d.halfHours, d.missingPrices, d.missingReadings, d.missingHalfHours]);
      close(row.kwh, d.kwh);
      close(row.energy_cost_inc_vat, d.energy);
      close(row.standing_charge_inc_vat, d.standing!);
      close(row.total_inc_vat, total(d));
      expect(Math.abs(Number(row.total_gbp) - total(d) / 100)).toBeLessThanOrEqual(0.005 + 1e-9);
      expect(row.complete).toBe(d.missingHalfHours === 0);
    });
    // The standing charge changes at 2023-04-01 00:00 BST (2023-03-31T23:00Z): March 31 pays the old one.
    close(rows.find((r) => r.local_date === '2023-03-31')!.standing_charge_inc_vat, 37.29243);
    close(rows.find((r) => r.local_date === '2023-04-01')!.standing_charge_inc_vat, 42.013125);
    expect(rows.find((r) => r.local_date === '2023-08-01')!.tariff_code).toBe(FLEX);
    // without a range (the readings' days: consumption_pricing's other way to its rates), the
    // same days priced the same
    const unbounded = await warehouse.all(`SELECT * FROM daily_costs($m, NULL, NULL, NULL)`, { m: IMPORT_MP });
    expect(unbounded.length).toBeGreaterThanOrEqual(rows.length);
    for (const row of rows) {
      const same = unbounded.find((u) => u.local_date === row.local_date);
      expect(same, String(row.local_date)).toBeDefined();
      expect([same!.tariff_code, same!.half_hours, same!.missing_half_hours]).toEqual([row.tariff_code, row.half_hours, row.missing_half_hours]);
      close(same!.total_inc_vat, Number(row.total_inc_vat));
    }
  });

  it('non-direct-debit standing charges when asked', async () => {
    const row = await warehouse.one(`SELECT standing_charge_inc_vat AS s FROM daily_costs($m, NULL, $from, $to, payment := 'NON_DIRECT_DEBIT') WHERE local_date = '2023-06-01'`,
      { m: IMPORT_MP, ...params });
    close(row!.s, 47.492655);
  });

  it('per month: sums of the unrounded days, rounded once; incomplete months name their missing half-hours', async () => {
    const rows = await warehouse.all(`SELECT * FROM monthly_costs($m, NULL, $from, $to)`, { m: IMPORT_MP, ...params });
    const brute = byMonth(bruteDays(IMPORT_MP, importKwh, undefined));
    expect(rows.map((r) => r.month)).toEqual([...brute.keys()]);
    for (const row of rows) {
      const m = brute.get(String(row.month))!;
      close(row.total_inc_vat, m.total);
      close(row.energy_cost_inc_vat, m.energy);
      close(row.standing_charge_inc_vat, m.standing);
      expect(Math.abs(Number(row.total_gbp) - m.total / 100)).toBeLessThanOrEqual(0.005 + 1e-9);
      expect([row.missing_half_hours, row.complete]).toEqual([m.missing, m.complete]);
    }
    expect(rows.find((r) => r.month === '2023-07-01')!.complete).toBe(false);
    expect(rows.find((r) => r.month === '2023-10-01')!.missing_readings).toBe(1);
  });
});

describe('tariff_comparison', () => {
  it('actual vs each tariff over the range, with the difference to the actual', async () => {
    const rows = await warehouse.all(`SELECT * FROM tariff_comparison($m, [$a, $b], $from, $to)`, { m: IMPORT_MP, a: FLEX, b: AGILE, ...params });
    expect(rows.map((r) => r.scenario)).toEqual(['actual', FLEX, AGILE]);
    const totals = [undefined, FLEX, AGILE].map((s) => bruteDays(IMPORT_MP, importKwh, s).reduce((sum, d) => sum + total(d), 0));
    rows.forEach((row, i) => {
      close(row.total_inc_vat, totals[i]!);
      expect(Math.abs(Number(row.difference_gbp) - (totals[i]! - totals[0]!) / 100)).toBeLessThanOrEqual(0.005 + 1e-9);
    });
    // Flexible has a price for every half-hour, Agile lacks one: only the reading is missing.
    expect(rows.map((r) => r.missing_half_hours)).toEqual([2, 1, 2]);
    expect(rows.every((r) => r.complete === false)).toBe(true);
    // a meter on no Intelligent Octopus Go tariff: without dispatches (as `compare` asks), the same rows
    const none = await warehouse.all(`SELECT * FROM tariff_comparison($m, [$a, $b], $from, $to, dispatches := 'none')`, { m: IMPORT_MP, a: FLEX, b: AGILE, ...params });
    expect(none.map((r) => Object.keys(r))).toEqual(rows.map((r) => Object.keys(r)));
    none.forEach((row, i) => {
      for (const [key, value] of Object.entries(row)) {
        // sums of doubles: equal to their last bits' noise
        if (typeof value === 'number') close(value, Number(rows[i]![key]));
        else expect(value, key).toEqual(rows[i]![key]);
      }
    });
  });
});

describe('export meters and net', () => {
  it('earnings at the export tariff, no standing charge; net = import cost - export earnings per month', async () => {
    const rows = await warehouse.all(`SELECT * FROM net_costs($i, $e, $from, $to)`, { i: IMPORT_MP, e: EXPORT_MP, ...params });
    const imp = byMonth(bruteDays(IMPORT_MP, importKwh, undefined));
    const exp = byMonth(bruteDays(EXPORT_MP, exportKwh, undefined, true));
    expect(rows.map((r) => r.month)).toEqual([...imp.keys()]);
    for (const row of rows) {
      const i = imp.get(String(row.month))!;
      const e = exp.get(String(row.month))!;
      close(row.import_cost_inc_vat, i.total);
      close(row.export_earnings_inc_vat, e.energy);
      close(row.net_inc_vat, i.total - e.energy);
      expect(e.standing).toBe(0);
    }
    expect([...exp.values()].some((m) => m.energy > 100)).toBe(true);
  });
});

describe('the supplier CSV round trip', () => {
  it("the file's own estimated costs agree with ours per day within its rounding", async () => {
    const rows = await warehouse.all(`SELECT * FROM supplier_cost_check WHERE meter_point = $m ORDER BY local_date`, { m: IMPORT_MP });
    const days = bruteDays(IMPORT_MP, importKwh, undefined);
    expect(rows.length).toBe(days.length);
    for (const row of rows) {
      if (row.local_date === londonDate(MISSING_PRICE_MS)) {
        expect(row.missing_prices).toBe(1);
        continue;
      }
      expect(row.missing_prices).toBe(0);
      expect(Math.abs(Number(row.difference_inc_vat))).toBeLessThanOrEqual(0.005 * Number(row.half_hours) + 1e-9);
    }
  });
});

describe('tariffs consumption import', () => {
  it('is idempotent, keeps revisions, and a bad row stores nothing, naming line and column', async () => {
    const before = (await warehouse.one('SELECT count(*) AS n FROM consumption'))!.n;
    const again = await importConsumptionFile(warehouse, {
      text: plainCsv(exportKwh), source: 'export.csv', meter: { meterPoint: EXPORT_MP, serial: 'EXP1' },
      isExport: true, fuel: 'electricity', unit: 'kWh', calorificValue: 39.5,
    });
    expect([again.inserted, again.updated, again.unchanged]).toEqual([0, 0, exportKwh.size]);
    const bad = 'interval_start,kwh\n2023-06-01T00:00:00+01:00,0.5\n2023-06-01T00:30:00+01:00,abc\n';
    await expect(importConsumptionFile(warehouse, {
      text: bad, source: 'bad.csv', meter: { meterPoint: EXPORT_MP, serial: 'EXP1' }, isExport: true, fuel: 'electricity', unit: 'kWh', calorificValue: 39.5,
    })).rejects.toThrow("bad.csv: line 3, column 'kwh': 'abc' is not a number");
    expect((await warehouse.one('SELECT count(*) AS n FROM consumption'))!.n).toBe(before);
    const changed = await importConsumptionFile(warehouse, {
      text: 'interval_start,kwh\n2023-06-01T12:00:00+01:00,9.5\n', source: 'fix.csv', meter: { meterPoint: EXPORT_MP, serial: 'EXP1' },
      isExport: true, fuel: 'electricity', unit: 'kWh', calorificValue: 39.5,
    });
    expect(changed.updated).toBe(1);
    const revision = await warehouse.one('SELECT old_kwh, new_kwh FROM consumption_revisions WHERE meter_point = $m', { m: EXPORT_MP });
    expect(revision).toEqual({ old_kwh: exportKwh.get(Date.parse('2023-06-01T11:00:00Z')), new_kwh: 9.5 });
  });

  it('the CLI: m³ gas converted, older header, stdin; a bad header names the file', async () => {
    const gasDb = join(dir, 'gas.duckdb');
    const csv = 'Consumption (kWh), Start, End\n1.5, 2024-03-31T00:00:00+00:00, 2024-03-31T00:30:00+00:00\n2, 2024-03-31T02:00:00+01:00, 2024-03-31T02:30:00+01:00\n';
    const ok = await runCli(['consumption', 'import', '-', '--meter', '9000000001:G1', '--gas', '--unit', 'm3', '--db', gasDb, '--format', 'json'], { input: csv });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)[0]).toMatchObject({ rows: 2, inserted: 2, layout: 'supplier-legacy' });
    const bad = await runCli(['consumption', 'import', '-', '--meter', '9000000001:G1', '--gas', '--db', gasDb], { input: 'when,value\n' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("stdin: line 1: header 'when,value' is not a consumption CSV");
    const usage = await runCli(['consumption', 'import', '-', '--meter', '9000000001', '--db', gasDb], { input: csv });
    expect(usage.code).toBe(2);
    const stored = await runCli(['sql', '--db', gasDb, '--format', 'json', 'SELECT raw_value, raw_unit, kwh, settlement_period FROM consumption ORDER BY interval_start']);
    const expected = (m3: number) => (m3 * 1.02264 * 39.5) / 3.6;
    const got = JSON.parse(stored.stdout) as { raw_value: number; raw_unit: string; kwh: number; settlement_period: number }[];
    expect(got.map((r) => [r.raw_value, r.raw_unit, r.settlement_period])).toEqual([[1.5, 'm3', 1], [2, 'm3', 3]]);
    got.forEach((r) => close(r.kwh, expected(r.raw_value)));
  });
});

describe('tariffs cost and tariffs compare (the CLI, on the same file)', () => {
  it('cost per month and compare print the SQL answers as JSON, warn about incomplete rows, and fail clearly', async () => {
    warehouse.close();
    const range = ['--from', '2023-03-20', '--to', '2023-11-06'];
    const monthly = await runCli(['cost', '--meter', IMPORT_MP, '--per', 'month', ...range, '--db', db, '--format', 'json']);
    expect(monthly.code).toBe(0);
    const months = JSON.parse(monthly.stdout) as JsonRow[];
    const brute = byMonth(bruteDays(IMPORT_MP, importKwh, undefined));
    expect(months.map((m) => m.month)).toEqual([...brute.keys()]);
    // the CLI prints kWh and pence rounded in SQL to 4 decimals (as the exports): no float noise
    months.forEach((m) => expect(Math.abs(Number(m.total_inc_vat) - brute.get(String(m.month))!.total)).toBeLessThanOrEqual(0.00005 + 1e-9));
    for (const m of months) for (const k of ['kwh', 'energy_cost_inc_vat', 'total_inc_vat']) expect(String(m[k])).toMatch(/^-?\d+(\.\d{1,4})?$/);
    expect(monthly.stderr).toContain('2 of 9 rows incomplete (complete=false): 2 half-hour(s) without a reading or a price');

    const compared = await runCli(['compare', '--meter', `${IMPORT_MP}:IMP1`, '--tariff', FLEX, '--tariff', AGILE, ...range, '--db', db, '--format', 'csv']);
    expect(compared.code).toBe(0);
    const lines = compared.stdout.trim().split('\n');
    expect(lines[0]!.split(',').slice(0, 3)).toEqual(['scenario', 'tariff_code', 'first_date']);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['actual', FLEX, AGILE]);

    const net = await runCli(['cost', '--meter', IMPORT_MP, '--export-meter', EXPORT_MP, ...range, '--db', db, '--format', 'json']);
    expect(net.code).toBe(0);
    expect((JSON.parse(net.stdout) as JsonRow[]).length).toBe(9);

    const none = await runCli(['cost', '--meter', '1999999999999', '--db', db]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no consumption stored for meter 1999999999999');
    const badPer = await runCli(['cost', '--meter', IMPORT_MP, '--per', 'week', '--db', db]);
    expect([badPer.code, badPer.stderr.split('\n')[0]]).toEqual([2, "tariffs: --per: 'week' is not one of half-hour, day, month"]);
    // The export's tariff_comparison.csv: the same totals, each tariff with prices during the readings.
    const out = join(dir, 'reports');
    const exported = await runCli(['export', '--out', out, '--format', 'csv', ...range, '--db', db]);
    expect(exported.code).toBe(0);
    const csv = readFileSync(join(out, 'tariff_comparison.csv'), 'utf8').trim().split('\n').map((l) => l.split(','));
    const col = (name: string) => csv[0]!.indexOf(name);
    const importRows = csv.slice(1).filter((r) => r[col('meter_point')] === IMPORT_MP);
    expect(importRows.map((r) => r[col('scenario')])).toEqual(['actual', AGILE, FLEX]);
    const expectedTotals = [undefined, AGILE, FLEX].map((t) => bruteDays(IMPORT_MP, importKwh, t).reduce((sum, d) => sum + total(d), 0));
    importRows.forEach((r, i) => expect(Math.abs(Number(r[col('total_gbp')]) - expectedTotals[i]! / 100)).toBeLessThanOrEqual(0.005 + 1e-9));
    const exportRows = csv.slice(1).filter((r) => r[col('meter_point')] === EXPORT_MP);
    expect(exportRows.map((r) => [r[col('scenario')], r[col('is_export')]])).toEqual([['actual', 'true'], [OUTGOING, 'true']]);

    const defaultRange = await runCli(['compare', '--meter', IMPORT_MP, '--tariff', AGILE, '--db', db]);
    expect(defaultRange.code).toBe(1); // the last 12 complete months hold no readings of 2023
    expect(defaultRange.stderr).toContain('no consumption for meter 1100000000001 in [');
  }, 60_000);
});
type JsonRow = Record<string, unknown>;

describe('large totals', () => {
  it('a month of a large meter (over £10,000) prints its pence rounded like the rest, not a DECIMAL overflow', async () => {
    const big = join(dir, 'big.duckdb');
    const readings = new Map<number, number>();
    const start = Date.parse('2023-06-01T00:00:00+01:00');
    for (let ms = start; ms < Date.parse('2023-07-01T00:00:00+01:00'); ms += HH) readings.set(ms, 500);
    const imported = await runCli(['consumption', 'import', '-', '--meter', '1300000000001:BIG1', '--db', big, '--format', 'json'],
      { input: plainCsv(readings) });
    expect(imported.code, imported.stderr).toBe(0);
    const w = await Warehouse.open(big);
    try {
      await prepareStaging(w);
      await writeSeries(AGILE, 'standard', halfHourly(agile), await startRun(w, 'test', new Date()), w);
    } finally {
      w.close();
    }
    const run = await runCli(['cost', '--meter', '1300000000001', '--tariff', AGILE, '--per', 'month', '--from', '2023-06-01', '--to', '2023-07-01',
      '--db', big, '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const [june] = JSON.parse(run.stdout) as JsonRow[];
    const energy = [...readings].reduce((sum, [ms, kwh]) => sum + kwh * agile.get(ms)!, 0);
    expect(energy).toBeGreaterThan(999_999.9999);
    expect(Math.abs(Number(june!.energy_cost_inc_vat) - energy)).toBeLessThanOrEqual(0.00005 + 1e-6);
    expect(june!.kwh).toBe(500 * readings.size);
  }, 60_000);
});
