// Tables, help and progress bars fit the terminal (issue 27, item 4): the renderers at 60, 80 and
// 120 columns, wall times in Europe/London (the offset only in the hour that happens twice), no
// milliseconds, prices to 2 decimals; then the CLI itself (`tariffs`, `products`, `sql`, `--help`)
// at a fixed width given by COLUMNS, its JSON and CSV unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitBarLine } from '../src/cli/terminal.js';
import { humanCell, renderExactTable, renderHumanTable, wallTime } from '../src/cli/table.js';
import { wrapHelp } from '../src/cli/wrapHelp.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { runCli } from './helpers/runCli.js';
import { ingest, tempDir } from './helpers/warehouseTools.js';

const J = 'E-1R-AGILE-18-02-21-J';
const H = 'E-1R-AGILE-24-10-01-H';
const WIDTHS = [60, 80, 120];
const lines = (text: string) => text.split('\n').filter((l) => l !== '');
const words = (text: string) => text.split(/\s+/).filter((w) => w !== '');

describe('wall times and prices', () => {
  it.each([
    // the fall-back hour happens twice: its offset says which
    ['2023-10-29T00:30:00Z', '2023-10-29 01:30 +01:00'],
    ['2023-10-29T01:30:00Z', '2023-10-29 01:30 +00:00'],
    ['2023-10-29T02:30:00Z', '2023-10-29 02:30'],
    ['2023-10-28T23:30:00Z', '2023-10-29 00:30'],
    ['2024-03-31T01:00:00Z', '2024-03-31 02:00'], // spring forward: 01:00 GMT is 02:00 BST
    ['2026-11-25T10:22:35.043Z', '2026-11-25 10:22:35'], // no milliseconds
    ['2024-10-27T01:30:00+00:00', '2024-10-27 01:30 +00:00'],
  ])('%s reads %s', (iso, shown) => {
    expect(wallTime(new Date(iso))).toBe(shown);
    expect(humanCell('slot_start', iso)).toBe(shown);
  });

  it('leaves out the date of the row\'s own local day, and shows prices and pounds to 2 decimals', () => {
    // cost --per half-hour: local_date 2023-10-29 beside the slot that starts at its midnight
    expect(humanCell('slot_start', '2023-10-28T23:30:00Z', '2023-10-29')).toBe('00:30');
    expect(humanCell('value_inc_vat', 7)).toBe('7.00');
    expect(humanCell('mean_inc_vat', 12.3456)).toBe('12.35');
    expect(humanCell('total_gbp', 0)).toBe('0.00');
    expect(humanCell('slots', 48)).toBe('48');
  });
});

describe('renderers at 60, 80 and 120 columns', () => {
  const products = Array.from({ length: 6 }, (_, i) => ({
    code: `AGILE-FLEX-22-11-2${i}`, display_name: `Agile Octopus November 2022 v${i} with a rather long marketing name`,
    brand: 'OCTOPUS_ENERGY', direction: 'IMPORT', is_variable: true, is_green: i % 2 === 0, is_tracker: false, is_prepay: false,
    is_business: false, available_from: '2022-11-21T23:00:00Z', available_to: null, last_seen_at: '2026-11-25T10:22:35.043Z',
  }));
  const columns = Object.keys(products[0]!);

  it.each(WIDTHS)('a wide listing fits %i columns, keeps its code and says what it left out', (width) => {
    const text = renderHumanTable(products, columns, width, { answer: ['code'], key: ['display_name'] });
    for (const line of lines(text)) expect(line.length, line).toBeLessThanOrEqual(width);
    expect(text).toContain('AGILE-FLEX-22-11-25');
    expect(text).not.toMatch(/\.\d{3}Z|T\d\d:\d\d/);
    if (width < 200) expect(text).toMatch(/more columns? with --format csv or json/);
  });

  it.each(WIDTHS)('sql: every column, as a table when it fits, else a block per row (%i columns)', (width) => {
    const text = renderExactTable(products, columns, width, ['available_from', 'last_seen_at']);
    for (const line of lines(text)) expect(line.length, line).toBeLessThanOrEqual(width);
    for (const column of columns) expect(text).toContain(column);
    expect(text).toContain('2026-11-25 10:22:35');
    expect(text).toContain('2022-11-21 23:00');
    expect(text.trimEnd().endsWith('6 rows')).toBe(true);
    const narrow = renderExactTable([{ a: 1, b: 'x' }], ['a', 'b'], width);
    expect(lines(narrow)[0]!.split(/\s+/)).toEqual(['a', 'b']); // fits: a plain table
  });

  it('wraps help text at spaces, never inside a word', () => {
    const text = `Usage: tariffs x [options]\n\nA paragraph written at about a hundred columns, as the commands' notes are, with a\nlong-hyphenated-word and E-1R-AGILE-24-10-01-C codes that must never be broken apart by wrapping.\nExamples:\n  tariffs schedule --list --now 2026-03-28T12:00:00Z --hours 48 --format json\n  --db <file>   DuckDB file (env TARIFFS_DB; default data/tariffs.duckdb) and more words after it
  rates      */30 * * * *       incremental rates for every tracked tariff, aligned as written`;
    for (const width of [40, 60, 80]) {
      const wrapped = wrapHelp(text, width);
      for (const line of lines(wrapped)) expect(line.length, line).toBeLessThanOrEqual(width);
      expect(words(wrapped)).toEqual(words(text));
      if (width >= 60) expect(wrapped).toContain('  rates      */30 * * * *       incremental'); // its columns kept
    }
  });

  it('a progress bar line is never wider than the terminal, and keeps its counts while it can', () => {
    for (let width = 20; width <= 200; width++) {
      const line = fitBarLine({ label: 'ingest', progress: 0.42, value: 123456, total: 293939, unit: 'records', etaSeconds: 83, what: 'E-1R-AGILE-18-02-21-J' }, width);
      expect(line.length, `${width}: ${line}`).toBeLessThan(width);
      if (width >= 60) expect(line).toContain('123456/293939 records');
      if (width >= 80) expect(line).toContain('1m23s left');
    }
  });
});

describe('the CLI at a fixed width (COLUMNS)', () => {
  let sandbox: Sandbox;
  const tmp = tempDir('tariffs-tables-');
  const db = tmp.file('w.duckdb');

  beforeAll(async () => {
    sandbox = await startSandbox();
    // products refreshed (the products table), two tariffs around the 2023 fall-back
    const summary = await ingest(db, sandbox.baseUrl, { tariffs: [J, H], from: new Date('2023-10-27T00:00:00Z'), to: new Date('2023-10-31T00:00:00Z') });
    expect(summary.status).toBe('ok');
  }, 120_000);
  afterAll(async () => {
    await sandbox.close();
    tmp.remove();
  });

  const table = (args: string[], width: number) => runCli([...args, '--db', db, '--format', 'table'], { env: { COLUMNS: String(width) } });

  for (const width of WIDTHS) {
    it(`tariffs, products and sql fit ${width} columns`, async () => {
      const [tariffs, products, sql] = await Promise.all([
        table(['tariffs'], width),
        table(['products'], width),
        table(['sql', "SELECT slot_start, slot_end, tariff_code, payment_method, rate_type, value_exc_vat, value_inc_vat, local_date, settlement_period FROM rate_slots WHERE tariff_code = 'E-1R-AGILE-18-02-21-J' AND local_date = '2023-10-29' ORDER BY slot_start LIMIT 6 OFFSET 2"], width),
      ]);
      for (const [name, result] of Object.entries({ tariffs, products, sql })) {
        expect(result.code, `${name}: ${result.stderr}`).toBe(0);
        for (const line of lines(result.stdout)) expect(line.length, `${name}: ${line}`).toBeLessThanOrEqual(width);
        expect(result.stdout, name).not.toMatch(/\d\d:\d\d:\d\d(\.\d+)?Z/);
      }
      expect(tariffs.stdout).toContain(J);
      expect(tariffs.stdout).toContain(H);
      expect(products.stdout).toMatch(/AGILE-/);
      // 00:30 to 03:00 on the fall-back day: the repeated hour with its offsets
      expect(sql.stdout).toContain('2023-10-29 01:00 +01:00');
      expect(sql.stdout).toContain('2023-10-29 01:00 +00:00');
      expect(sql.stdout).toMatch(/6 rows\n$/);
    });
  }

  it('JSON and CSV keep their fields and formats', async () => {
    const json = JSON.parse((await runCli(['tariffs', '--db', db, '--format', 'json'], { env: { COLUMNS: '60' } })).stdout) as Record<string, unknown>[];
    expect(Object.keys(json[0]!)).toEqual(['tariff_code', 'product_code', 'fuel', 'register', 'region', 'unit_rates', 'first_valid_from', 'last_valid_from']);
    expect(String(json[0]!.first_valid_from)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const csv = (await runCli(['sql', '--db', db, '--format', 'csv', 'SELECT slot_start FROM rate_slots ORDER BY 1 LIMIT 1'], { env: { COLUMNS: '60' } })).stdout;
    expect(csv).toMatch(/^slot_start\n\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
  });

  it('--help fits 60 columns and no word is broken', async () => {
    for (const command of [[], ['schedule'], ['ingest'], ['export'], ['sql']]) {
      const [narrow, wide] = await Promise.all([
        runCli([...command, '--help'], { env: { COLUMNS: '60' } }),
        runCli([...command, '--help'], { env: { COLUMNS: '400' } }),
      ]);
      expect(narrow.code).toBe(0);
      for (const line of lines(narrow.stdout)) expect(line.length, `${command.join(' ')}: ${line}`).toBeLessThanOrEqual(60);
      expect(words(narrow.stdout)).toEqual(words(wide.stdout));
    }
  });
});
