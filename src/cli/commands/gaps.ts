// `tariffs gaps`: half-hours missing from half-hourly series, per local day (the view gaps).
import type { Command } from 'commander';
import { gaps } from '../../analytics/index.js';
import { gapsStatement } from '../../analytics/gaps.js';
import { withDb, withFormat } from '../common.js';
import { FORMS, output, rangeOf, tariffOf, withTariffDays, withWarehouse, type TariffFlags } from '../questions.js';
import { printSql, withPrintSql, type PrintSqlFlags } from '../printSql.js';
import { action } from '../run.js';

export function configure(command: Command): void {
  withTariffDays(command);
  withPrintSql(withFormat(withDb(command)));
  command.addHelpText('after', `
A day is listed when its local midnight lies in [--from, --to).
Only days between a series' first stored half-hour and the end of its last are checked, and
expected_slots counts the day's half-hours inside that span (day_slots: 46, 48 or 50). SQL: the view gaps.
${FORMS}`);
  command.action(action(async (flags: TariffFlags & PrintSqlFlags) => {
    const range = rangeOf(flags);
    if (flags.printSql) return printSql(gapsStatement({ ...tariffOf(flags), ...range }));
    await withWarehouse(flags, async (warehouse, format) => {
      output(await gaps(warehouse, { ...tariffOf(flags), ...range }), format);
    });
  }));
}
