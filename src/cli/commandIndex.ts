// The command line's table of contents: each top-level command's name, aliases, summary and help
// term, and the module that registers it. The build writes it (dist/command-index.json) from the
// registrations themselves, so `tariffs --help` and `--version` list commands without loading any
// command module (each pulls in DuckDB, HTTP or charting code), and `tariffs <command>` loads only
// its own. Read without a schema library: start-up is what it is for.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Help, type Command } from 'commander';
import { packageRoot } from '../paths.js';

export interface IndexedCommand {
  name: string;
  aliases: string[];
  summary: string;
  /** How the root help lists it: `sql [options] <query>`. */
  term: string;
  /** The module (commandModules' `file`) that registers it. */
  file: string;
}

export const commandIndexPath = (): string => join(packageRoot(), 'dist', 'command-index.json');

/** The commands `program` has, as the index records them (registered by module `file`). */
export function indexCommands(program: Command, file: string): IndexedCommand[] {
  const help = new Help();
  return program.commands.map((command) => ({
    name: command.name(),
    aliases: command.aliases(),
    summary: help.subcommandDescription(command),
    term: help.subcommandTerm(command),
    file,
  }));
}

/** The index the build wrote, or undefined when it is missing or not of this shape (then every
 *  command module is loaded, as a correct if slower start). */
export function readCommandIndex(path = commandIndexPath()): IndexedCommand[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  const isEntry = (e: unknown): e is IndexedCommand => {
    const x = e as IndexedCommand;
    return typeof x === 'object' && x !== null && typeof x.name === 'string' && typeof x.summary === 'string' &&
      typeof x.term === 'string' && typeof x.file === 'string' && Array.isArray(x.aliases) && x.aliases.every((a) => typeof a === 'string');
  };
  return Array.isArray(parsed) && parsed.length > 0 && parsed.every(isEntry) ? parsed : undefined;
}

/** Options of the program itself that may come before the command's name. */
const PROGRAM_FLAGS = new Set(['-v', '--verbose', '--no-color']);

/**
 * The command that `args` (argv without node and the script) runs, by name or alias; `help <command>`
 * counts as that command. Undefined for the program's own --help/--version, no command at all, or
 * a name the index does not know (the caller then loads every module, so commander's own message
 * and suggestions answer it).
 */
export function commandOf(args: readonly string[], index: readonly IndexedCommand[]): IndexedCommand | undefined {
  const operands: string[] = [];
  for (const arg of args) {
    if (operands.length === 0 && PROGRAM_FLAGS.has(arg)) continue;
    if (operands.length === 0 && arg.startsWith('-')) return undefined; // -V, --help, or an unknown flag
    operands.push(arg);
    if (operands[0] !== 'help' || operands.length === 2) break;
  }
  const name = operands[0] === 'help' ? operands[1] : operands[0];
  if (name === undefined) return undefined;
  return index.find((c) => c.name === name || c.aliases.includes(name));
}
