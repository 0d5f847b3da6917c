// `tariffs consumption import` refuses a file with a half-hour twice (however its offset writes
// it) or a Start off the half-hour: exit 1, one line naming the line and the column, and nothing
// of the file stored; a Start on the half-hour in any offset is accepted.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/runCli.js';
import { query, tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-consumption-csv-');
afterAll(() => tmp.remove());

const HEADER = 'Consumption (kwh), Estimated Cost Inc. Tax (p), Standing Charge Inc. Tax (p), Start, End';
const METER = '1200000000001:S1';

function csv(name: string, rows: string[]): string {
  const file = tmp.file(name);
  writeFileSync(file, `${[HEADER, ...rows].join('\n')}\n`);
  return file;
}

/** The readings stored for one UTC day (each test's file has a day of its own). */
const storedOn = async (day: string) =>
  (await query(db, `SELECT interval_start AS s, kwh AS v FROM consumption WHERE CAST(interval_start AT TIME ZONE 'UTC' AS DATE) = DATE '${day}' ORDER BY interval_start`));

async function importFile(db: string, file: string) {
  return runCli(['consumption', 'import', '--db', db, '--meter', METER, '--format', 'json', file]);
}

let db: string;

beforeAll(async () => {
  db = tmp.file('w.duckdb');
  const good = await importFile(db, csv('good.csv', [
    '0.5,10,,2024-01-01T00:00:00+00:00,2024-01-01T00:30:00+00:00',
    // on the half-hour in offsets of 5:30 and 5:45 (00:30 and 01:00 UTC)
    '0.6,10,,2024-01-01T06:00:00+05:30,2024-01-01T06:30:00+05:30',
    '0.7,10,,2024-01-01T06:45:00+05:45,2024-01-01T07:15:00+05:45',
  ]));
  expect(good.code, good.stderr).toBe(0);
  expect((await storedOn('2024-01-01')).map((r) => r.v)).toEqual([0.5, 0.6, 0.7]);
}, 120_000);

describe('a consumption CSV', () => {
  it('with a half-hour twice is refused, naming both lines, and nothing of it is stored', async () => {
    const result = await importFile(db, csv('duplicate.csv', [
      '1.5,10,,2024-01-02T00:00:00+00:00,2024-01-02T00:30:00+00:00',
      '1.6,10,,2024-01-02T00:30:00+00:00,2024-01-02T01:00:00+00:00',
      '1.7,10,,2024-01-02T00:00:00+00:00,2024-01-02T00:30:00+00:00',
    ]));
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/duplicate\.csv: line 4, column 'Start': the half-hour '2024-01-02T00:00:00\+00:00' is already on line 2/);
    expect(await storedOn('2024-01-02')).toEqual([]);
  });

  it('with a half-hour twice in two offsets (the same instant) is refused', async () => {
    const result = await importFile(db, csv('duplicate-offsets.csv', [
      '1.5,10,,2024-03-31T00:00:00+00:00,2024-03-31T00:30:00+00:00',
      '1.6,10,,2024-03-31T01:00:00+01:00,2024-03-31T01:30:00+01:00',
    ]));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/line 3, column 'Start': the half-hour '2024-03-31T01:00:00\+01:00' is already on line 2/);
    expect(await storedOn('2024-03-31')).toEqual([]);
  });

  it('with a Start off the half-hour is refused, naming the line and the column', async () => {
    for (const [name, start, end] of [
      ['quarter.csv', '2024-01-03T00:15:00+00:00', '2024-01-03T00:45:00+00:00'],
      ['second.csv', '2024-01-03T00:30:01+00:00', '2024-01-03T01:00:01+00:00'],
      ['offset.csv', '2024-01-03T06:00:00+05:45', '2024-01-03T06:30:00+05:45'],
    ] as const) {
      const result = await importFile(db, csv(name, ['1.5,10,,2024-01-03T00:00:00+00:00,2024-01-03T00:30:00+00:00', `1.6,10,,${start},${end}`]));
      expect(result.code, name).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(`${name}: line 3, column 'Start': '${start}' does not start a half-hour`);
      expect(await storedOn('2024-01-03')).toEqual([]);
    }
  });
});
