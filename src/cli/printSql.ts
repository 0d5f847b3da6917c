// `--print-sql` of the question commands: the statement a command runs for its answer, with its
// values written in as literals, printed instead of running it (the same statement the command
// binds and runs otherwise: src/analytics builds it once for both).
import type { Command } from 'commander';
import { inlineParams, type Query } from '../store/inlineParams.js';

export interface PrintSqlFlags {
  printSql?: boolean;
}

export const PRINT_SQL_HELP = `
--print-sql prints the SQL of the answer, its values written in as literals, and exits 0 without
running it: in a DuckDB shell (or Python) on the same file it returns the rows --format csv
prints, same columns, order and digits. Checks the command makes before or after (that the
meter, tariff or range has data; the coverage warnings) are not part of it.`;

/** Said by the commands with --all-meters. */
export const PRINT_SQL_BATCHES = `With --all-meters the statement names every meter in meters := [...]; the command runs it a
batch of meters at a time (the same rows, in the same order).`;

/** Adds `--print-sql` and its help (with `more` after it) to a question command. */
export function withPrintSql(command: Command, more = ''): Command {
  return command
    .option('--print-sql', 'print the SQL the answer runs, values inlined, and exit without running it')
    .addHelpText('after', `${PRINT_SQL_HELP}${more ? `\n${more}` : ''}`);
}

/** The statement as an analyst pastes it: values inlined, ending with a semicolon. */
export function printSql(query: Query): void {
  process.stdout.write(`${sqlText(query)}\n`);
}

export function sqlText(query: Query): string {
  return `${inlineParams(query).trim()};`;
}
