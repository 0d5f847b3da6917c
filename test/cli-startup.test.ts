// Start-up (src/cli/program.ts, commands/index.ts): `--help` and `--version` work without loading a
// command or DuckDB, `tariffs <command>` loads only its own module, and the help listed from the
// table is the full program's. Which modules a run loads is read with a loader hook.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../src/cli/commands/index.js';
import { buildProgram, commandOf } from '../src/cli/program.js';
import { CLI, runCli, runCliCases } from './helpers/runCli.js';

const TRACE = fileURLToPath(new URL('./helpers/traceImports.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tariffs-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let traces = 0;
/** Runs the built CLI with the import trace; its exit status, output and the packages it loaded. */
function traced(args: string[]): { code: number | null; stdout: string; packages: Set<string>; modules: string[] } {
  const file = join(dir, `trace-${traces++}.txt`);
  const result = spawnSync(process.execPath, ['--import', TRACE, CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TRACE_IMPORTS_FILE: file, TARIFFS_CONFIG: '', XDG_CONFIG_HOME: '/nonexistent-tariffs-test-config', COLUMNS: '80' },
  });
  const modules = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const packages = new Set(modules.map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1]).filter((p): p is string => !!p));
  return { code: result.status, stdout: result.stdout, packages, modules };
}

const HEAVY = ['@duckdb/node-api', 'undici', 'vega', 'vega-lite', 'pino', 'pino-pretty', 'zod', 'cli-progress', 'node-cron'];
const commandFiles = (modules: string[]) => modules.filter((m) => m.includes('/cli/commands/')).map((m) => m.replace(/.*\/cli\/commands\//, '')).sort();

describe('start-up', () => {
  it('--version and --help work without loading a command, DuckDB or another heavy package', () => {
    for (const args of [['--version'], ['-V'], ['--help'], ['help'], []]) {
      const run = traced(args);
      expect(run.code, args.join(' ')).toBe(args.length === 0 ? 2 : 0); // no command: the help, as a usage error
      expect(run.stdout, args.join(' ')).toMatch(['--version', '-V'].includes(args[0] ?? '') ? /^\d+\.\d+\.\d+\n$/ : args.length === 0 ? /^$/ : /^Usage: tariffs /);
      expect([...run.packages].filter((p) => HEAVY.includes(p)), args.join(' ')).toEqual([]);
      expect(commandFiles(run.modules), args.join(' ')).toEqual(['index.js']);
    }
  });

  it('a command loads its own module only: `daily --help` no HTTP or charting code, `sql --help` no other command', () => {
    const daily = traced(['daily', '--help']);
    expect(daily.code).toBe(0);
    expect(daily.stdout).toContain('Usage: tariffs daily');
    expect(daily.packages.has('vega')).toBe(false);
    expect(daily.packages.has('undici')).toBe(false);
    expect(commandFiles(daily.modules)).toEqual(['daily.js', 'index.js']);
    const sql = traced(['-v', 'sql', '--help']);
    expect(sql.code).toBe(0);
    expect(sql.stdout).toContain('Usage: tariffs sql');
    expect(commandFiles(sql.modules)).toEqual(['index.js', 'sql.js']);
  });

  it('the trace sees DuckDB when a command opens a warehouse (so its absence above means something)', () => {
    const db = join(dir, 'empty.duckdb');
    expect(traced(['migrate', '--db', db]).code).toBe(0);
    const opened = traced(['sql', '--db', db, '--format', 'csv', 'SELECT 1 AS n']);
    expect(opened.code).toBe(0);
    expect(opened.stdout.trim()).toBe('n\n1');
    expect(opened.packages.has('@duckdb/node-api')).toBe(true);
    // no bar is drawn (stderr is piped): the bar's package is not loaded
    expect(opened.packages.has('cli-progress')).toBe(false);
  });

  it('a query piped, without a config file, loads neither the config validator (zod) nor pino-pretty', () => {
    const db = join(dir, 'empty.duckdb');
    expect(traced(['migrate', '--db', db]).code).toBe(0);
    const query = traced(['sql', '--db', db, '--format', 'csv', 'SELECT 1 AS n']);
    expect(query.code).toBe(0);
    expect(query.packages.has('pino')).toBe(true);
    expect(query.packages.has('zod')).toBe(false);
    expect(query.packages.has('pino-pretty')).toBe(false);
    // a config file is validated, with zod
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ db }));
    const configured = traced(['status', '--config', config, '--format', 'json']);
    expect(configured.code).toBe(0);
    expect(configured.packages.has('zod')).toBe(true);
  });

  it('the root help listed from the table is the full program\'s help, word for word', async () => {
    // both piped, in the same environment: the same help width
    const listed = await runCli(['--help']);
    const full = await buildProgram();
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(full.helpInformation());
    expect(full.commands.map((c) => c.name())).toEqual(COMMANDS.map((c) => c.name));
  });

  it('every command\'s --help works, and `help <command>` prints the same', async () => {
    const cases = Object.fromEntries(COMMANDS.flatMap((c) => [[c.name, [c.name, '--help']], [`help ${c.name}`, ['help', c.name]]])) as Record<string, string[]>;
    const results = await runCliCases(cases, []);
    for (const { name } of COMMANDS) {
      expect(results[name]!.code, name).toBe(0);
      expect(results[name]!.stdout, name).toMatch(new RegExp(`^Usage: tariffs ${name} `));
      expect(results[`help ${name}`]!.stdout, name).toBe(results[name]!.stdout);
    }
  }, 120_000);

  it('the build leaves the bin executable, so that npx runs it whatever links it kept from before', () => {
    expect(statSync(CLI).mode & 0o111).not.toBe(0);
    const version = spawnSync(CLI, ['--version'], { encoding: 'utf8' });
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('finds the command past the program\'s flags and behind `help`', () => {
    const name = (args: string[]) => commandOf(args)?.name;
    expect(name(['daily', '--tariff', 'X'])).toBe('daily');
    expect(name(['-v', '--no-color', 'sql', 'SELECT 1'])).toBe('sql');
    expect(name(['help', 'daily'])).toBe('daily');
    expect(name(['events', 'load', '-'])).toBe('events');
    expect(name(['--version'])).toBeUndefined();
    expect(name(['--help', 'daily'])).toBeUndefined();
    expect(name(['help'])).toBeUndefined();
    expect(name(['dayly'])).toBeUndefined();
  });

  it('an unknown command is still a usage error with commander\'s suggestion', async () => {
    const typo = await runCli(['dayly']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown command 'dayly'[\s\S]*daily/);
  });
});
