// The CLI edge: turns a command's outcome into an exit status and one clear line on stderr.
// Usage errors exit 2, "database busy" 75, anything else 1 (stack with --verbose).
import type { Command } from 'commander';
import { ERROR_CODES, EXIT, TariffsError, DatabaseBusyError, UsageError } from '../errors.js';
import type { GlobalFlags } from './common.js';
import { cliMessage } from './requestWords.js';

export function exitCodeFor(error: unknown): number {
  if (error instanceof DatabaseBusyError) return EXIT.BUSY;
  if (error instanceof UsageError) return EXIT.USAGE;
  if (error instanceof TariffsError && error.code === ERROR_CODES.BASE_URL) return EXIT.USAGE; // a bad --base-url
  return EXIT.FAILURE;
}

export function describeError(error: unknown, verbose = false): string {
  if (verbose && error instanceof Error && error.stack) {
    let text = error.stack;
    let cause = (error as { cause?: unknown }).cause;
    while (cause instanceof Error) {
      text += `\ncaused by: ${cause.stack ?? cause.message}`;
      cause = (cause as { cause?: unknown }).cause;
    }
    return text;
  }
  if (error instanceof Error) return `tariffs: ${cliMessage(error)}`;
  return `tariffs: ${String(error)}`;
}

/** Wraps a command action: runs it with its flags and the program's (-v, --no-color: commander's
 *  optsWithGlobals()), sets process.exitCode, never throws. */
export function action<A extends unknown[]>(
  fn: (...args: A) => Promise<number | void> | number | void,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    // commander calls an action with (...arguments, options, command)
    const command = args.at(-1) as Command;
    const flags: GlobalFlags = command.optsWithGlobals();
    args[args.length - 2] = flags;
    try {
      const code = await fn(...args);
      process.exitCode = typeof code === 'number' ? code : EXIT.OK;
    } catch (error) {
      process.exitCode = reportError(error, flags.verbose === true);
    }
  };
}

/** One line on stderr for `error` (its stack with --verbose; a hint after a usage error); its exit code. */
export function reportError(error: unknown, verbose: boolean): number {
  process.stderr.write(`${describeError(error, verbose)}\n`);
  if (error instanceof UsageError) process.stderr.write(`Run with --help for usage.\n`);
  return exitCodeFor(error);
}
