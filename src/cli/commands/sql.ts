// `tariffs sql`: an analyst's read-only query against the warehouse (read-only, so the scheduler
// can keep writing between queries).
import type { Command } from 'commander';
import { withDb, withFormat, type CommonFlags } from '../common.js';
import { DOUBLE_DIGITS, printQuery } from '../printQuery.js';
import { action } from '../run.js';

export function configure(command: Command): void {
  command.argument('<query>', 'SQL, e.g. "SELECT * FROM rate_slots LIMIT 5"');
  withFormat(withDb(command));
  command.addHelpText('after', '\nJSON output is an array of row objects; instants are ISO 8601 UTC strings (...Z), numbers are numbers.\n' +
    `DOUBLE values are printed to ${DOUBLE_DIGITS} significant digits, without the float noise of their last bits ` +
    '(8.323875000000001 prints as 8.323875); DECIMALs and integers exactly, DECIMALs with their scale in every format ' +
    '(92.90, a number in JSON too). CAST(x AS DECIMAL(18, 9)) shows more.\n' +
    'A table shows every column selected and TIMESTAMPTZ values as Europe/London wall time (the offset only in the hour ' +
    'the clocks go back, when it happens twice); when it is wider than the terminal, each row is a block of ' +
    '"column  value" lines.');
  command.action(action(async (text: string, flags: CommonFlags) => printQuery(flags, text)));
}
