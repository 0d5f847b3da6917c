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
import { columnsOf } from './columns.js';
import { wrapHelp } from './wrapHelp.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('tariffs')
    .version(packageVersion(), '-V, --version', 'print the version of tariffs')
    .description('Half-hourly electricity prices (and a household\'s consumption) in a local DuckDB warehouse: ingest, query, costs, schedule, export.')
    .option('-v, --verbose', 'more detail: info log lines on a terminal, stack traces on errors')
    .option('--no-color', 'no colour in log lines (also: NO_COLOR=1)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    // help fits the terminal it is read on (COLUMNS in a pipe; else 80): commander's own lines and
    // the notes commands add after them (wrapHelp). Subcommands inherit this.
    .configureOutput({
      getOutHelpWidth: () => helpWidth(process.stdout),
      getErrHelpWidth: () => helpWidth(process.stderr),
      writeOut: (text) => process.stdout.write(wrapHelp(text, helpWidth(process.stdout))),
      writeErr: (text) => process.stderr.write(wrapHelp(text, helpWidth(process.stderr))),
    });
  for (const register of commands) register(program);
  return program;
}

function helpWidth(stream: NodeJS.WriteStream): number {
  return columnsOf(stream) ?? 80;
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
