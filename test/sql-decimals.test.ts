// `tariffs sql` prints DECIMALs with their scale, as the README and --help say ("digit for
// digit"): 92.90, not 92.9, in a table, in CSV, and in JSON, where they stay numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliCases } from './helpers/runCli.js';
import { tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-sql-decimals-');
const db = tmp.file('w.duckdb');
beforeAll(async () => {
  const migrated = await runCli(['migrate', '--db', db]);
  if (migrated.code !== 0) throw new Error(migrated.stderr);
}, 120_000);
afterAll(() => tmp.remove());

const QUERY = "SELECT 92.90::DECIMAL(18,2) AS total_gbp, -0.05::DECIMAL(4,2) AS n, NULL::DECIMAL(5,1) AS z, 1.5::DOUBLE AS x, 'a' AS s " +
  "UNION ALL SELECT 7, 1, 2, 3, 'bb'";

describe('tariffs sql and DECIMALs', () => {
  it('keeps the scale in table, csv and json (a JSON number still)', async () => {
    const out = await runCliCases({
      table: ['sql', '--db', db, '--format', 'table'],
      csv: ['sql', '--db', db, '--format', 'csv'],
      json: ['sql', '--db', db, '--format', 'json'],
    }, [QUERY]);
    for (const result of Object.values(out)) expect(result.code, result.stderr).toBe(0);
    expect(out.table.stdout).toBe([
      'total_gbp      n    z    x  s',
      '---------  -----  ---  ---  --',
      '    92.90  -0.05       1.5  a',
      '     7.00   1.00  2.0    3  bb',
      '2 rows', '',
    ].join('\n'));
    expect(out.csv.stdout).toBe('total_gbp,n,z,x,s\n92.90,-0.05,,1.5,a\n7.00,1.00,2.0,3,bb\n');
    expect(out.json.stdout).toContain('"total_gbp": 92.90,');
    expect(out.json.stdout).toContain('"total_gbp": 7.00,');
    const parsed = JSON.parse(out.json.stdout) as Record<string, unknown>[];
    expect(parsed).toEqual([
      { total_gbp: 92.9, n: -0.05, z: null, x: 1.5, s: 'a' },
      { total_gbp: 7, n: 1, z: 2, x: 3, s: 'bb' },
    ]);
    // the same layout as JSON.stringify(rows, null, 2), but for the digits
    expect(out.json.stdout.replace(/: (-?\d+)\.(\d*?)0+,/g, (_m, a: string, b: string) => `: ${a}${b ? `.${b}` : ''},`))
      .toBe(`${JSON.stringify(parsed, null, 2)}\n`);
  });
});
