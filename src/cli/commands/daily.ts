// `tariffs daily`: each Europe/London local day's price statistics (the view daily_stats).
import type { Command } from 'commander';
import { dailyStats } from '../../analytics/index.js';
import { dailyStatsStatement } from '../../analytics/dailyStats.js';
import { withDb, withFormat } from '../common.js';
import { FORMS, output, rangeOf, tariffOf, withTariffDays, withWarehouse, type TariffFlags } from '../questions.js';
import { printSql, withPrintSql, type PrintSqlFlags } from '../printSql.js';
import { action } from '../run.js';

export function configure(command: Command): void {
  withTariffDays(command);
  withPrintSql(withFormat(withDb(command)));
  command.addHelpText('after', `
A day is listed when its local midnight lies in [--from, --to): --from 2024-03-01 --to 2024-04-01 is March.
expected_slots is the day's length: 46 when clocks go forward, 50 when they go back, else 48.
Peak: 16:00-19:00 local wall time. SQL: the view daily_stats.
${FORMS}`);
  command.action(action(async (flags: TariffFlags & PrintSqlFlags) => {
    const range = rangeOf(flags);
    if (flags.printSql) return printSql(dailyStatsStatement({ ...tariffOf(flags), ...range, rounded: true }));
    await withWarehouse(flags, async (warehouse, format) => {
      output(await dailyStats(warehouse, { ...tariffOf(flags), ...range, rounded: true }), format);
    });
  }));
}
