// `tariffs agreements import` through the CLI on a real warehouse file: a mid-year switch in a CSV
// file makes daily_costs/half_hour_costs (tariff NULL) price each half of the year under its
// agreement; re-import changes nothing; bad or overlapping rows store nothing; Parquet works too.
import { writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnitRate } from '../src/api/schemas.js';
import { startRun } from '../src/store/ingestRuns.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { prepareStaging, stagedRates, writeRateBatch } from '../src/store/writeRates.js';
import { runCli } from './helpers/runCli.js';
import { query, tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-agreements-import-');
afterAll(() => tmp.remove());

const FIRST = 'E-1R-TESTA-24-01-01-C'; // 10 p/kWh, 40 p a day
const SECOND = 'E-1R-TESTB-24-01-01-C'; // 20 p/kWh, 50 p a day
const MP = '1200000000001';
const OTHER = '1200000000002';
const HEADER = 'meter_point,tariff_code,valid_from,valid_to';
const SWITCH = '2024-07-01T00:00:00+01:00';

const flat = (value: number): UnitRate[] => [{
  valid_from: '2023-01-01T00:00:00Z', valid_to: null, value_inc_vat: value, value_exc_vat: value / 1.05, payment_method: null,
}];

function file(name: string, lines: string[]): string {
  const path = tmp.file(name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const agreementsCli = (db: string, path: string) => runCli(['agreements', 'import', '--db', db, '--format', 'json', path]);
const stored = (db: string) => query(db, 'SELECT meter_point, tariff_code, valid_from, valid_to, seen_at FROM agreements ORDER BY ALL');

let db: string;

beforeAll(async () => {
  db = tmp.file('w.duckdb');
  const warehouse = await Warehouse.open(db);
  try {
    await prepareStaging(warehouse);
    const runId = await startRun(warehouse, 'test', new Date());
    const window = { from: new Date('2023-01-01T00:00:00Z'), until: new Date('2025-01-01T00:00:00Z') };
    for (const [tariff, rate, standing] of [[FIRST, 10, 40], [SECOND, 20, 50]] as const) {
      await writeRateBatch(warehouse, { tariffCode: tariff, kind: 'standard', runId, rates: stagedRates(flat(rate)), window });
      await writeRateBatch(warehouse, { tariffCode: tariff, kind: 'standing_charge', runId, rates: stagedRates(flat(standing)), window });
    }
  } finally {
    warehouse.close();
  }
  // A day of readings in March (GMT) and one in September (BST): 0.5 kWh every half-hour.
  const lines = ['meter_point,interval_start,kwh'];
  for (const day of ['2024-03-12T00:00:00Z', '2024-09-12T00:00:00+01:00']) {
    for (let s = 0; s < 48; s++) lines.push(`${MP},${new Date(Date.parse(day) + s * 1_800_000).toISOString()},0.5`);
  }
  const consumption = await runCli(['consumption', 'import', '--db', db, '--format', 'json', file('readings.csv', lines)]);
  expect(consumption.code, consumption.stderr).toBe(0);
}, 120_000);

describe('an agreements file with a mid-year switch', () => {
  it('is stored, and the cost macros price each half of the year under its agreement', async () => {
    const result = await agreementsCli(db, file('agreements.csv', [
      HEADER, `${MP},${FIRST},2024-01-01T00:00:00Z,${SWITCH}`, `${MP},${SECOND},${SWITCH},`, `${OTHER},${SECOND},2024-02-01T00:00:00Z,`,
    ]));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)[0]).toEqual({
      layout: 'csv', rows: 3, meters: 2, meters_replaced: 2, meters_unchanged: 0, meter_points_added: 1,
    });
    expect((await stored(db)).map((r) => [r.meter_point, r.tariff_code, r.valid_from, r.valid_to])).toEqual([
      [MP, FIRST, '2024-01-01T00:00:00Z', '2024-06-30T23:00:00Z'],
      [MP, SECOND, '2024-06-30T23:00:00Z', null],
      [OTHER, SECOND, '2024-02-01T00:00:00Z', null],
    ]);
    expect(await query(db, `SELECT fuel, is_export, serials FROM meter_points WHERE meter_point = '${OTHER}'`))
      .toEqual([{ fuel: 'electricity', is_export: false, serials: [] }]);
    const days = await query(db, `
      SELECT local_date, kwh, energy_cost_inc_vat, standing_charge_inc_vat
      FROM daily_costs('${MP}', NULL, TIMESTAMPTZ '2024-03-12 00:00:00+00', TIMESTAMPTZ '2024-03-13 00:00:00+00')
      UNION ALL
      SELECT local_date, kwh, energy_cost_inc_vat, standing_charge_inc_vat
      FROM daily_costs('${MP}', NULL, TIMESTAMPTZ '2024-09-12 00:00:00+01', TIMESTAMPTZ '2024-09-13 00:00:00+01')
      ORDER BY local_date`);
    expect(days.map((d) => [d.local_date, d.kwh, Number(d.energy_cost_inc_vat), d.standing_charge_inc_vat]))
      .toEqual([['2024-03-12', 24, 240, 40], ['2024-09-12', 24, 480, 50]]);
    const tariffs = await query(db, `
      SELECT tariff_code, count(*) AS n, sum(cost_inc_vat) AS cost
      FROM half_hour_costs('${MP}', NULL, TIMESTAMPTZ '2024-03-12 00:00:00+00', TIMESTAMPTZ '2024-09-13 00:00:00+01')
      WHERE has_reading GROUP BY ALL ORDER BY 1`);
    expect(tariffs.map((t) => [t.tariff_code, t.n, Number(t.cost)])).toEqual([[FIRST, 48, 240], [SECOND, 48, 480]]);
  });

  it('re-imported changes nothing', async () => {
    const before = await stored(db);
    const again = await agreementsCli(db, tmp.file('agreements.csv'));
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)[0]).toMatchObject({ meters_replaced: 0, meters_unchanged: 2, meter_points_added: 0 });
    expect(await stored(db)).toEqual(before);
  });

  it('with a bad or overlapping row fails naming the line and the column, and stores nothing', async () => {
    const before = { agreements: await stored(db), meters: await query(db, 'SELECT * FROM meter_points ORDER BY ALL') };
    const cases: [string, string[], string][] = [
      ['overlap.csv', [`${MP},${FIRST},2024-01-01T00:00:00Z,2024-08-01T00:00:00Z`, `${MP},${SECOND},${SWITCH},`],
        "overlap.csv: line 3, column 'valid_from': this agreement and the one on line 2 are in force at once"],
      ['backwards.csv', [`${MP},${FIRST},2024-01-01T00:00:00Z,2023-01-01T00:00:00Z`], "backwards.csv: line 2, column 'valid_to': '2023-01-01T00:00:00Z' is not after valid_from"],
      ['nozone.csv', [`1299999999999,${FIRST},2024-01-01T00:00:00Z,`, `${MP},${FIRST},2024-01-01 00:00,`],
        "nozone.csv: line 3, column 'valid_from': '2024-01-01 00:00' is not an ISO 8601 date-time with an offset"],
      ['code.csv', [`${MP},agile,2024-01-01T00:00:00Z,`], "code.csv: line 2, column 'tariff_code': 'agile' is not a tariff code"],
      ['fuel.csv', [`1299999999999,${FIRST},2024-01-01T00:00:00Z,`, `${MP},G-1R-TESTG-24-01-01-C,2024-01-01T00:00:00Z,`],
        "fuel.csv: line 3, column 'tariff_code': meter 1200000000001 is an electricity import meter; tariff G-1R-TESTG-24-01-01-C is a gas import tariff"],
    ];
    for (const [name, rows, message] of cases) {
      const result = await agreementsCli(db, file(name, [HEADER, ...rows]));
      expect(result.code, `${name}: ${result.stderr}`).toBe(1);
      expect(result.stderr.trim().split('\n'), name).toHaveLength(1);
      expect(result.stderr, name).toContain(message);
    }
    const missing = await agreementsCli(db, file('columns.csv', ['meter_point,tariff_code,valid_from', `${MP},${FIRST},2024-01-01T00:00:00Z`]));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("columns.csv: line 1: no column 'valid_to'");
    expect({ agreements: await stored(db), meters: await query(db, 'SELECT * FROM meter_points ORDER BY ALL') }).toEqual(before);
  });

  it('refuses an agreement in force for no time (valid_to = valid_from, in another offset), and stores nothing', async () => {
    const before = await stored(db);
    const result = await agreementsCli(db, file('empty.csv', [HEADER, `${MP},${FIRST},2024-01-01T00:00:00Z,2024-01-01T01:00:00+01:00`]));
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain("empty.csv: line 2, column 'valid_to': '2024-01-01T01:00:00+01:00' is not after valid_from");
    expect(await stored(db)).toEqual(before);
  });

  it('from Parquet replaces the agreements of the meters it names', async () => {
    const path = tmp.file('agreements.parquet');
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(`COPY (SELECT '${OTHER}' AS meter_point, '${FIRST}' AS tariff_code,
      TIMESTAMPTZ '2024-02-01 00:00:00+00' AS valid_from, CAST(NULL AS TIMESTAMPTZ) AS valid_to) TO '${path}' (FORMAT parquet)`);
    connection.closeSync();
    instance.closeSync();
    const result = await agreementsCli(db, path);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ layout: 'parquet', rows: 1, meters_replaced: 1 });
    expect((await stored(db)).map((r) => [r.meter_point, r.tariff_code])).toEqual([[MP, FIRST], [MP, SECOND], [OTHER, FIRST]]);
  });
});
