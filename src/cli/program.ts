// The `tariffs` command line: the program's own flags and help, and the command it runs, whose
// module (listed in commands/index.ts) alone is loaded. Loaded by main.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError, Help } from 'commander';
import { packageRoot } from '../paths.js';
import { EXIT } from '../errors.js';
import { quietOnClosedPipes } from './closedPipes.js';
import { exitCodeOfSignal, takeEarlySignal } from './signals.js';
import { COMMANDS, type CommandEntry } from './commands/index.js';
import { columnsOf } from './columns.js';
import { reportError } from './run.js';
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

async function addCommand(program: Command, entry: CommandEntry): Promise<void> {
  const command = program.command(entry.name).description(entry.summary);
  (await entry.load()).configure(command);
}

/** The program with every command loaded (tests compare the listed help with it). */
export async function buildProgram(): Promise<Command> {
  const program = bareProgram();
  for (const entry of COMMANDS) await addCommand(program, entry);
  return program;
}

/** The program `args` need: their command alone; for the program's own help, version, or a usage
 *  error, every command listed from the table without loading one. */
export async function programFor(args: readonly string[]): Promise<Command> {
  const program = bareProgram();
  const entry = commandOf(args);
  if (entry) {
    await addCommand(program, entry);
    return program;
  }
  const usage = new Map<Command, string>();
  for (const listed of COMMANDS) usage.set(program.command(listed.name).description(listed.summary), listed.usage);
  const plain = new Help();
  program.configureHelp({
    subcommandTerm: (command) => (usage.has(command) ? `${command.name()} ${usage.get(command)}`.trimEnd() : plain.subcommandTerm(command)),
  });
  return program;
}

/** Options of the program itself that may come before the command's name. */
const PROGRAM_FLAGS = new Set(['-v', '--verbose', '--no-color']);

/**
 * The command that `args` (argv without node and the script) runs; `help <command>` counts as that
 * command. Undefined for the program's own --help or --version, no command, or an unknown name
 * (commander then answers from the listed commands, with its suggestion).
 */
export function commandOf(args: readonly string[]): CommandEntry | undefined {
  const operands: string[] = [];
  for (const arg of args) {
    if (operands.length === 0 && PROGRAM_FLAGS.has(arg)) continue;
    if (operands.length === 0 && arg.startsWith('-')) return undefined; // -V, --help, or an unknown flag
    operands.push(arg);
    if (operands[0] !== 'help' || operands.length === 2) break;
  }
  const name = operands[0] === 'help' ? operands[1] : operands[0];
  return COMMANDS.find((c) => c.name === name);
}

function helpWidth(stream: NodeJS.WriteStream): number {
  return columnsOf(stream) ?? 80;
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

export async function main(argv: string[] = process.argv): Promise<void> {
  quietOnClosedPipes();
  let program: Command | undefined;
  try {
    program = await programFor(argv.slice(2));
    await program.parseAsync(argv);
  } catch (error) {
    // --help and --version exit 0; every other problem commander finds is a usage error
    if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? EXIT.OK : EXIT.USAGE;
    // a flag's value or a rule between flags (flagRules.ts), refused before the action ran
    else process.exitCode = reportError(error, program?.opts().verbose === true);
  } finally {
    // a signal held while loading that no command took (it ended first): the process still says so
    const held = takeEarlySignal();
    if (held) process.exitCode = exitCodeOfSignal(held);
  }
}
