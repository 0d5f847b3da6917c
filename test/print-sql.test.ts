// `--print-sql` (issue 53, items 3 and 4): every question command, run as users run it, prints a
// statement that, pasted into a fresh DuckDB connection on the same file (in the session's own
// time zone, UTC or not), returns exactly the rows the command prints with --format csv: the
// same columns, order and digits, rendered as the CLI renders CSV.
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '../src/cli/output.js';
import { rowsToJs } from '../src/store/rowsToJs.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { copyOfDemoWarehouse } from './helpers/demoWarehouse.js';
import { runCli, type CliResult } from './helpers/runCli.js';
import { tempDir } from './helpers/warehouseTools.js';

const J = 'E-1R-AGILE-18-02-21-J';
const A = 'E-1R-AGILE-18-02-21-A';
const VAR = 'E-1R-VAR-17-01-11-A';
const IMPORT = '2000000000011';
const EXPORT = '2000000000012';
/** Half-hours of J taken out of the copy: a gap, and ranges the cheapest answers call incomplete. */
const HOLE = { from: '2024-03-30T10:00:00Z', to: '2024-03-30T12:00:00Z' };

/** Every question command and its --all-meters forms, with arguments that give rows. */
const CASES: Record<string, string[]> = {
  'cheapest --per-day': ['cheapest', '--tariff', J, '--duration', '2h', '--per-day', '--from', '2024-03-29', '--to', '2024-04-02'],
  'cheapest range, weights': ['cheapest', '--tariff', J, '--weights', '2,1,1', '--from', '2024-03-29', '--to', '2024-04-02', '--latest'],
  'cheapest --between, --highest --at-least': ['cheapest', '--tariff', J, '--duration', '90m', '--between', '23:00-07:00',
    '--highest', '--at-least', '--max-price', '30.5', '--from', '2023-10-27', '--to', '2023-10-31'],
  'cheapest from now': ['cheapest', '--tariff', J, '--duration', '1h', '--now', '2024-03-30T08:10:00Z', '--to', '2024-03-31'],
  'slots --per-day': ['slots', '--tariff', J, '--count', '6', '--per-day', '--from', '2024-03-29', '--to', '2024-04-02'],
  'slots range, --at-most': ['slots', '--tariff', A, '--count', '5', '--at-most', '--min-price', '-1.25', '--from', '2020-03-28', '--to', '2020-03-30'],
  negative: ['negative', '--tariff', A],
  'negative --runs': ['negative', '--runs', '--from', '2020-01-01', '--to', '2021-01-01'],
  'off-peak': ['off-peak'],
  daily: ['daily', '--tariff', J, '--from', '2024-03-29', '--to', '2024-04-02'],
  'daily, every tariff': ['daily', '--from', '2023-10-28', '--to', '2023-10-30'],
  monthly: ['monthly', '--tariff', J, '--from', '2023-09-01', '--to', '2024-04-01'],
  regions: ['regions', '--product', 'AGILE-18-02-21', '--from', '2020-01-01', '--to', '2020-02-01'],
  gaps: ['gaps', '--tariff', J],
  'cost --per day': ['cost', '--meter', IMPORT, '--from', '2023-10-28', '--to', '2023-11-01'],
  'cost --per half-hour at a tariff': ['cost', '--meter', IMPORT, '--tariff', J, '--per', 'half-hour', '--from', '2023-10-29', '--to', '2023-10-30'],
  'cost --per month, non-direct debit': ['cost', '--meter', `${IMPORT}:23J0000001`, '--per', 'month', '--payment-method', 'NON_DIRECT_DEBIT'],
  'cost --export-meter': ['cost', '--meter', IMPORT, '--export-meter', EXPORT, '--per', 'month', '--from', '2023-06-01', '--to', '2023-09-01'],
  compare: ['compare', '--meter', IMPORT, '--tariff', J, '--tariff', VAR, '--from', '2023-03-01', '--to', '2024-03-01'],
  'cost --all-meters': ['cost', '--all-meters', '--from', '2023-10-28', '--to', '2023-10-31'],
  'cost --all-meters --per month at a tariff': ['cost', '--all-meters', '--tariff', J, '--per', 'month', '--from', '2023-09-01', '--to', '2023-12-01'],
  'compare --all-meters': ['compare', '--all-meters', '--tariff', J, '--tariff', VAR, '--from', '2023-06-01', '--to', '2023-09-01'],
};

/** The session time zones the printed SQL is run in: the connection's default, and one that is not UTC. */
const ZONES = [undefined, 'America/New_York'] as const;

/** `cases` run a few at a time (each is a node and a DuckDB starting). */
async function runAll(cases: [string, string[]][], extra: string[]): Promise<Map<string, CliResult>> {
  const results = new Map<string, CliResult>();
  for (let i = 0; i < cases.length; i += 4) {
    const batch = cases.slice(i, i + 4);
    const done = await Promise.all(batch.map(([, args]) => runCli([...args, ...extra])));
    batch.forEach(([name], j) => results.set(name, done[j]!));
  }
  return results;
}

describe('--print-sql', () => {
  const tmp = tempDir('tariffs-print-sql-');
  const db = tmp.file('demo.duckdb');
  let printed: Map<string, CliResult>;
  let csv: Map<string, CliResult>;
  let instance: DuckDBInstance;

  beforeAll(async () => {
    await copyOfDemoWarehouse(db);
    const warehouse = await Warehouse.open(db);
    try {
      await warehouse.run(`DELETE FROM unit_rates WHERE tariff_code = $j AND valid_from >= CAST($from AS TIMESTAMPTZ)
        AND valid_from < CAST($to AS TIMESTAMPTZ)`, { j: J, ...HOLE });
    } finally {
      warehouse.close();
    }
    const cases = Object.entries(CASES);
    printed = await runAll(cases, ['--db', db, '--print-sql']);
    csv = await runAll(cases, ['--db', db, '--format', 'csv']);
    instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
  }, 900_000);

  afterAll(() => {
    instance?.closeSync();
    tmp.remove();
  });

  /** The printed statement's rows in a new connection, rendered as the CLI renders CSV. */
  async function rowsOf(sql: string, zone: string | undefined): Promise<string> {
    const connection = await instance.connect();
    try {
      if (zone !== undefined) await connection.run(`SET TimeZone = '${zone}'`);
      return render(rowsToJs(await connection.runAndReadAll(sql)), 'csv');
    } finally {
      connection.closeSync();
    }
  }

  for (const name of Object.keys(CASES)) {
    it(`${name}: the printed SQL returns the rows --format csv prints`, async () => {
      const sql = printed.get(name)!;
      const answer = csv.get(name)!;
      expect(sql.stderr.replace(/^tariffs: .*(dispatches|Intelligent Octopus Go).*\n/gm, '')).toBe('');
      expect(sql.code).toBe(0);
      expect(answer.code).toBe(0);
      expect(sql.stdout.trimEnd()).toMatch(/;$/);
      expect(sql.stdout).not.toMatch(/\$[A-Za-z_]/);
      // an answer of rows, so the comparison compares something
      expect(answer.stdout.split('\n').length).toBeGreaterThan(2);
      for (const zone of ZONES) expect(await rowsOf(sql.stdout, zone), zone ?? 'default zone').toBe(answer.stdout);
    });
  }

  it('the copy has the gap the cases count on, and some answers say so', () => {
    expect(csv.get('gaps')!.stdout).toContain('2024-03-30');
    expect(csv.get('cheapest --per-day')!.stdout).toMatch(/,false\n/);
  });

  it('names the checks it leaves out in --help, and is refused with --check and --list', async () => {
    const help = await runCli(['cheapest', '--help']);
    expect(help.stdout).toContain('--print-sql');
    expect(help.stdout).toMatch(/--print-sql prints the SQL of the answer/);
    expect(help.stdout).toMatch(/are\s+not\s+part\s+of\s+it/);
    const check = await runCli(['slots', '--tariff', J, '--count', '2', '--per-day', '--check', '--print-sql', '--db', db]);
    expect(check.code).toBe(2);
    expect(check.stderr).toMatch(/--print-sql: not with --check/);
  });
});
