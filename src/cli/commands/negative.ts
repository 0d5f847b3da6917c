// `tariffs negative`: when prices were negative, the half-hours or the contiguous runs.
import type { Command } from 'commander';
import { negativeRuns, negativeSlots } from '../../analytics/index.js';
import { negativeRunsStatement } from '../../analytics/negativeRuns.js';
import { negativeSlotsStatement } from '../../analytics/negativeSlots.js';
import { withDb, withFormat } from '../common.js';
import { FORMS, output, rangeOf, tariffOf, withStoredRange, withWarehouse, type TariffFlags } from '../questions.js';
import { printSql, withPrintSql, type PrintSqlFlags } from '../printSql.js';
import { action } from '../run.js';

export function configure(command: Command): void {
  withStoredRange(command
    .option('--tariff <code>', 'one tariff (default: every stored tariff)')
    .option('--runs', 'one row per contiguous run of negative half-hours'));
  withPrintSql(withFormat(withDb(command)));
  command.addHelpText('after', `
Half-hours are listed when they lie inside [--from, --to); runs when they overlap it (shown whole).
No negative prices is an empty answer (exit 0). SQL: the views negative_slots and negative_runs.
${FORMS}`);
  command.action(action(async (flags: TariffFlags & PrintSqlFlags & { runs?: boolean }) => {
    const range = rangeOf(flags);
    const request = { ...tariffOf(flags), ...range, rounded: true };
    if (flags.printSql) return printSql(flags.runs ? negativeRunsStatement(request) : negativeSlotsStatement(request));
    await withWarehouse(flags, async (warehouse, format) => {
      output(flags.runs ? await negativeRuns(warehouse, request) : await negativeSlots(warehouse, request), format);
    });
  }));
}
