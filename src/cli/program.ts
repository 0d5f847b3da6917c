// The `tariffs` command line: a thin shell that parses flags and calls plain functions.
// Each command lives in src/cli/commands/<name>.ts and exports `register(program)`. Loaded by
// main.ts once a signal that arrives meanwhile can be held (signals.ts). Start-up is lazy: the
// program loads only the module of the command it runs (commandIndex.ts), and for --help or
// --version none at all.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError, Help } from 'commander';
import { packageRoot } from '../paths.js';
import { EXIT } from '../errors.js';
import { quietOnClosedPipes } from './closedPipes.js';
import { exitCodeOfSignal, takeEarlySignal } from './signals.js';
import { commandOf, readCommandIndex, type IndexedCommand } from './commandIndex.js';
import { commandModules, registerAll } from './commands/index.js';
import { columnsOf } from './columns.js';
import { wrapHelp } from './wrapHelp.js';

/** The program with only its own flags: what every invocation starts from. */
function bareProgram(): Command {
  return new Command()
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
      // an error stays one line, whatever the width: scripts and people grep for it
      outputError: (text) => process.stderr.write(text),
    });
}

/** The program with every command registered (tests, and start-up without a command index). */
export async function buildProgram(): Promise<Command> {
  return registerAll(bareProgram());
}

/** The program `args` need: their command's module alone; for the program's own help, version or
 *  a usage error, every command listed from the index without loading one. */
export async function programFor(args: readonly string[], index = readCommandIndex()): Promise<Command> {
  if (!index) return buildProgram();
  const command = commandOf(args, index);
  if (command) {
    const program = bareProgram();
    const module = commandModules.find((m) => m.file === command.file);
    if (module) {
      (await module.load()).register(program);
      return program;
    }
  }
  if (!command && !lacksCommand(args, index)) return buildProgram(); // a name the index does not know
  return listedProgram(index);
}

/** True when `args` name no command the index could miss: only program flags, or `help` alone. */
function lacksCommand(args: readonly string[], index: readonly IndexedCommand[]): boolean {
  const operand = args.find((a) => !a.startsWith('-'));
  return operand === undefined || (operand === 'help' && !index.some((c) => c.name === 'help'));
}

/** Every command as a placeholder carrying its indexed summary and help term: enough for commander
 *  to print the root help and to suggest a name, with no command's module loaded. */
function listedProgram(index: readonly IndexedCommand[]): Command {
  const program = bareProgram();
  const terms = new Map<Command, string>();
  for (const entry of index) {
    const placeholder = program.command(entry.name).description(entry.summary);
    for (const alias of entry.aliases) placeholder.alias(alias);
    terms.set(placeholder, entry.term);
  }
  const plain = new Help();
  program.configureHelp({ subcommandTerm: (command) => terms.get(command) ?? plain.subcommandTerm(command) });
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
  try {
    const program = await programFor(argv.slice(2));
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
