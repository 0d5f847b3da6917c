// Money you can trust (issue 26), on the sandbox household as a household would meet it: the
// account ingested with `--no-consumption` (meter points and agreements, no readings), its import
// readings imported from the supplier's CSV, then `tariffs cost` / `tariffs compare` run as child
// processes of the built CLI. Every figure is checked against a brute force in TypeScript over the
// raw rows (unit_rates as stored, the readings as written into the CSV), across the 2023 fall-back
// day and the household's agreement switch (Agile J → the variable tariff, 2023-08-31 23:00Z).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { householdReading } from '../src/sandbox/householdProfile.js';
import { HOUSEHOLD } from '../src/sandbox/loadSandboxData.js';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY, startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { runCli } from './helpers/runCli.js';

const HH = 1_800_000;
const IMPORT = HOUSEHOLD.importMpan;
const AGILE = 'E-1R-AGILE-18-02-21-J';
const VAR = 'E-1R-VAR-17-01-11-A';
const SWITCH_MS = Date.parse(HOUSEHOLD.switchAt);
// Local midnights: 2023-08-28 (BST) → 2023-11-01 (GMT): the switch and the fall-back day inside.
const FROM_MS = Date.parse('2023-08-27T23:00:00Z');
const TO_MS = Date.parse('2023-11-01T00:00:00Z');

let sandbox: Sandbox;
let dir: string;
let db: string;
type Row = Record<string, unknown>;

// ---- brute force over raw rows -----------------------------------------------------------------
const dateFmt = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
const londonDate = (ms: number) => dateFmt.format(new Date(ms));
const readings = new Map<number, number>();
for (let ms = FROM_MS; ms < TO_MS; ms += HH) readings.set(ms, householdReading('import', ms));

interface RawRate { tariff_code: string; valid_from: string; valid_to: string | null; value_inc_vat: number; payment_method: string | null }
let rates: RawRate[] = [];

function priceOf(tariff: string, ms: number): number | undefined {
  const r = rates.find((x) => x.tariff_code === tariff && (x.payment_method === null || x.payment_method === 'DIRECT_DEBIT') &&
    Date.parse(x.valid_from) <= ms && (x.valid_to === null || ms < Date.parse(x.valid_to)));
  return r?.value_inc_vat;
}
const agreementAt = (ms: number) => (ms < SWITCH_MS ? AGILE : VAR);

interface BruteDay { date: string; halfHours: number; kwh: number; energy: number; missingPrices: number; missingReadings: number }
/** Each local day whose midnight lies in [fromDayMs, toDayMs), whole; scenario undefined = the agreements. */
function bruteDays(fromDayMs: number, toDayMs: number, scenario?: string): BruteDay[] {
  const days = new Map<string, BruteDay>();
  for (let ms = fromDayMs; ms < toDayMs; ms += HH) {
    const date = londonDate(ms);
    const day = days.get(date) ?? { date, halfHours: 0, kwh: 0, energy: 0, missingPrices: 0, missingReadings: 0 };
    days.set(date, day);
    day.halfHours++;
    const kwh = readings.get(ms);
    const price = priceOf(scenario ?? agreementAt(ms), ms);
    if (kwh !== undefined) day.kwh += kwh;
    if (kwh === undefined) day.missingReadings++;
    if (price === undefined) day.missingPrices++;
    if (kwh !== undefined && price !== undefined) day.energy += kwh * price;
  }
  return [...days.values()];
}

/** The supplier dashboard's CSV of the import meter, times in UTC as the dashboard writes them. */
function supplierCsv(): string {
  const lines = ['Consumption (kwh), Estimated Cost Inc. Tax (p), Standing Charge Inc. Tax (p), Start, End'];
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  for (const [ms, kwh] of readings) lines.push(`${kwh}, 0, 0, ${iso(ms)}, ${iso(ms + HH)}`);
  return `${lines.join('\n')}\n`;
}

async function query(sql: string): Promise<Row[]> {
  const w = await Warehouse.open(db, { readOnly: true });
  try {
    return await w.all(sql);
  } finally {
    w.close();
  }
}

const json = (stdout: string) => JSON.parse(stdout) as Row[];
const pounds = (pence: number) => Math.round(Number(pence.toFixed(6))) / 100;

beforeAll(async () => {
  sandbox = await startSandbox();
  dir = mkdtempSync(join(tmpdir(), 'tariffs-household-'));
  db = join(dir, 'household.duckdb');
  const ingest = await runCli(['ingest', '--account', SANDBOX_ACCOUNT, '--no-products', '--no-consumption',
    '--from', '2023-08-28', '--to', '2023-11-01', '--db', db, '--base-url', sandbox.baseUrl, '--format', 'json'],
  { env: { TARIFFS_API_KEY: SANDBOX_API_KEY } });
  expect(ingest.code, ingest.stderr).toBe(0);
  expect(json(ingest.stdout)[0]).toMatchObject({ consumption_meters: 0, consumption_inserted: 0 });
  const csv = join(dir, 'consumption.csv');
  writeFileSync(csv, supplierCsv());
  const imported = await runCli(['consumption', 'import', csv, '--meter', `${IMPORT}:${HOUSEHOLD.electricitySerial}`, '--db', db, '--format', 'json']);
  expect(imported.code, imported.stderr).toBe(0);
  rates = (await query(`SELECT tariff_code, strftime(valid_from AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS valid_from,
      strftime(valid_to AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS valid_to, value_inc_vat, payment_method
    FROM unit_rates WHERE rate_type = 'standard'`)) as unknown as RawRate[];
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('ingest --account --no-consumption (item 1)', () => {
  it('stores the meter points and agreements, no readings; the imported readings are priced at them', async () => {
    expect(await query(`SELECT meter_point, fuel, is_export FROM meter_points
      WHERE meter_point IN ('${IMPORT}', '${HOUSEHOLD.exportMpan}', '${HOUSEHOLD.gasMprn}') ORDER BY meter_point`)).toEqual([
      { meter_point: IMPORT, fuel: 'electricity', is_export: false },
      { meter_point: HOUSEHOLD.exportMpan, fuel: 'electricity', is_export: true },
      { meter_point: HOUSEHOLD.gasMprn, fuel: 'gas', is_export: false },
    ].sort((a, b) => a.meter_point.localeCompare(b.meter_point)));
    expect(await query(`SELECT tariff_code, valid_from, valid_to FROM agreements WHERE meter_point = '${IMPORT}' ORDER BY valid_from`)).toEqual([
      { tariff_code: AGILE, valid_from: '2023-03-01T00:00:00Z', valid_to: HOUSEHOLD.switchAt },
      { tariff_code: VAR, valid_from: HOUSEHOLD.switchAt, valid_to: null },
    ]);
    expect(await query(`SELECT count(*) AS n, count(DISTINCT source) AS sources, any_value(source) AS source FROM consumption`))
      .toEqual([{ n: readings.size, sources: 1, source: 'file' }]);
    expect(rates.some((r) => r.tariff_code === AGILE) && rates.some((r) => r.tariff_code === VAR)).toBe(true);

    const run = await runCli(['cost', '--meter', IMPORT, '--from', '2023-08-28', '--to', '2023-11-01', '--db', db, '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const rows = json(run.stdout);
    const brute = bruteDays(FROM_MS, TO_MS);
    expect(rows.map((r) => r.local_date)).toEqual(brute.map((d) => d.date));
    expect(rows.find((r) => r.local_date === '2023-10-29')!.half_hours).toBe(50);
    rows.forEach((row, i) => {
      const d = brute[i]!;
      expect([row.tariff_code, row.half_hours, row.missing_prices, row.missing_readings]).toEqual(
        [agreementAt(Date.parse(`${d.date}T12:00:00Z`)), d.halfHours, d.missingPrices, d.missingReadings]);
      expect(Math.abs(Number(row.kwh) - d.kwh)).toBeLessThanOrEqual(0.00005 + 1e-9);
      expect(Math.abs(Number(row.energy_cost_inc_vat) - d.energy)).toBeLessThanOrEqual(0.00005 + 1e-9);
    });
    // every half-hour priced (the household's tariffs have no standing charges in the sandbox)
    expect(brute.every((d) => d.missingPrices === 0 && d.missingReadings === 0)).toBe(true);
    const energy = brute.reduce((n, d) => n + d.energy, 0);
    expect(energy).toBeGreaterThan(10_000);
    expect(rows.every((r) => r.standing_charge_missing === true && r.complete === false)).toBe(true);
    expect(Math.abs(rows.reduce((n, r) => n + Number(r.energy_cost_inc_vat), 0) - energy)).toBeLessThan(0.01);
    expect(pounds(energy)).toBeGreaterThan(100);
  }, 60_000);
});

describe('unpriced is never 0.00; an unknown tariff exits 1 (item 4)', () => {
  it('a meter without agreements: every half-hour missing_prices, complete false, no total; a hint on stderr', async () => {
    const orphan = '2000000000099';
    const csv = join(dir, 'orphan.csv');
    writeFileSync(csv, supplierCsv());
    const imported = await runCli(['consumption', 'import', csv, '--meter', `${orphan}:X1`, '--db', db]);
    expect(imported.code, imported.stderr).toBe(0);
    const range = ['--from', '2023-10-28', '--to', '2023-10-31'];
    const [day, month, table] = await Promise.all([
      runCli(['cost', '--meter', orphan, ...range, '--db', db, '--format', 'json']),
      runCli(['cost', '--meter', orphan, '--per', 'month', ...range, '--db', db, '--format', 'csv']),
      runCli(['cost', '--meter', orphan, ...range, '--db', db, '--format', 'table'], { env: { COLUMNS: '200' } }),
    ]);
    expect(day.code, day.stderr).toBe(0);
    const rows = json(day.stdout);
    expect(rows.map((r) => [r.local_date, r.half_hours, r.missing_prices, r.complete, r.total_gbp, r.total_inc_vat])).toEqual([
      ['2023-10-28', 48, 48, false, null, null], ['2023-10-29', 50, 50, false, null, null], ['2023-10-30', 48, 48, false, null, null],
    ]);
    expect(day.stderr).toContain('3 of 3 rows have no price at all, so no total');
    expect(day.stderr).toContain(`meter ${orphan} has no agreement with prices stored`);
    const [header, line] = month.stdout.trim().split('\n');
    const cells = Object.fromEntries(header!.split(',').map((c, i) => [c, line!.split(',')[i]]));
    expect([cells.month, cells.missing_prices, cells.total_gbp, cells.complete]).toEqual(['2023-10-01', '146', '', 'false']);
    expect(table.stdout).not.toMatch(/0\.00/);
  }, 60_000);

  it('a tariff priced for part of the range: the total of what is priced, complete false; a month with none: no total', async () => {
    // Agile J is stored only over its agreement (to 2023-09-01 local): September and October unpriced
    const run = await runCli(['cost', '--meter', IMPORT, '--tariff', AGILE, '--per', 'month', '--from', '2023-08-28', '--to', '2023-11-01',
      '--db', db, '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const rows = json(run.stdout);
    const brute = bruteDays(FROM_MS, TO_MS, AGILE);
    const august = brute.filter((d) => d.date.startsWith('2023-08'));
    expect(rows.map((r) => [r.month, r.missing_prices, r.complete])).toEqual([
      ['2023-08-01', 0, false], ['2023-09-01', 30 * 48, false], ['2023-10-01', 31 * 48 + 2, false],
    ]);
    expect(august.every((d) => d.missingPrices === 0)).toBe(true);
    expect(Math.abs(Number(rows[0]!.total_gbp) - pounds(august.reduce((n, d) => n + d.energy, 0)))).toBeLessThanOrEqual(0.005);
    expect([rows[1]!.total_gbp, rows[2]!.total_gbp]).toEqual([null, null]);
  }, 60_000);

  it('cost and compare with a tariff nothing is stored for exit 1 naming it, nothing on stdout', async () => {
    const [cost, compare] = await Promise.all([
      runCli(['cost', '--meter', IMPORT, '--tariff', 'E-1R-NOPE-99-A', '--db', db, '--format', 'json']),
      runCli(['compare', '--meter', IMPORT, '--tariff', VAR, '--tariff', 'E-1R-NOPE-99-A', '--from', '2023-09-01', '--to', '2023-10-01', '--db', db]),
    ]);
    for (const run of [cost, compare]) {
      expect([run.code, run.stdout]).toEqual([1, '']);
      expect(run.stderr).toContain('no prices stored for tariff E-1R-NOPE-99-A');
    }
  }, 60_000);
});

describe('a tariff of another fuel or direction is refused, never priced (item 3)', () => {
  it('cost, compare and the SQL macros refuse; exit 2 names the meter and the tariff with their fuel and direction', async () => {
    const gasCsv = join(dir, 'gas.csv');
    writeFileSync(gasCsv, ['interval_start,kwh', ...[...readings.keys()].slice(0, 96).map((ms) => `${new Date(ms).toISOString()},1.5`)].join('\n') + '\n');
    const exportCsv = join(dir, 'export.csv');
    writeFileSync(exportCsv, ['interval_start,kwh', ...[...readings.keys()].slice(0, 96).map((ms) => `${new Date(ms).toISOString()},0.5`)].join('\n') + '\n');
    for (const [file, meter, extra] of [[gasCsv, `${HOUSEHOLD.gasMprn}:${HOUSEHOLD.gasSerial}`, ['--gas']], [exportCsv, `${HOUSEHOLD.exportMpan}:${HOUSEHOLD.electricitySerial}`, ['--export']]] as const) {
      const imported = await runCli(['consumption', 'import', file, '--meter', meter, ...extra, '--db', db]);
      expect(imported.code, imported.stderr).toBe(0);
    }
    const range = ['--from', '2023-08-28', '--to', '2023-08-30', '--db', db];
    const OUTGOING = HOUSEHOLD.exportTariff;
    const [gasCompare, gasCost, importAtExport, exportAtImport, swapped, sql] = await Promise.all([
      runCli(['compare', '--meter', HOUSEHOLD.gasMprn, '--tariff', AGILE, ...range]),
      runCli(['cost', '--meter', HOUSEHOLD.gasMprn, '--tariff', AGILE, '--per', 'month', ...range]),
      runCli(['cost', '--meter', IMPORT, '--tariff', OUTGOING, ...range]),
      runCli(['compare', '--meter', `${HOUSEHOLD.exportMpan}:${HOUSEHOLD.electricitySerial}`, '--tariff', AGILE, ...range]),
      runCli(['cost', '--meter', HOUSEHOLD.exportMpan, '--export-meter', IMPORT, ...range]),
      runCli(['sql', '--db', db, `SELECT * FROM tariff_comparison('${HOUSEHOLD.gasMprn}', ['${AGILE}'], TIMESTAMPTZ '2023-08-28', TIMESTAMPTZ '2023-08-30')`]),
    ]);
    const refused = (run: typeof gasCompare, why: string) => {
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toContain(why);
    };
    refused(gasCompare, `--tariff: meter ${HOUSEHOLD.gasMprn} is a gas import meter; tariff ${AGILE} is an electricity import tariff`);
    refused(gasCost, `meter ${HOUSEHOLD.gasMprn} is a gas import meter; tariff ${AGILE} is an electricity import tariff`);
    refused(importAtExport, `meter ${IMPORT} is an electricity import meter; tariff ${OUTGOING} is an electricity export tariff`);
    refused(exportAtImport, `meter ${HOUSEHOLD.exportMpan} is an electricity export meter; tariff ${AGILE} is an electricity import tariff`);
    refused(swapped, `--meter: meter ${HOUSEHOLD.exportMpan} is an export meter`);
    // an analyst's own call is refused by the macro itself (a failed query: exit 1), never priced
    expect([sql.code, sql.stdout]).toEqual([1, '']);
    expect(sql.stderr).toContain(`meter ${HOUSEHOLD.gasMprn} is a gas import meter; tariff ${AGILE} is an electricity import tariff`);
    // what fits is still answered: the gas meter at its agreement, the export meter at its export tariff
    const [gasActual, exportActual] = await Promise.all([
      runCli(['cost', '--meter', HOUSEHOLD.gasMprn, ...range, '--format', 'json']),
      runCli(['compare', '--meter', HOUSEHOLD.exportMpan, '--tariff', OUTGOING, ...range, '--format', 'json']),
    ]);
    expect(gasActual.code, gasActual.stderr).toBe(0);
    expect(json(gasActual.stdout).map((r) => r.tariff_code)).toEqual([HOUSEHOLD.gasTariff, HOUSEHOLD.gasTariff]);
    expect(exportActual.code, exportActual.stderr).toBe(0);
    expect(json(exportActual.stdout).map((r) => r.scenario)).toEqual(['actual', OUTGOING]);
  }, 60_000);

  it('the export reports compare each meter only with tariffs of its fuel and direction', async () => {
    const out = join(dir, 'reports');
    const exported = await runCli(['export', '--out', out, '--format', 'csv', '--from', '2023-08-28', '--to', '2023-08-30', '--db', db]);
    expect(exported.code, exported.stderr).toBe(0);
    for (const file of ['tariff_comparison.csv', 'monthly_costs.csv']) {
      const [header, ...lines] = readFileSync(join(out, file), 'utf8').trim().split('\n');
      const col = header!.split(',').indexOf('scenario');
      const mp = header!.split(',').indexOf('meter_point');
      const scenarios = (meter: string) => [...new Set(lines.map((l) => l.split(',')).filter((c) => c[mp] === meter).map((c) => c[col]))].sort();
      // each meter's own agreement tariff is compared too
      expect(scenarios(HOUSEHOLD.gasMprn), file).toEqual([HOUSEHOLD.gasTariff, 'actual']);
      expect(scenarios(HOUSEHOLD.exportMpan), file).toEqual([HOUSEHOLD.exportTariff, 'actual']);
      expect(scenarios(IMPORT), file).toEqual([AGILE, VAR, 'actual'].sort());
    }
  }, 60_000);
});

describe('a mid-day --from/--to: the days whose local midnight lies in [from, to), whole (item 2)', () => {
  it('per day and per month, across the fall-back day, equal the brute force over whole days', async () => {
    // [2023-10-28 12:00, 2023-10-30 12:00) Europe/London holds the midnights of the 29th (50 half-hours) and the 30th
    const range = ['--from', '2023-10-28T12:00', '--to', '2023-10-30T12:00', '--db', db, '--format', 'json'];
    const [day, month, compare] = await Promise.all([
      runCli(['cost', '--meter', IMPORT, ...range]),
      runCli(['cost', '--meter', IMPORT, '--per', 'month', ...range]),
      runCli(['compare', '--meter', IMPORT, '--tariff', VAR, ...range]),
    ]);
    const brute = bruteDays(Date.parse('2023-10-28T23:00:00Z'), Date.parse('2023-10-31T00:00:00Z'));
    expect(brute.map((d) => [d.date, d.halfHours])).toEqual([['2023-10-29', 50], ['2023-10-30', 48]]);
    expect(day.code, day.stderr).toBe(0);
    const days = json(day.stdout);
    expect(days.map((r) => [r.local_date, r.half_hours, r.missing_readings, r.missing_prices])).toEqual(
      brute.map((d) => [d.date, d.halfHours, d.missingReadings, d.missingPrices]));
    days.forEach((r, i) => {
      expect(Math.abs(Number(r.energy_cost_inc_vat) - brute[i]!.energy)).toBeLessThanOrEqual(0.00005 + 1e-9);
      expect(Math.abs(Number(r.kwh) - brute[i]!.kwh)).toBeLessThanOrEqual(0.00005 + 1e-9);
    });
    const energy = brute.reduce((n, d) => n + d.energy, 0);
    expect(month.code, month.stderr).toBe(0);
    const [october] = json(month.stdout);
    expect([october!.month, october!.days, october!.half_hours, october!.missing_readings]).toEqual(['2023-10-01', 2, 98, 0]);
    expect(Math.abs(Number(october!.energy_cost_inc_vat) - energy)).toBeLessThanOrEqual(0.00005 + 1e-9);
    expect(compare.code, compare.stderr).toBe(0);
    const [actual, variable] = json(compare.stdout);
    expect([actual!.first_date, actual!.last_date, actual!.days, variable!.missing_readings]).toEqual(['2023-10-29', '2023-10-30', 2, 0]);
    expect(Math.abs(Number(variable!.energy_cost_inc_vat) - energy)).toBeLessThanOrEqual(0.00005 + 1e-9);
  }, 60_000);
});
