// `tariffs consumption import` of long files (meter_point[, serial], interval_start, kwh), CSV and
// Parquet, through the CLI as a process on a real warehouse file: many meters stored at once, a bad
// row names its line (or row) and column and stores nothing, re-import changes nothing, a
// correction is kept as a revision.
import { writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/runCli.js';
import { query, tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-long-import-');
afterAll(() => tmp.remove());

const HH = 1_800_000;
const START = Date.parse('2024-03-30T00:00:00Z'); // two days across the spring clock change
const METERS = ['1200000000001', '1200000000002', '1200000000003'];
const SLOTS = 94; // 48 + 46: the two local days
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const kwhOf = (meter: number, slot: number) => Math.round((0.1 + meter * 0.05 + (slot % 7) * 0.01) * 1000) / 1000;

function csv(name: string, lines: string[]): string {
  const file = tmp.file(name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Every meter's SLOTS half-hours; meter 2 has no serial cell, and one time in BST notation. */
function longLines(): string[] {
  const lines = ['meter_point,serial,interval_start,kwh'];
  METERS.forEach((mp, m) => {
    for (let s = 0; s < SLOTS; s++) {
      const ms = START + s * HH;
      const at = m === 1 && s === 60 ? '2024-03-31T07:00:00+01:00' : iso(ms);
      lines.push(`${mp},${m === 1 ? '' : `S${m}`},${at},${kwhOf(m, s)}`);
    }
  });
  return lines;
}

async function importFile(db: string, file: string, ...extra: string[]) {
  return runCli(['consumption', 'import', '--db', db, '--format', 'json', ...extra, file]);
}

const snapshot = async (db: string) => ({
  consumption: await query(db, 'SELECT meter_point, serial, interval_start, kwh, local_date, settlement_period, run_id FROM consumption ORDER BY ALL'),
  meters: await query(db, 'SELECT meter_point, fuel, is_export, serials FROM meter_points ORDER BY ALL'),
  revisions: await query(db, 'SELECT count(*) AS n FROM consumption_revisions'),
});

async function parquet(file: string, select: string): Promise<string> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`COPY (${select}) TO '${file}' (FORMAT parquet)`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return file;
}

let db: string;
let first: Record<string, unknown>;

beforeAll(async () => {
  db = tmp.file('w.duckdb');
  const result = await importFile(db, csv('long.csv', longLines()));
  expect(result.code, result.stderr).toBe(0);
  first = JSON.parse(result.stdout)[0];
}, 120_000);

describe('a long CSV of many meters', () => {
  it('stores every meter in one run, creating their meter points', async () => {
    expect(first).toMatchObject({
      layout: 'long-csv', meters: 3, rows: 3 * SLOTS, inserted: 3 * SLOTS, updated: 0, unchanged: 0,
      first_interval_start: '2024-03-30T00:00:00.000Z', last_interval_end: new Date(START + SLOTS * HH).toISOString(),
    });
    const rows = await query(db, `SELECT meter_point, serial, count(*) AS n, sum(kwh) AS kwh,
      count(DISTINCT local_date) AS days, max(settlement_period) FILTER (WHERE local_date = DATE '2024-03-31') AS last_period
      FROM consumption GROUP BY ALL ORDER BY meter_point`);
    expect(rows.map((r) => [r.meter_point, r.serial, r.n, r.days, r.last_period])).toEqual([
      ['1200000000001', 'S0', SLOTS, 2, 46], ['1200000000002', '', SLOTS, 2, 46], ['1200000000003', 'S2', SLOTS, 2, 46],
    ]);
    rows.forEach((r, m) => expect(Number(r.kwh)).toBeCloseTo(Array.from({ length: SLOTS }, (_, s) => kwhOf(m, s)).reduce((a, b) => a + b), 9));
    expect(await query(db, 'SELECT meter_point, fuel, is_export, serials FROM meter_points ORDER BY 1')).toEqual([
      { meter_point: '1200000000001', fuel: 'electricity', is_export: false, serials: ['S0'] },
      { meter_point: '1200000000002', fuel: 'electricity', is_export: false, serials: [''] },
      { meter_point: '1200000000003', fuel: 'electricity', is_export: false, serials: ['S2'] },
    ]);
  });

  it('re-imported changes nothing', async () => {
    const before = await snapshot(db);
    const again = await importFile(db, tmp.file('long.csv'));
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)[0]).toMatchObject({ inserted: 0, updated: 0, unchanged: 3 * SLOTS });
    expect(await snapshot(db)).toEqual(before);
  });

  it('with a bad row fails naming the line and the column, and stores nothing', async () => {
    const good = longLines();
    const cases: [string, (lines: string[]) => void, RegExp][] = [
      ['time.csv', (l) => { l[10] = `${METERS[0]},S0,2024-03-30 04:30,0.2`; },
        /time\.csv: line 11, column 'interval_start': '2024-03-30 04:30' is not an ISO 8601 date-time with an offset/],
      ['quarter.csv', (l) => { l[20] = `${METERS[0]},S0,2024-03-30T09:15:00Z,0.2`; },
        /quarter\.csv: line 21, column 'interval_start': '2024-03-30T09:15:00Z' does not start a half-hour/],
      ['negative.csv', (l) => { l[150] = l[150]!.replace(/,[^,]*$/, ',-0.5'); }, /negative\.csv: line 151, column 'kwh': '-0\.5' is negative/],
      ['empty.csv', (l) => { l[200] = l[200]!.replace(/,[^,]*$/, ','); }, /empty\.csv: line 201, column 'kwh': is empty/],
      ['word.csv', (l) => { l[5] = l[5]!.replace(/,[^,]*$/, ',abc'); }, /word\.csv: line 6, column 'kwh': 'abc' is not a number/],
      ['twice.csv', (l) => { l.push(`${METERS[2]},S2,2024-03-30T01:00:00+00:00,9`); },
        new RegExp(`twice\\.csv: line ${good.length + 2}, column 'interval_start': the half-hour 2024-03-30T01:00:00Z of meter ${METERS[2]}:S2 is already on line ${2 * SLOTS + 5}`)],
      ['fields.csv', (l) => { l[7] = `${l[7]},extra`; }, /fields\.csv: line 8: 5 fields, the header has 4/],
    ];
    const before = await snapshot(db);
    for (const [name, spoil, message] of cases) {
      const lines = longLines();
      lines.splice(1, 0, ''); // a blank line: lines are counted in the file, as an editor shows them
      spoil(lines);
      const result = await importFile(db, csv(name, lines));
      expect(result.code, `${name}: ${result.stderr}`).toBe(1);
      expect(result.stderr.trim().split('\n'), name).toHaveLength(1);
      expect(result.stderr, name).toMatch(message);
    }
    expect(await snapshot(db)).toEqual(before);
  });

  it('refuses a meter point or serial that is only part of its cell, and stores nothing', async () => {
    const before = await snapshot(db);
    const cases: [string, (lines: string[]) => void, RegExp][] = [
      ['meter.csv', (l) => { l[30] = l[30]!.replace(METERS[0]!, `MPAN ${METERS[0]}`); },
        /meter\.csv: line 31, column 'meter_point': 'MPAN 1200000000001' is not an MPAN or MPRN/],
      ['serial.csv', (l) => { l[40] = l[40]!.replace(',S0,', ',S0 (old),'); }, /serial\.csv: line 41, column 'serial': 'S0 \(old\)' is not a meter serial/],
    ];
    const results = await Promise.all(cases.map(([name, spoil]) => {
      const lines = longLines();
      spoil(lines);
      return importFile(db, csv(name, lines));
    }));
    cases.forEach(([name, , message], i) => {
      expect(results[i]!.code, `${name}: ${results[i]!.stderr}`).toBe(1);
      expect(results[i]!.stderr, name).toMatch(message);
    });
    expect(await snapshot(db)).toEqual(before);
  });

  it('with a changed reading keeps the old one as a revision', async () => {
    const lines = ['meter_point,serial,interval_start,kwh', `${METERS[2]},S2,${iso(START + 3 * HH)},7.25`, `${METERS[2]},S2,${iso(START + 4 * HH)},${kwhOf(2, 4)}`];
    const result = await importFile(db, csv('fix.csv', lines));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ inserted: 0, updated: 1, unchanged: 1 });
    expect(await query(db, 'SELECT meter_point, serial, interval_start, old_kwh, new_kwh, old_source, new_source FROM consumption_revisions')).toEqual([
      { meter_point: METERS[2], serial: 'S2', interval_start: iso(START + 3 * HH), old_kwh: kwhOf(2, 3), new_kwh: 7.25, old_source: 'file', new_source: 'file' },
    ]);
  });

  it('refuses --meter, --unit m3, and a one-meter CSV without --meter (bad usage)', async () => {
    const withMeter = await importFile(db, tmp.file('long.csv'), '--meter', `${METERS[0]}:S0`);
    expect(withMeter.code).toBe(2);
    expect(withMeter.stderr).toContain('--meter: ');
    const m3 = await importFile(db, tmp.file('long.csv'), '--gas', '--unit', 'm3');
    expect(m3.code).toBe(2);
    expect(m3.stderr).toContain('--unit m3: ');
    const plain = await importFile(db, csv('plain.csv', ['interval_start,kwh', '2024-01-01T00:00:00Z,1']));
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('--meter MPAN:SERIAL is required for a one-meter CSV (');
  });

  it('from stdin, with --export for every meter of the file', async () => {
    const exportDb = tmp.file('export.duckdb');
    const input = `meter_point,interval_start,kwh\n1400000000001,${iso(START)},1\n1400000000002,${iso(START)},2\n`;
    const result = await runCli(['consumption', 'import', '-', '--export', '--db', exportDb, '--format', 'json'], { input });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ layout: 'long-csv', meters: 2, inserted: 2 });
    expect((await query(exportDb, 'SELECT bool_and(is_export) AS all_export FROM meter_points'))[0]!.all_export).toBe(true);
  });
});

describe('a long Parquet file', () => {
  it('is stored like a CSV (typed or text columns); a bad row is named by its row and column', async () => {
    const pq = tmp.file('p.duckdb');
    const good = await parquet(tmp.file('long.parquet'), `
      SELECT '150000000000' || (i % 4) AS meter_point, TIMESTAMPTZ '2024-06-01 00:00:00+00' + INTERVAL 30 MINUTE * (i // 4) AS interval_start,
             CAST(0.25 + (i % 4) AS DOUBLE) AS kwh
      FROM range(400) AS t(i)`);
    const result = await importFile(pq, good);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ layout: 'long-parquet', meters: 4, rows: 400, inserted: 400 });
    const again = await importFile(pq, good);
    expect(JSON.parse(again.stdout)[0]).toMatchObject({ inserted: 0, updated: 0, unchanged: 400 });
    const text = await parquet(tmp.file('text.parquet'), `
      SELECT 1600000000000 + (i % 2) AS meter_point, 'X' || (i % 2) AS serial,
             strftime(TIMESTAMP '2024-06-01 00:00:00' + INTERVAL 30 MINUTE * (i // 2), '%Y-%m-%dT%H:%M:%S+00:00') AS interval_start,
             CAST(i AS VARCHAR) AS kwh
      FROM range(10) AS t(i)`);
    const textResult = await importFile(pq, text);
    expect(textResult.code, textResult.stderr).toBe(0);
    expect(JSON.parse(textResult.stdout)[0]).toMatchObject({ meters: 2, rows: 10, inserted: 10 });
    const before = await snapshot(pq);
    const bad = await parquet(tmp.file('bad.parquet'), `
      SELECT '1700000000001' AS meter_point, TIMESTAMPTZ '2024-06-01 00:00:00+00' + INTERVAL 30 MINUTE * i AS interval_start,
             CASE WHEN i = 57 THEN -1.0 ELSE 1.0 END AS kwh
      FROM range(100) AS t(i)`);
    const refused = await importFile(pq, bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/bad\.parquet: row 58, column 'kwh': '-1(\.0)?' is negative/);
    const naive = await parquet(tmp.file('naive.parquet'), `SELECT '1700000000001' AS meter_point, TIMESTAMP '2024-06-01 00:00:00' AS interval_start, 1.0 AS kwh`);
    const noZone = await importFile(pq, naive);
    expect(noZone.code).toBe(1);
    expect(noZone.stderr).toContain("naive.parquet: schema, column 'interval_start': is TIMESTAMP; expected TIMESTAMP WITH TIME ZONE");
    expect(await snapshot(pq)).toEqual(before);
  });
});
