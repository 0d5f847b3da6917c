// `tariffs demo` as users run it (the built CLI in dist/): offline sandbox → fresh warehouse →
// summary → reports; a re-run rebuilds the file and reproduces the reports
// byte for byte; a database the demo did not write is never replaced.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Warehouse } from '../src/store/Warehouse.js';
import { runCli } from './helpers/runCli.js';
import { query, tempDir } from './helpers/warehouseTools.js';

const REPORT_FILES = [
  ...['daily_stats', 'cheapest_1h_per_day', 'cheapest_2h_per_day', 'cheapest_4h_per_day', 'negative_slots', 'negative_runs', 'monthly_stats',
    'half_hourly_prices', 'monthly_costs', 'tariff_comparison']
    .flatMap((n) => [`${n}.csv`, `${n}.parquet`]),
  'report.html',
].sort();
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('tariffs demo', () => {
  const tmp = tempDir('tariffs-demo-');
  const db = join(tmp.dir, 'data', 'demo.duckdb');
  const out = tmp.file('out');
  afterAll(() => tmp.remove());

  it('ingests the sandbox, prints the summary and writes the reports', async () => {
    const started = performance.now();
    const result = await runCli(['demo', '--db', db, '--out', out], { timeoutMs: 120_000 });
    const seconds = (performance.now() - started) / 1000;
    console.log(`tariffs demo took ${seconds.toFixed(1)} s`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const stdout = result.stdout;
    // every sandbox tariff with unit rates (one extract has standing charges only, and is left out),
    // the account's gas tariff among them
    expect(stdout).toMatch(/^tariffs demo: 15 sandbox tariffs, 176356 rates → /);
    // Clock-change days with their half-hour counts: 46 when the clocks go forward, 50 when back;
    // per tariff complete/found spring-forward (46) | fall-back (50) days
    expect(stdout).toMatch(/Clock-change days found: 22 \(22 complete; 13 of 46 half-hours, 9 of 50\)\. E-1R-AGILE-…/);
    expect(stdout).toMatch(/ 18-02-21-J 5\/5 \| 4\/4, /);
    expect(stdout).toMatch(/ 24-10-01-G 1\/1 \| 0\/0, /);
    // on one 40-line screen (39 lines, and the prompt or cursor below), none wider than 120 columns
    // but the tables, which fit themselves to a terminal; ending with three commands that work on its file
    expect(stdout.trimEnd().split('\n').length).toBeLessThanOrEqual(39);
    // (lines naming this test's temporary --db and --out paths aside: the README's relative ones are short)
    const wide = stdout.split('\n').filter((l) => [...l].length > 120 && !l.includes(db) && !l.includes(out));
    expect(wide.every((l) => /^(-+ +)+-+$|^E-1R-\S+ +\d/.test(l) || /^tariff_code /.test(l)), wide.join('\n')).toBe(true);
    const next = stdout.split('\n').filter((l) => l.startsWith('  npx tariffs ')).map((l) => l.trim());
    expect(next).toHaveLength(3);
    for (const command of next) {
      const args = [...command.slice('npx tariffs '.length).matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
      const ran = await runCli(args.map((a) => (a === 'data/demo.duckdb' ? db : a)));
      expect(ran.code, command).toBe(0);
      expect(ran.stdout.length, command).toBeGreaterThan(50);
    }
    // The household's year: the agreements, and each tariff, over the same 366 local days.
    expect(stdout).toMatch(/^actual: E-1R-AGILE-18-02-21-J \+ E-1R-VAR-17-01-11-A\s+366\s+\d+\s+\d+\.\d\d\s+0\.00\s/m);
    expect(stdout).toMatch(/^E-1R-VAR-17-01-11-A\s+366\s+\d+\s+\d+\.\d\d\s+-?\d+\.\d\d\s/m);
    // Caveats next to the figures: no standing charges (the title), the variable tariff's 2020 price
    // carried open-ended into 2023-24 (marked '*' on its rows, the actual's and the net, said under the table)
    expect(stdout).toMatch(/^The sandbox household .*energy only \(no standing charges stored\):$/m);
    expect(stdout).toMatch(/^actual: E-1R-AGILE-18-02-21-J \+ E-1R-VAR-17-01-11-A .* \*$/m);
    expect(stdout).toMatch(/^E-1R-VAR-17-01-11-A .* \*$/m);
    expect(stdout).toMatch(/^E-1R-AGILE-18-02-21-J .*\d$/m);
    expect(stdout).toMatch(/^\* at E-1R-VAR-17-01-11-A's last published rate \(open-ended, from 2020-11-01\) carried forward: not a price of that time$/m);
    expect(stdout).toMatch(/^Import less export: £-?\d+\.\d\d\* over 12 months; the export \(\d+, Agile Outgoing C\) earned £\d+\.\d\d/m);
    expect(readFileSync(join(out, 'tariff_comparison.csv'), 'utf8').split('\n')[0]).toBe(
      'meter_point,is_export,scenario,tariff_code,first_date,last_date,days,kwh,energy_cost_inc_vat,standing_charge_inc_vat,' +
      'total_inc_vat,total_gbp,difference_gbp,missing_prices,missing_readings,missing_half_hours,standing_charge_missing_days,complete');
    // Each meter compared only with tariffs of its fuel and direction: no gas at an electricity tariff
    const comparison = readFileSync(join(out, 'tariff_comparison.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(comparison.map((c) => `${c[0]} ${c[2]}`)).toEqual([
      '2000000000011 actual', '2000000000011 E-1R-AGILE-18-02-21-J', '2000000000011 E-1R-VAR-17-01-11-A',
      '2000000000012 actual', '2000000000012 E-1R-AGILE-OUTGOING-19-05-13-C', '3000000001 actual', '3000000001 G-1R-VAR-17-01-11-A',
    ]);
    // The cheapest 2-hour window of N's only day, 2026-04-04, is below zero.
    expect(stdout).toMatch(/E-1R-AGILE-24-10-01-N\s+2026-04-04\s+2026-04-04 \d\d:\d\d\s+2026-04-04 \d\d:\d\d\s+-\d/);
    expect(stdout).toMatch(/E-1R-AGILE-24-10-01-G\s+18\s+1\s/);
    expect(readdirSync(out).sort()).toEqual(REPORT_FILES);
    for (const f of REPORT_FILES) expect(statSync(join(out, f)).size).toBeGreaterThan(200);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/<svg[\s\S]*<\/svg>/);
    // Every sandbox tariff is in the warehouse, the VAR and day/night ones too.
    expect(await query(db, `SELECT tariff_code, rate_type, count(*) AS n FROM unit_rates
        WHERE tariff_code LIKE '%VAR%' GROUP BY ALL ORDER BY ALL`)).toEqual([
      // a -1R- code whose product publishes day and night rates only (issue 42)
      { tariff_code: 'E-1R-INTELLI-VAR-SANDBOX-26-03-01-C', rate_type: 'day', n: 1 },
      { tariff_code: 'E-1R-INTELLI-VAR-SANDBOX-26-03-01-C', rate_type: 'night', n: 1 },
      { tariff_code: 'E-1R-VAR-17-01-11-A', rate_type: 'standard', n: 6 },
      { tariff_code: 'E-2R-VAR-22-11-01-A', rate_type: 'day', n: 4 },
      { tariff_code: 'E-2R-VAR-22-11-01-A', rate_type: 'night', n: 4 },
      { tariff_code: 'G-1R-VAR-17-01-11-A', rate_type: 'standard', n: 1 }, // the sandbox account's gas
    ]);
  }, 150_000);

  it('re-runs from a fresh file (paths relative to the current directory) with identical reports', async () => {
    const result = await runCli(['demo'], { cwd: tmp.dir, timeoutMs: 120_000 });
    expect(result.code).toBe(0);
    expect(await query(db, 'SELECT count(*) AS runs FROM ingest_runs')).toEqual([{ runs: 1 }]);
    const again = join(tmp.dir, 'data', 'reports');
    expect(readdirSync(again).sort()).toEqual(REPORT_FILES);
    for (const f of REPORT_FILES) expect({ f, sha: sha(join(again, f)) }).toEqual({ f, sha: sha(join(out, f)) });
    expect(readdirSync(join(tmp.dir, 'data')).sort()).toEqual(['demo.duckdb', 'reports']);
  }, 150_000);

  it('refuses to replace a database it did not write (exit 2, file untouched)', async () => {
    const foreign = tmp.file('mine.duckdb');
    const w = await Warehouse.open(foreign);
    await w.run(`INSERT INTO ingest_runs (run_id, job, started_at, status) VALUES (1, 'ingest', now(), 'ok')`);
    w.close();
    const before = sha(foreign);
    const result = await runCli(['demo', '--db', foreign, '--out', tmp.file('never')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--db ${foreign}: holds data not written by \`tariffs demo\``);
    expect(sha(foreign)).toBe(before);
    expect(existsSync(tmp.file('never'))).toBe(false);
  });
});
