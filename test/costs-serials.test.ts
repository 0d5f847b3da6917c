// A meter point read by two serials (two meters on one supply): portfolio_pricing sums their
// readings per half-hour, 'MPAN:SERIAL' prices one serial's alone, and a one-serial meter beside
// it in the same statement is priced from its own readings.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Warehouse } from '../src/store/Warehouse.js';

const TWO = '1300000000001';
const ONE = '1300000000002';
const TARIFF = 'E-1R-TEST-SERIALS-J';
const FROM = '2023-06-01T00:00:00+01:00';
const TO = '2023-06-03T00:00:00+01:00';
let dir: string;
let warehouse: Warehouse;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tariffs-serials-'));
  warehouse = await Warehouse.open(join(dir, 'serials.duckdb'));
  const slots = `(SELECT s, london_local(s) AS l, i FROM (SELECT CAST($from AS TIMESTAMPTZ) + to_minutes(30 * i) AS s, i FROM range(96) AS r(i)))`;
  await warehouse.run(`INSERT INTO unit_rates
    SELECT $tariff, 'standard', s, s + INTERVAL 30 MINUTE, 10 + i % 7, round((10 + i % 7) * 1.05, 4), NULL, l.local_date, 1,
           l.local_start, l.utc_offset_minutes, l.settlement_period, 1800000000 FROM ${slots}`, { tariff: TARIFF, from: FROM });
  await warehouse.run(`INSERT INTO standing_charges VALUES ($tariff, TIMESTAMPTZ '2020-01-01 00:00:00+00', NULL, 40, 42, 'DIRECT_DEBIT', DATE '2020-01-01', 1)`, { tariff: TARIFF });
  for (const [mp, serials] of [[TWO, ['A1', 'B2']], [ONE, ['C3']]] as const) {
    await warehouse.run(`INSERT INTO meter_points VALUES ($mp, 'electricity', false, CAST($serials AS VARCHAR[]), NULL, now(), now())`, { mp, serials: JSON.stringify(serials) });
    await warehouse.run(`INSERT INTO agreements VALUES ($mp, $tariff, CAST($from AS TIMESTAMPTZ), NULL, NULL, now())`, { mp, tariff: TARIFF, from: FROM });
    for (const [k, serial] of serials.entries()) {
      // serial B2 reads only the second day; every kWh differs by serial and half-hour
      await warehouse.run(`INSERT INTO consumption
        SELECT $mp, $serial, s, s + INTERVAL 30 MINUTE, l.local_date, l.settlement_period, 0.1 * (k + 1) + i / 1000, 0.1 * (k + 1) + i / 1000,
               'kWh', 'file', NULL, NULL, 1
        FROM ${slots}, (SELECT CAST($k AS INTEGER) AS k) WHERE $serial <> 'B2' OR i >= 48`, { mp, serial, k, from: FROM });
    }
  }
}, 60_000);

afterAll(() => {
  warehouse?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('sums a meter point\'s serials per half-hour, prices MPAN:SERIAL alone, and its neighbour from its own readings', async () => {
  const priced = (meters: string[]) => warehouse.all(`
    SELECT meter_point, count(*) AS half_hours, sum(kwh) AS kwh, sum(cost_inc_vat) AS cost, count(*) FILTER (WHERE NOT has_reading) AS unread
    FROM portfolio_pricing(['actual'], CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ), meters := CAST($meters AS VARCHAR[]))
    GROUP BY meter_point ORDER BY meter_point`, { from: FROM, to: TO, meters: JSON.stringify(meters) });
  const expected = await warehouse.all(`
    SELECT meter_point, sum(c.kwh) AS kwh, sum(c.kwh * u.value_inc_vat) AS cost
    FROM consumption AS c JOIN unit_rates AS u ON u.valid_from = c.interval_start
    GROUP BY meter_point ORDER BY meter_point`);
  const both = await priced([TWO, ONE]);
  expect(both.map((r) => [r.meter_point, Number(r.half_hours), Number(r.unread)])).toEqual([[TWO, 96, 0], [ONE, 96, 0]]);
  for (const [i, row] of both.entries()) {
    expect(Number(row.kwh)).toBeCloseTo(Number(expected[i]!.kwh), 9);
    expect(Number(row.cost)).toBeCloseTo(Number(expected[i]!.cost), 9);
  }
  const one = await priced([`${TWO}:B2`]);
  expect(Number(one[0]!.unread)).toBe(48);
  const b2 = await warehouse.one(`SELECT sum(kwh) AS kwh FROM consumption WHERE serial = 'B2'`);
  expect(Number(one[0]!.kwh)).toBeCloseTo(Number(b2!.kwh), 9);
});
