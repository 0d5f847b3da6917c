// Lazy start-up (src/cli/program.ts, commandIndex.ts): `--help` and `--version` load no command
// module, `tariffs <command>` loads only its own, and what they print is what the program with
// every command registered prints. Which modules a run loads is read with a loader hook.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { markBinExecutable, registeredCommands } from '../src/cli/buildCommandIndex.js';
import { commandIndexPath, commandOf, readCommandIndex, type IndexedCommand } from '../src/cli/commandIndex.js';
import { buildProgram } from '../src/cli/program.js';
import { CLI, runCli } from './helpers/runCli.js';

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

describe('lazy start-up', () => {
  it('--version and --help load no command module and no heavy package', () => {
    for (const args of [['--version'], ['-V'], ['--help'], ['help'], []]) {
      const run = traced(args);
      expect(run.code, args.join(' ')).toBe(args.length === 0 ? 2 : 0); // no command: the help, as a usage error
      expect([...run.packages].filter((p) => HEAVY.includes(p)), args.join(' ')).toEqual([]);
      expect(run.modules.filter((m) => m.includes('/cli/commands/') && !m.endsWith('/commands/index.js')), args.join(' ')).toEqual([]);
    }
  });

  it('a command loads its own module only: `daily --help` no HTTP or charting code, `sql --help` not the analytics', () => {
    const daily = traced(['daily', '--help']);
    expect(daily.code).toBe(0);
    expect(daily.stdout).toContain('Usage: tariffs daily');
    expect(daily.packages.has('vega')).toBe(false);
    expect(daily.packages.has('undici')).toBe(false);
    expect(daily.modules.filter((m) => m.includes('/cli/commands/')).map((m) => m.replace(/.*\/cli\/commands\//, '')).sort())
      .toEqual(['analytics.js', 'index.js']);
    const sql = traced(['-v', 'sql', '--help']);
    expect(sql.code).toBe(0);
    expect(sql.stdout).toContain('Usage: tariffs sql');
    expect(sql.modules.some((m) => m.endsWith('/cli/commands/analytics.js'))).toBe(false);
  });

  it('the trace sees DuckDB when a command opens a warehouse (src/store/duckdb.ts loads it with require())', () => {
    const db = join(dir, 'empty.duckdb');
    expect(traced(['migrate', '--db', db]).code).toBe(0);
    const opened = traced(['sql', '--db', db, '--format', 'csv', 'SELECT 1 AS n']);
    expect(opened.code).toBe(0);
    expect(opened.stdout.trim()).toBe('n\n1');
    expect(opened.packages.has('@duckdb/node-api')).toBe(true);
    expect(opened.modules.some((m) => m.includes('/node_modules/@duckdb/node-api/lib/index.js'))).toBe(true);
  });

  it('the root help printed from the index is the full program\'s help, word for word', async () => {
    // both piped, in the same environment: the same help width
    const lazy = await runCli(['--help']);
    const full = await buildProgram();
    expect(lazy.code).toBe(0);
    expect(lazy.stdout).toBe(full.helpInformation());
  });

  it('the build leaves the bin executable, so that npx runs it whatever links it kept from before', () => {
    // what npm's bin linking would do: x wherever r is (an old npx link to this path skips it)
    const file = join(dir, 'main.js');
    writeFileSync(file, '');
    chmodSync(file, 0o640);
    markBinExecutable(file);
    expect(statSync(file).mode & 0o777).toBe(0o750);
    // npm test builds first: the real bin was marked so
    expect(statSync(CLI).mode & 0o111).not.toBe(0);
    const version = spawnSync(CLI, ['--version'], { encoding: 'utf8' });
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('the built index is what the command modules register, in help order', async () => {
    const live = await registeredCommands();
    expect(readCommandIndex(commandIndexPath())).toEqual(live);
    expect(live.map((c) => c.name)).toContain('cheapest');
  });

  it('finds the command past the program\'s flags and behind `help`', () => {
    const index: IndexedCommand[] = [
      { name: 'daily', aliases: [], summary: '', term: 'daily [options]', file: 'analytics' },
      { name: 'sql', aliases: ['q'], summary: '', term: 'sql [options] <query>', file: 'sql' },
    ];
    const file = (args: string[]) => commandOf(args, index)?.file;
    expect(file(['daily', '--tariff', 'X'])).toBe('analytics');
    expect(file(['-v', '--no-color', 'sql', 'SELECT 1'])).toBe('sql');
    expect(file(['q', 'SELECT 1'])).toBe('sql');
    expect(file(['help', 'daily'])).toBe('analytics');
    expect(file(['--version'])).toBeUndefined();
    expect(file(['--help', 'daily'])).toBeUndefined();
    expect(file(['help'])).toBeUndefined();
    expect(file(['dayly'])).toBeUndefined();
  });

  it('an unknown command is still a usage error with commander\'s suggestion; `help <command>` prints its help', async () => {
    const typo = await runCli(['dayly']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown command 'dayly'[\s\S]*daily/);
    const help = await runCli(['help', 'cheapest']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: tariffs cheapest');
  });
});
