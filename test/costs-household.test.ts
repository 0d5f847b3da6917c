// Money you can trust (issue 26) on the sandbox household (test/helpers/household.ts): the account
// ingested with --no-consumption keeps its agreements, a mid-day --from/--to counts whole days,
// unpriced is never 0.00, and what a comparison rests on is said next to it. `tariffs cost` and
// `tariffs compare` run as child processes of the built CLI; every figure is checked against the
// brute force over the raw rows, across the agreement switch and the 2023 fall-back day.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSEHOLD } from '../src/sandbox/loadSandboxData.js';
import { runCli } from './helpers/runCli.js';
import {
  HH, IMPORT, AGILE, VAR, FROM_MS, TO_MS, readings, agreementAt, json, pounds, priceOf, bruteDays, supplierCsv, query, state, setUpHousehold, tearDownHousehold,
} from './helpers/household.js';

beforeAll(setUpHousehold, 120_000);
afterAll(tearDownHousehold);

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
    expect(state.rates.some((r) => r.tariff_code === AGILE) && state.rates.some((r) => r.tariff_code === VAR)).toBe(true);

    const run = await runCli(['cost', '--meter', IMPORT, '--from', '2023-08-28', '--to', '2023-11-01', '--db', state.db, '--format', 'json']);
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
    const csv = join(state.dir, 'orphan.csv');
    writeFileSync(csv, supplierCsv());
    const imported = await runCli(['consumption', 'import', csv, '--meter', `${orphan}:X1`, '--db', state.db]);
    expect(imported.code, imported.stderr).toBe(0);
    const range = ['--from', '2023-10-28', '--to', '2023-10-31'];
    const [day, month, table] = await Promise.all([
      runCli(['cost', '--meter', orphan, ...range, '--db', state.db, '--format', 'json']),
      runCli(['cost', '--meter', orphan, '--per', 'month', ...range, '--db', state.db, '--format', 'csv']),
      runCli(['cost', '--meter', orphan, ...range, '--db', state.db, '--format', 'table'], { env: { COLUMNS: '200' } }),
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
      '--db', state.db, '--format', 'json']);
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
      runCli(['cost', '--meter', IMPORT, '--tariff', 'E-1R-NOPE-99-A', '--db', state.db, '--format', 'json']),
      runCli(['compare', '--meter', IMPORT, '--tariff', VAR, '--tariff', 'E-1R-NOPE-99-A', '--from', '2023-09-01', '--to', '2023-10-01', '--db', state.db]),
    ]);
    for (const run of [cost, compare]) {
      expect([run.code, run.stdout]).toEqual([1, '']);
      expect(run.stderr).toContain('no prices stored for tariff E-1R-NOPE-99-A');
    }
  }, 60_000);
});

describe('a mid-day --from/--to: the days whose local midnight lies in [from, to), whole (item 2)', () => {
  it('per day and per month, across the fall-back day, equal the brute force over whole days', async () => {
    // [2023-10-28 12:00, 2023-10-30 12:00) Europe/London holds the midnights of the 29th (50 half-hours) and the 30th
    const range = ['--from', '2023-10-28T12:00', '--to', '2023-10-30T12:00', '--db', state.db, '--format', 'json'];
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

describe('what a comparison rests on is said next to it (item 5)', () => {
  it('carried prices and missing standing charges: counted, in caveats and on stderr, matching the raw rates', async () => {
    const run = await runCli(['compare', '--meter', IMPORT, '--tariff', VAR, '--tariff', AGILE, '--from', '2023-08-28', '--to', '2023-08-31',
      '--db', state.db, '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const [actual, variable, agile] = json(run.stdout);
    // brute force: half-hours priced by a rate without an end (the last published), from the raw unit_rates
    const open = (tariff: string) => state.rates.filter((r) => r.tariff_code === tariff && r.valid_to === null);
    expect(open(AGILE)).toEqual([]);
    const [varOpen] = open(VAR);
    const halfHours: number[] = [];
    for (let ms = FROM_MS; ms < Date.parse('2023-08-30T23:00:00Z'); ms += HH) halfHours.push(ms);
    const carriedOf = (tariffAt: (ms: number) => string) =>
      halfHours.filter((ms) => tariffAt(ms) === VAR && ms >= Date.parse(varOpen!.valid_from) && priceOf(VAR, ms) !== undefined).length;
    expect(carriedOf(() => VAR)).toBe(3 * 48);
    expect([variable!.carried_half_hours, variable!.carried_from]).toEqual([carriedOf(() => VAR), '2020-11-01']);
    expect([agile!.carried_half_hours, agile!.carried_from]).toEqual([0, null]);
    expect(actual!.carried_half_hours).toBe(carriedOf(agreementAt)); // Agile J until the switch: none in these days
    expect(variable!.caveats).toBe('prices of 144 of 144 half-hours carried from the last published rate (open-ended, from 2020-11-01); ' +
      'no standing charge stored for 3 of 3 days (energy only)');
    expect(agile!.caveats).toBe('no standing charge stored for 3 of 3 days (energy only)');
    expect(run.stderr).toContain(`tariffs: ${VAR}: prices of 144 of 144 half-hours carried from the last published rate (open-ended, from 2020-11-01)`);
    expect(run.stderr).not.toContain(`tariffs: ${AGILE}: prices`);

    // per day: the days after the switch are priced at the variable tariff's carried rate
    const days = await runCli(['cost', '--meter', IMPORT, '--from', '2023-08-31', '--to', '2023-09-03', '--db', state.db, '--format', 'json']);
    expect(days.code, days.stderr).toBe(0);
    const rows = json(days.stdout);
    const dayStart = (d: string) => Date.parse(`${d}T00:00:00+01:00`);
    expect(rows.map((r) => [r.local_date, r.carried_half_hours])).toEqual(['2023-08-31', '2023-09-01', '2023-09-02'].map((d) => {
      let n = 0;
      for (let ms = dayStart(d); ms < dayStart(d) + 48 * HH; ms += HH) if (agreementAt(ms) === VAR && ms >= Date.parse(varOpen!.valid_from)) n++;
      return [d, n];
    }));
    expect(rows[0]!.carried_half_hours).toBe(0);
    expect(days.stderr).toContain('tariffs: prices of 96 of 144 half-hours carried from the last published rate (open-ended, from 2020-11-01)');
  }, 60_000);
});
