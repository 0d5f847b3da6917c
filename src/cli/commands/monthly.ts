// `tariffs monthly`: each Europe/London calendar month's price statistics (the view monthly_stats).
import type { Command } from 'commander';
import { monthlyStats } from '../../analytics/index.js';
import { monthlyStatsStatement } from '../../analytics/monthlyStats.js';
import { withDb, withFormat } from '../common.js';
import { FORMS, WHEN, output, rangeOf, tariffOf, withTariffDays, withWarehouse, type TariffFlags } from '../questions.js';
import { printSql, withPrintSql, type PrintSqlFlags } from '../printSql.js';
import { action } from '../run.js';

export function configure(command: Command): void {
  withTariffDays(command, `first day (default: everything stored); the months holding it and later; ${WHEN}`);
  withPrintSql(withFormat(withDb(command)));
  command.addHelpText('after', `
month is the first day of the Europe/London calendar month; --from/--to select the months holding
the local days whose midnight lies in [--from, --to) (each month whole). SQL: the view monthly_stats.
${FORMS}`);
  command.action(action(async (flags: TariffFlags & PrintSqlFlags) => {
    const range = rangeOf(flags);
    if (flags.printSql) return printSql(monthlyStatsStatement({ ...tariffOf(flags), ...range, rounded: true }));
    await withWarehouse(flags, async (warehouse, format) => {
      output(await monthlyStats(warehouse, { ...tariffOf(flags), ...range, rounded: true }), format);
    });
  }));
}
