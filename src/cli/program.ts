// The `tariffs` command line: a thin shell that parses flags and calls plain functions.
// Each command lives in src/cli/commands/<name>.ts and exports `register(program)`. Loaded by
// main.ts once a signal that arrives meanwhile can be held (signals.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { packageRoot } from '../paths.js';
import { EXIT } from '../errors.js';
import { quietOnClosedPipes } from './closedPipes.js';
import { exitCodeOfSignal, takeEarlySignal } from './signals.js';
import { commands } from './commands/index.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('tariffs')
    .version(packageVersion(), '-V, --version', 'print the version of tariffs')
    .description('Half-hourly electricity prices (and a household\'s consumption) in a local DuckDB warehouse: ingest, query, costs, schedule, export.')
    .option('-v, --verbose', 'more detail: info log lines on a terminal, stack traces on errors')
    .option('--no-color', 'no colour in log lines (also: NO_COLOR=1)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const register of commands) register(program);
  return program;
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

export async function main(argv: string[] = process.argv): Promise<void> {
  quietOnClosedPipes();
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit 0; every other parse problem is a usage error.
      process.exitCode = error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
      return;
    }
    throw error;
  } finally {
    // a signal held while loading that no command took (it ended first): the process still says so
    const held = takeEarlySignal();
    if (held) process.exitCode = exitCodeOfSignal(held);
  }
}
