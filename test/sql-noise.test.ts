// `tariffs sql` prints no float noise (issue 26, item 7): the README's own first SQL example
// (the cheapest 2 hours of each night, 23:00-07:00, Agile J, 2024-05-13/14) printed
// 8.323875000000001; DOUBLEs now print to 12 significant digits, equal to a brute-force mean over
// the raw unit_rates rows, while DECIMALs and integers print exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { runCli } from './helpers/runCli.js';
import { ingest, query, tempDir } from './helpers/warehouseTools.js';

const J = 'E-1R-AGILE-18-02-21-J';
const tmp = tempDir('tariffs-sql-noise-');
const db = tmp.file('w.duckdb');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox();
  const summary = await ingest(db, sandbox.baseUrl, { tariffs: [J], from: new Date('2024-05-12T00:00:00Z'), to: new Date('2024-05-15T23:00:00Z') });
  expect(summary.status).toBe('ok');
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  tmp.remove();
});

/** Significant digits of a number as JSON/CSV print it. */
const significant = (text: string) => text.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').length;

describe('tariffs sql', () => {
  it("the README's first example: 8.323875, not 8.323875000000001, in csv, json and table; equal to the brute force", async () => {
    const example = `SELECT local_date, local_start, local_end, mean_inc_vat
      FROM cheapest_window_in_band('${J}', 4, 23 * 60, 7 * 60, TIMESTAMPTZ '2024-05-13 00:00:00Z', TIMESTAMPTZ '2024-05-15 00:00:00Z')`;
    const sql = (format: string) => runCli(['sql', '--db', db, '--format', format, example]);
    const [csv, json, table] = await Promise.all([sql('csv'), sql('json'), sql('table')]);
    for (const run of [csv, json, table]) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toMatch(/\d\.\d{13,}/);
    }
    const rows = JSON.parse(json.stdout) as { local_start: string; local_end: string; mean_inc_vat: number }[];
    expect(rows.map((r) => r.mean_inc_vat)).toEqual([9.6075, 8.323875]);
    expect(csv.stdout).toContain(',8.323875\n');
    // brute force: the mean of the raw half-hourly rates inside each window
    const rates = await query(db, `SELECT valid_from, value_inc_vat FROM unit_rates WHERE tariff_code = '${J}'`);
    for (const row of rows) {
      const [from, to] = [Date.parse(row.local_start), Date.parse(row.local_end)];
      const inside = rates.filter((r) => Date.parse(String(r.valid_from)) >= from && Date.parse(String(r.valid_from)) < to).map((r) => Number(r.value_inc_vat));
      expect(inside).toHaveLength(4);
      const mean = inside.reduce((a, b) => a + b, 0) / inside.length;
      expect(Math.abs(row.mean_inc_vat - mean)).toBeLessThan(1e-9);
    }
  }, 60_000);

  it('means of the documented views and macros print at most 12 significant digits; DECIMALs and integers exactly', async () => {
    const run = await runCli(['sql', '--db', db, '--format', 'json', `
      SELECT d.mean_inc_vat, d.median_inc_vat, d.p10_inc_vat, d.p90_inc_vat, d.peak_mean_inc_vat, d.off_peak_mean_inc_vat, d.mean_exc_vat,
             r.mean_inc_vat AS region_mean, c.mean_inc_vat AS coverage_mean,
             CAST(8.323875000000001 AS DECIMAL(18, 15)) AS exact_decimal, 9007199254740991 AS big_integer, 1e-12 AS tiny
      FROM daily_stats AS d, region_comparison('AGILE-18-02-21', NULL, NULL) AS r,
           range_coverage('${J}', TIMESTAMPTZ '2024-05-13 00:00:00Z', TIMESTAMPTZ '2024-05-15 00:00:00Z') AS c
      WHERE d.tariff_code = '${J}' ORDER BY d.local_date`]);
    expect(run.code, run.stderr).toBe(0);
    const text = run.stdout;
    const rows = JSON.parse(text) as Record<string, number>[];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (column === 'exact_decimal' || column === 'big_integer') continue;
        expect(significant(String(value)), `${column} ${value}`).toBeLessThanOrEqual(12);
      }
      expect([row.exact_decimal, row.big_integer, row.tiny]).toEqual([8.323875000000001, 9007199254740991, 1e-12]);
    }
    // the same figures as the unrounded DuckDB values, to 12 significant digits
    const raw = await query(db, `SELECT mean_inc_vat FROM daily_stats WHERE tariff_code = '${J}' ORDER BY local_date`);
    expect(rows.map((r) => r.mean_inc_vat)).toEqual(raw.map((r) => Number(Number(r.mean_inc_vat).toPrecision(12))));
  }, 60_000);
});
