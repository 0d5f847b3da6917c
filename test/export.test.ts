// exportReports and `tariffs export` against a real warehouse ingested from the sandbox: headers,
// row counts computed independently from rate_slots, local times with offsets, byte-identical
// re-exports, atomic replacement, the HTML page (an SVG per period, nothing external), errors.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NoDataError, UsageError } from '../src/errors.js';
import { exportReports, ExportDirectoryError, type ExportedFile } from '../src/report/exportReports.js';
import { TEMPORARY_FILE } from '../src/report/writeAtomically.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { buildExportFixture, FIXTURE_TARIFFS } from './helpers/exportFixture.js';
import { runCli } from './helpers/runCli.js';
import { query, tempDir } from './helpers/warehouseTools.js';

const REPORT_NAMES = [
  'daily_stats', 'cheapest_1h_per_day', 'cheapest_2h_per_day', 'cheapest_4h_per_day',
  'negative_slots', 'negative_runs', 'monthly_stats', 'half_hourly_prices',
];
const LOCAL_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[01]:00$/;
const IN_FIXTURE = `tariff_code IN (${FIXTURE_TARIFFS.map((t) => `'${t}'`).join(', ')})`;

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const csvLines = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n');
const csvRows = (file: string): Record<string, string>[] => {
  const [header, ...lines] = csvLines(file);
  const names = header!.split(',');
  // The fixture's values hold no commas or quotes, so a split is a faithful parse here.
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i]!, v])));
};
const count = async (db: string, sql: string) => Number((await query(db, sql))[0]!.n);

describe('exportReports', () => {
  let sandbox: Sandbox;
  const tmp = tempDir('tariffs-export-');
  const db = tmp.file('export.duckdb');
  const out = tmp.file('out');
  let files: ExportedFile[];

  beforeAll(async () => {
    sandbox = await startSandbox();
    await buildExportFixture(db, sandbox);
    files = (await exportReports({ db, outDir: out, formats: ['csv', 'parquet', 'html'] })).files;
  });
  afterAll(async () => {
    await sandbox.close();
    tmp.remove();
  });

  it('writes one csv and one parquet per report and report.html, and nothing else', () => {
    const expected = [...REPORT_NAMES.flatMap((n) => [`${n}.csv`, `${n}.parquet`]), 'report.html'];
    expect(files.map((f) => f.path)).toEqual(expected.map((f) => join(out, f)));
    expect(readdirSync(out).sort()).toEqual([...expected].sort());
  });

  it('CSV header lines', () => {
    const headers = Object.fromEntries(REPORT_NAMES.map((n) => [n, csvLines(join(out, `${n}.csv`))[0]]));
    expect(headers).toMatchInlineSnapshot(`
      {
        "cheapest_1h_per_day": "tariff_code,payment_method,rate_type,local_date,local_start,start_utc,start_wall,start_utc_offset_minutes,local_end,end_utc,end_wall,end_utc_offset_minutes,slots,mean_inc_vat,mean_exc_vat",
        "cheapest_2h_per_day": "tariff_code,payment_method,rate_type,local_date,local_start,start_utc,start_wall,start_utc_offset_minutes,local_end,end_utc,end_wall,end_utc_offset_minutes,slots,mean_inc_vat,mean_exc_vat",
        "cheapest_4h_per_day": "tariff_code,payment_method,rate_type,local_date,local_start,start_utc,start_wall,start_utc_offset_minutes,local_end,end_utc,end_wall,end_utc_offset_minutes,slots,mean_inc_vat,mean_exc_vat",
        "daily_stats": "tariff_code,payment_method,rate_type,local_date,day_start_local,day_start_utc,day_start_wall,day_start_utc_offset_minutes,slots,expected_slots,min_inc_vat,max_inc_vat,mean_inc_vat,median_inc_vat,p10_inc_vat,p90_inc_vat,peak_mean_inc_vat,off_peak_mean_inc_vat,mean_exc_vat,negative_slots",
        "half_hourly_prices": "tariff_code,payment_method,rate_type,local_date,settlement_period,local_start,start_utc,start_wall,start_utc_offset_minutes,local_end,end_utc,end_wall,end_utc_offset_minutes,value_inc_vat,value_exc_vat",
        "monthly_stats": "tariff_code,payment_method,rate_type,month,days,slots,expected_slots,min_inc_vat,max_inc_vat,mean_inc_vat,median_inc_vat,p10_inc_vat,p90_inc_vat,peak_mean_inc_vat,off_peak_mean_inc_vat,mean_exc_vat,negative_slots",
        "negative_runs": "tariff_code,payment_method,rate_type,local_date,local_start,start_utc,start_wall,start_utc_offset_minutes,local_end,end_utc,end_wall,end_utc_offset_minutes,slots,min_inc_vat,mean_inc_vat,mean_exc_vat",
        "negative_slots": "tariff_code,payment_method,rate_type,local_date,settlement_period,local_start,start_utc,start_wall,start_utc_offset_minutes,local_end,end_utc,end_wall,end_utc_offset_minutes,value_inc_vat,value_exc_vat",
      }
    `);
  });

  it('row counts match counts computed from the warehouse (CSV and Parquet alike)', async () => {
    const days = await count(db, `SELECT count(*) AS n FROM (SELECT DISTINCT tariff_code, payment_method, rate_type, local_date FROM rate_slots WHERE ${IN_FIXTURE})`);
    const months = await count(db, `SELECT count(*) AS n FROM (SELECT DISTINCT tariff_code, payment_method, rate_type, date_trunc('month', local_date) FROM rate_slots WHERE ${IN_FIXTURE})`);
    const negatives = await count(db, `SELECT count(*) AS n FROM rate_slots WHERE ${IN_FIXTURE} AND value_inc_vat < 0`);
    const halfHours = await count(db, `SELECT count(*) AS n FROM rate_slots WHERE ${IN_FIXTURE}`);
    // A run starts at a negative half-hour whose previous half-hour is not negative (or missing).
    const runs = await count(db, `SELECT count(*) AS n FROM rate_slots AS s WHERE ${IN_FIXTURE} AND s.value_inc_vat < 0
        AND NOT EXISTS (SELECT 1 FROM rate_slots AS p WHERE p.tariff_code = s.tariff_code
                        AND p.slot_start = s.slot_start - INTERVAL 30 MINUTE AND p.value_inc_vat < 0)`);
    // Days with at least n consecutive half-hours: those have a cheapest n-half-hour window.
    const daysWithRun = (n: number) => count(db, `SELECT count(DISTINCT (s.tariff_code, s.local_date)) AS n FROM rate_slots AS s
        WHERE ${IN_FIXTURE.replace('tariff_code', 's.tariff_code')} AND (SELECT count(*) FROM rate_slots AS p
          WHERE p.tariff_code = s.tariff_code AND p.local_date = s.local_date
            AND p.slot_start > s.slot_start - ${n} * INTERVAL 30 MINUTE AND p.slot_start <= s.slot_start) = ${n}`);
    const expected: Record<string, number> = {
      daily_stats: days, monthly_stats: months, negative_slots: negatives, negative_runs: runs, half_hourly_prices: halfHours,
      cheapest_1h_per_day: await daysWithRun(2), cheapest_2h_per_day: await daysWithRun(4), cheapest_4h_per_day: await daysWithRun(8),
    };
    expect(days).toBeGreaterThan(130);
    expect(negatives).toBeGreaterThan(20);
    for (const name of REPORT_NAMES) {
      const csv = csvLines(join(out, `${name}.csv`)).length - 1;
      const parquet = await count(db, `SELECT count(*) AS n FROM read_parquet('${join(out, `${name}.parquet`)}')`);
      const reported = files.filter((f) => f.path.startsWith(join(out, `${name}.`))).map((f) => f.rows);
      expect({ name, csv, parquet, reported }).toEqual({ name, csv: expected[name], parquet: expected[name], reported: [expected[name], expected[name]] });
    }
  });

  it('gives local times as ISO 8601 with offset, and days of 46, 48 and 50 half-hours', () => {
    const daily = csvRows(join(out, 'daily_stats.csv'));
    const day = (tariff: string, date: string) => daily.find((r) => r.tariff_code === tariff && r.local_date === date);
    expect(day('E-1R-AGILE-18-02-21-J', '2023-10-29')).toMatchObject({ day_start_local: '2023-10-29T00:00:00+01:00', slots: '50', expected_slots: '50' });
    expect(day('E-1R-AGILE-18-02-21-J', '2023-10-30')).toMatchObject({ day_start_local: '2023-10-30T00:00:00+00:00', slots: '48' });
    expect(day('E-1R-AGILE-24-10-01-G', '2025-03-30')).toMatchObject({ slots: '46', expected_slots: '46' });
    for (const name of ['negative_slots', 'negative_runs', 'cheapest_2h_per_day']) {
      for (const row of csvRows(join(out, `${name}.csv`))) {
        expect(row.local_start).toMatch(LOCAL_ISO);
        expect(row.local_end).toMatch(LOCAL_ISO);
      }
    }
    // The longest negative run in J: 2023-07-02 08:00–16:00 BST.
    expect(csvRows(join(out, 'negative_runs.csv'))).toContainEqual(expect.objectContaining({
      tariff_code: 'E-1R-AGILE-18-02-21-J', local_start: '2023-07-02T08:00:00+01:00', local_end: '2023-07-02T16:00:00+01:00', slots: '16',
    }));
    // Prices are written with exactly four decimals.
    for (const row of daily) expect(row.mean_inc_vat).toMatch(/^-?\d+\.\d{4}$/);
  });

  it('exports the same data twice as byte-identical files (CSV, Parquet and HTML)', async () => {
    const again = tmp.file('again');
    await exportReports({ db, outDir: again, formats: ['csv', 'parquet', 'html'] });
    for (const name of readdirSync(out)) expect({ name, sha: sha(join(again, name)) }).toEqual({ name, sha: sha(join(out, name)) });
  });

  it('leaves no temporary files and replaces existing files only with complete ones', async () => {
    const dir = tmp.file('replace');
    await exportReports({ db, outDir: dir, formats: ['csv'], tariffs: ['E-1R-AGILE-24-10-01-N'] });
    const old = readFileSync(join(dir, 'daily_stats.csv'), 'utf8');
    writeFileSync(join(dir, 'unrelated.txt'), 'kept');
    // Read the file continuously while a bigger export replaces it: only the old or the new whole file may be seen.
    const seen = new Set<string>();
    let reading = true;
    const reader = (async () => {
      while (reading) {
        seen.add(readFileSync(join(dir, 'daily_stats.csv'), 'utf8'));
        await new Promise((r) => setImmediate(r));
      }
    })();
    await exportReports({ db, outDir: dir, formats: ['csv', 'parquet'] });
    reading = false;
    await reader;
    const fresh = readFileSync(join(dir, 'daily_stats.csv'), 'utf8');
    expect(fresh).not.toBe(old);
    expect(fresh).toBe(readFileSync(join(out, 'daily_stats.csv'), 'utf8'));
    expect([...seen].filter((c) => c !== old && c !== fresh)).toEqual([]);
    expect(readdirSync(dir).filter((f) => TEMPORARY_FILE.test(f))).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([]);
    expect(readFileSync(join(dir, 'unrelated.txt'), 'utf8')).toBe('kept');
  });

  it('keeps existing files when an export fails', async () => {
    const dir = tmp.file('keep');
    await exportReports({ db, outDir: dir, formats: ['csv'], tariffs: ['E-1R-AGILE-24-10-01-H'] });
    const before = readdirSync(dir).map((f) => [f, sha(join(dir, f))]);
    await expect(exportReports({ db, outDir: dir, formats: ['csv'], tariffs: ['E-1R-AGILE-24-10-01-H', 'E-1R-AGILE-18-02-21-B'] }))
      .rejects.toThrow(NoDataError);
    expect(readdirSync(dir).map((f) => [f, sha(join(dir, f))])).toEqual(before);
  });

  it('report.html: an SVG chart per period, nothing fetched from outside the page', async () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const figures = [...html.matchAll(/<figure class="chart" data-kind="(\w+)" data-period="([^"]+)"><svg[^>]*>[\s\S]*?<\/svg><\/figure>/g)];
    expect(figures.length).toBe(files.find((f) => f.format === 'html')!.rows);
    expect((html.match(/<svg/g) ?? []).length).toBe(figures.length);
    // A daily chart for each of the last 14 local days of every tariff, the newest tariff first (issue 54).
    const lastDays = await query(db, `SELECT tariff_code, list(CAST(local_date AS VARCHAR) ORDER BY local_date DESC) AS days
        FROM (SELECT DISTINCT tariff_code, local_date FROM rate_slots WHERE ${IN_FIXTURE})
        GROUP BY tariff_code ORDER BY max(local_date) DESC, tariff_code`);
    expect(new Set(lastDays.map((r) => (r.days as string[])[0])).size).toBeGreaterThan(1); // the order is the dates', not the codes'
    const sections = html.split('<section id=').slice(1);
    expect(sections.length).toBe(FIXTURE_TARIFFS.length);
    expect(html).not.toContain('id="household"'); // no meters: the page opens with the prices
    for (const [i, row] of lastDays.entries()) {
      const section = sections[i]!;
      expect(section.startsWith(`"${row.tariff_code as string}"`)).toBe(true);
      const charted = [...section.matchAll(/data-kind="day" data-period="([^"]+)"/g)].map((m) => m[1]);
      expect(charted).toEqual((row.days as string[]).slice(0, 14));
    }
    // J: 2023-06-25 … 2023-11-05, so a monthly chart for each month before its last 14 days, and one of all months.
    const j = sections.find((section) => section.startsWith('"E-1R-AGILE-18-02-21-J"'))!;
    expect([...j.matchAll(/data-kind="month" data-period="([^"]+)"/g)].map((m) => m[1])).toEqual(['2023-10', '2023-09', '2023-08', '2023-07', '2023-06']);
    expect(j).toContain('data-kind="history"');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    // Negative slots are drawn (red) and the cheapest windows shaded (green).
    expect(html).toContain('fill="#d62728"');
    expect(html).toContain('fill="#2ca02c"');
  });

  it('report.html: one price axis across a series\' day charts, product and region names by the codes, no text below 11 px', () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const sections = html.split('<section id=').slice(1);
    let shared = 0;
    const regions: Record<string, string> = { J: 'South Eastern England', G: 'North Western England', H: 'Southern England', N: 'Southern Scotland' };
    for (const section of sections) {
      const heading = /<h2>([^<]*)<\/h2>/.exec(section)![1]!;
      const code = heading.split(' ')[0]!;
      expect(heading).toBe(`${code} — Agile Octopus, ${regions[code.at(-1)!]}`);
      const days = [...section.matchAll(/data-kind="day"[^>]*>(<svg[\s\S]*?<\/svg>)/g)].map((m) => m[1]!);
      expect(days.length).toBeGreaterThan(0);
      const axes = new Set(days.map((svg) => /aria-label="Y-axis[^"]*values from ([^"]+)"/.exec(svg)![1]));
      expect([...axes]).toHaveLength(1);
      shared += days.length > 1 ? 1 : 0;
    }
    expect(shared).toBeGreaterThanOrEqual(2); // J (14 days) and G at least: several days on one axis
    const sizes = [...html.matchAll(/font-size="([\d.]+)px"/g)].map((m) => Number(m[1]));
    expect(sizes.length).toBeGreaterThan(100);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(11);
  });

  it('report.html: each day chart says its day\'s statistics and cheapest 2 hours as the CSV files give them', () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const key = (r: Record<string, string>) => `${r.tariff_code} ${r.local_date}`;
    const daily = new Map(csvRows(join(out, 'daily_stats.csv')).map((r) => [key(r), r]));
    const windows = new Map(csvRows(join(out, 'cheapest_2h_per_day.csv')).map((r) => [key(r), r]));
    const p2 = (text: string) => Number(text).toFixed(2);
    let checked = 0;
    let withWindow = 0;
    for (const section of html.split('<section id=').slice(1)) {
      const tariff = /^"([^"]+)"/.exec(section)![1]!;
      for (const [, date, chart] of section.matchAll(/data-kind="day" data-period="([^"]+)">(<svg[\s\S]*?<\/svg>)/g)) {
        const said = /aria-label="Subtitle text '(\d+) of (\d+) half-hours[^·]*· min (\S+) · mean (\S+) · max (\S+) (?:cheapest 2 h (\d\d:\d\d)–(\d\d:\d\d) at (-?[\d.]+)|no complete 2-hour window)/.exec(chart!);
        expect(said, `${tariff} ${date}`).not.toBeNull();
        const day = daily.get(`${tariff} ${date}`)!;
        expect(said!.slice(1, 6), `${tariff} ${date}`).toEqual([day.slots, day.expected_slots, p2(day.min_inc_vat!), p2(day.mean_inc_vat!), p2(day.max_inc_vat!)]);
        const window = windows.get(`${tariff} ${date}`);
        expect(said!.slice(6, 9), `${tariff} ${date}`).toEqual(window
          ? [window.local_start!.slice(11, 16), window.local_end!.slice(11, 16), p2(window.mean_inc_vat!)]
          : [undefined, undefined, undefined]);
        checked += 1;
        withWindow += window ? 1 : 0;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
    expect(withWindow).toBeGreaterThanOrEqual(15);
  });

  it('exports only the tariffs and window asked for', async () => {
    const dir = tmp.file('window');
    await exportReports({
      db, outDir: dir, formats: ['csv'], tariffs: ['E-1R-AGILE-18-02-21-J'],
      from: new Date('2023-10-28T00:00:00+01:00'), to: new Date('2023-10-31T00:00:00Z'),
    });
    expect(csvRows(join(dir, 'daily_stats.csv')).map((r) => `${r.tariff_code} ${r.local_date} ${r.slots}`)).toEqual([
      'E-1R-AGILE-18-02-21-J 2023-10-28 48', 'E-1R-AGILE-18-02-21-J 2023-10-29 50', 'E-1R-AGILE-18-02-21-J 2023-10-30 48',
    ]);
    expect(csvRows(join(dir, 'cheapest_4h_per_day.csv')).map((r) => r.local_date)).toEqual(['2023-10-28', '2023-10-29', '2023-10-30']);
    expect(csvRows(join(dir, 'monthly_stats.csv')).map((r) => r.month)).toEqual(['2023-10']);
  });

  it('fails clearly: no data names the tariff, an unwritable --out names the directory, bad formats are usage errors', async () => {
    await expect(exportReports({ db, outDir: tmp.file('x'), formats: ['csv'], tariffs: ['E-1R-AGILE-18-02-21-B'] }))
      .rejects.toThrow(/no prices for E-1R-AGILE-18-02-21-B/);
    await expect(exportReports({ db, outDir: tmp.file('x'), formats: ['csv'], from: new Date('2030-01-01T00:00:00Z') }))
      .rejects.toThrow(NoDataError);
    writeFileSync(tmp.file('a-file'), '');
    const blocked = join(tmp.file('a-file'), 'reports');
    await expect(exportReports({ db, outDir: blocked, formats: ['csv'] })).rejects.toThrow(ExportDirectoryError);
    await expect(exportReports({ db, outDir: blocked, formats: ['csv'] })).rejects.toThrow(`cannot write reports to ${blocked}`);
    await expect(exportReports({ db, outDir: tmp.file('x'), formats: ['xlsx' as 'csv'] })).rejects.toThrow(UsageError);
    expect(existsSync(tmp.file('x')) ? readdirSync(tmp.file('x')) : []).toEqual([]);
  });

  describe('tariffs export (CLI)', () => {
    it('writes the formats asked for (repeatable and comma-separated) and lists the files', async () => {
      const dir = tmp.file('cli');
      const result = await runCli(['export', '--db', db, '--out', dir, '--tariff', 'E-1R-AGILE-24-10-01-H', '--format', 'csv,parquet', '--format', 'html']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const listed = JSON.parse(result.stdout) as ExportedFile[];
      expect(listed.map((f) => f.path)).toContain(join(dir, 'report.html'));
      expect(listed).toHaveLength(REPORT_NAMES.length * 2 + 1);
      expect(readdirSync(dir)).toHaveLength(REPORT_NAMES.length * 2 + 1);
    });

    it('exits 1 naming the tariff without data, and the directory it cannot write', async () => {
      const none = await runCli(['export', '--db', db, '--out', tmp.file('cli-none'), '--tariff', 'E-1R-AGILE-18-02-21-B']);
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/^tariffs: no prices for E-1R-AGILE-18-02-21-B/);
      mkdirSync(tmp.file('cli-file'), { recursive: true });
      writeFileSync(join(tmp.file('cli-file'), 'f'), '');
      const blocked = join(tmp.file('cli-file'), 'f', 'out');
      const unwritable = await runCli(['export', '--db', db, '--out', blocked]);
      expect(unwritable.code).toBe(1);
      expect(unwritable.stderr).toContain(`cannot write reports to ${blocked}`);
    });

    it('exits 2 on a bad --format or --from', async () => {
      const format = await runCli(['export', '--db', db, '--out', tmp.file('cli-bad'), '--format', 'csv,xlsx']);
      expect(format.code).toBe(2);
      expect(format.stderr).toContain("--format: 'xlsx' is not one of csv, parquet, html");
      const from = await runCli(['export', '--db', db, '--out', tmp.file('cli-bad'), '--from', 'yesterday-ish']);
      expect(from.code).toBe(2);
    });
  });
});
