// Money is never hidden on a terminal (issue 26, item 6): `compare`, `cost --per half-hour|day|month`
// and `cost --export-meter` on a real pseudo-terminal (`script`) 60, 80 and 120 columns wide, on
// the sandbox household (test/helpers/household.ts). The command's answer columns (the money, its
// period or scenario, complete) are always in the table, with the same figures as the JSON; the
// table fits the terminal; the footer names every column it left out.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSEHOLD } from '../src/sandbox/loadSandboxData.js';
import { CLI, runCli } from './helpers/runCli.js';
import { AGILE, IMPORT, VAR, json, readings, setUpHousehold, state, tearDownHousehold, type Row } from './helpers/household.js';

const shellQuote = (arg: string) => (/^[\w./:=@,+-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);

/** stdout of the CLI on a pseudo-terminal `cols` wide (stderr, the warnings, dropped). */
function onTerminal(args: string[], cols: number): Promise<string> {
  const command = `stty cols ${cols} rows 40; exec ${[process.execPath, CLI, ...args].map(shellQuote).join(' ')} 2>/dev/null`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, TARIFFS_LOG_LEVEL: 'warn', NO_COLOR: '1', TARIFFS_CONFIG: '', XDG_CONFIG_HOME: '/nonexistent-tariffs-test-config' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (screen += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(screen.replaceAll('\r', '').replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''));
    });
  });
}

interface Case { args: string[]; answer: string[]; money: string; rowKey: string }
const db = () => ['--db', state.db];
const CASES: Record<string, Case> = {
  compare: {
    args: ['compare', '--meter', IMPORT, '--tariff', AGILE, '--tariff', VAR, '--from', '2023-08-28', '--to', '2023-09-04'],
    answer: ['scenario', 'total_gbp', 'difference_gbp', 'complete'], money: 'difference_gbp', rowKey: 'scenario',
  },
  'cost --per half-hour': {
    args: ['cost', '--meter', IMPORT, '--per', 'half-hour', '--from', '2023-10-29', '--to', '2023-10-30'],
    answer: ['slot_start', 'value_inc_vat', 'cost_inc_vat'], money: 'cost_inc_vat', rowKey: 'slot_start',
  },
  'cost --per day': {
    args: ['cost', '--meter', IMPORT, '--per', 'day', '--from', '2023-08-30', '--to', '2023-10-31'],
    answer: ['local_date', 'total_gbp', 'complete'], money: 'total_gbp', rowKey: 'local_date',
  },
  'cost --per month': {
    args: ['cost', '--meter', IMPORT, '--per', 'month', '--from', '2023-08-28', '--to', '2023-11-01'],
    answer: ['month', 'total_gbp', 'complete'], money: 'total_gbp', rowKey: 'month',
  },
  'cost --export-meter': {
    args: ['cost', '--meter', IMPORT, '--export-meter', HOUSEHOLD.exportMpan, '--from', '2023-09-01', '--to', '2023-11-01'],
    answer: ['month', 'net_gbp', 'complete'], money: 'net_gbp', rowKey: 'month',
  },
};

let expected: Record<string, Row[]> = {};

beforeAll(async () => {
  await setUpHousehold();
  // the export meter's readings, 2023-09-25 → 2023-10-05 (both months of the net have some)
  const csv = join(state.dir, 'export.csv');
  const exported = [...readings.keys()].filter((ms) => ms >= Date.parse('2023-09-24T23:00:00Z') && ms < Date.parse('2023-10-04T23:00:00Z'));
  writeFileSync(csv, ['interval_start,kwh', ...exported.map((ms) => `${new Date(ms).toISOString()},0.25`)].join('\n') + '\n');
  const imported = await runCli(['consumption', 'import', csv, '--meter', `${HOUSEHOLD.exportMpan}:${HOUSEHOLD.electricitySerial}`, '--export', ...db()]);
  expect(imported.code, imported.stderr).toBe(0);
  const runs = await Promise.all(Object.values(CASES).map((c) => runCli([...c.args, ...db(), '--format', 'json'])));
  expected = Object.fromEntries(Object.keys(CASES).map((name, i) => {
    expect(runs[i]!.code, `${name}: ${runs[i]!.stderr}`).toBe(0);
    return [name, json(runs[i]!.stdout)];
  }));
}, 120_000);
afterAll(tearDownHousehold);

/** The money as a table shows it: pounds to the penny, pence to 2 decimals, nothing for null. */
const shown = (column: string, value: unknown) => (value === null ? '' : Number(value).toFixed(2));

describe('cost tables keep the money at every width; the footer names what was left out', () => {
  for (const cols of [60, 80, 120]) {
    it(`${cols} columns`, async () => {
      const names = Object.keys(CASES);
      const screens = await Promise.all(names.map((name) => onTerminal([...CASES[name]!.args, ...db()], cols)));
      names.forEach((name, i) => {
        const { answer, money, rowKey } = CASES[name]!;
        const rows = expected[name]!;
        expect(rows.length, name).toBeGreaterThan(1);
        const lines = screens[i]!.split('\n').filter((l) => l !== '');
        const rule = lines.findIndex((l) => /^-+( +-+)*$/.test(l));
        expect(rule, `${name}\n${screens[i]}`).toBeGreaterThan(0);
        // cells by the rule's dashes (a cell may hold spaces: 'E-1R-AGILE-18-02-21-J + E-1R-VAR-17-01-11-A')
        const spans = [...lines[rule]!.matchAll(/-+/g)].map((m) => [m.index, m.index + m[0].length] as const);
        const cellsOf = (line: string) => spans.map(([a, b]) => line.slice(a, b).trim());
        const header = cellsOf(lines[rule - 1]!);
        const title = rule > 1 ? lines[0]! : '';
        const body = lines.slice(rule + 1, rule + 1 + rows.length);
        const footer = lines.slice(rule + 1 + rows.length).join(' ');
        // the answer columns, with the JSON's figures, row by row
        for (const column of answer) expect(header, `${name} at ${cols}: ${column}\n${screens[i]}`).toContain(column);
        const at = header.indexOf(money);
        body.forEach((line, r) => {
          const cells = cellsOf(line);
          const keyCell = cells[header.indexOf(rowKey)];
          if (rowKey === 'month') expect(`${keyCell}`, name).toBe(rows[r]![rowKey]);
          if (rows[r]![money] !== null) expect(cells[at], `${name} row ${r}`).toBe(shown(money, rows[r]![money]));
        });
        // fits the terminal
        for (const line of lines) expect(line.length, `${name} at ${cols}: ${line}`).toBeLessThanOrEqual(cols);
        // every column not shown is named in the footer (or said once in the title, or empty in every row)
        expect(footer, name).toMatch(/^\d+ rows(; \d+ more columns? with --format csv or json: .*)?$/);
        for (const column of Object.keys(rows[0]!)) {
          if (header.includes(column)) continue;
          const empty = rows.every((r) => r[column] === null || r[column] === '');
          const said = rows.every((r) => r[column] === rows[0]![column]) && title.includes(String(rows[0]![column]));
          if (empty || said) continue;
          expect(footer, `${name} at ${cols}: ${column}`).toMatch(new RegExp(`[: ]${column}(,|$)`));
        }
        // the wider the terminal, the more columns, never fewer than the answer
        expect(header.length).toBeGreaterThanOrEqual(answer.length);
      });
      // no money column is ever left out at any width, whatever else gives way
      for (const name of names) expect(screens[names.indexOf(name)]!).not.toMatch(/more columns? with --format csv or json:.*\b(total_gbp|difference_gbp|net_gbp)\b/);
    }, 60_000);
  }
});
