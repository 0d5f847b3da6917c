// `tariffs compare`: a meter's consumption priced at its agreements and at each --tariff, side by side.
import type { Command } from 'commander';
import { lastCompleteMonths, tariffComparison, type PaymentMethod } from '../../analytics/index.js';
import { configureAhead, runAhead, type AheadFlags } from './compareAheadCommand.js';
import { collect, configFrom, withConfig, withDb, withFormat } from '../common.js';
import { LAYOUTS, RULES, meterFlag, paymentMethod, warnCarried, warnIncomplete } from '../costOutput.js';
import { rule } from '../flagRules.js';
import { printPortfolio } from '../portfolioOutput.js';
import { tariffComparisonStatement } from '../../analytics/costs.js';
import { PRINT_SQL_BATCHES, printSql, withPrintSql, type PrintSqlFlags } from '../printSql.js';
import { output, rangeOf, withWarehouse, type RangeFlags } from '../questions.js';
import { action } from '../run.js';

interface CompareFlags extends RangeFlags, AheadFlags, PrintSqlFlags {
  meter?: string;
  allMeters?: boolean;
  tariff?: string[];
  paymentMethod?: PaymentMethod;
}

export function configure(command: Command): void {
  command
    .option('--meter <MPAN[:SERIAL]>', 'the meter', meterFlag('--meter'))
    .option('--all-meters', 'every meter with consumption in the range: one row per meter and scenario, meter_point first')
    .option('--tariff <code>', 'a stored tariff to compare (repeatable; required with --meter)', collect)
    .option('--from <when>', 'range start (default: the first day of the month 12 months ago)')
    .option('--to <when>', 'range end, exclusive (default: the first day of the current month)')
    .option('--payment-method <method>', 'DIRECT_DEBIT or NON_DIRECT_DEBIT standing charges (default: config payment_method, else DIRECT_DEBIT)', paymentMethod);
  rule<CompareFlags>(command, (f) => (f.meter === undefined) === (f.allMeters !== true),
    'name one meter (--meter) or every meter (--all-meters)');
  rule<CompareFlags>(command, (f) => f.meter !== undefined && (f.tariff ?? []).length === 0 && f.ahead === undefined,
    "required option '--tariff <code>' not specified (with --meter)");
  configureAhead(command);
  withPrintSql(withFormat(withConfig(withDb(command))), PRINT_SQL_BATCHES);
  command.addHelpText('after', `
One row for the actual agreements (scenario 'actual') and one per --tariff: days, kwh,
energy_cost_inc_vat, standing_charge_inc_vat, total_inc_vat, total_gbp and difference_gbp (to the
actual; positive = dearer), with what is missing, and caveats: what the total rests on (prices
carried from a last published rate without an end, carried_half_hours and carried_from; days
without a standing charge), said on stderr too. SQL: tariff_comparison(meter, [tariffs], from, to, payment := …,
dispatches := …).
--all-meters: every meter point with consumption in the range, each at its agreements and at the
--tariff(s) of its fuel and direction (the others are left out for it, said on stderr; a --tariff
that fits none is refused); priced a batch of meters at a time, a progress bar on a terminal.
SQL: portfolio_comparison([tariffs], from, to, meters := …, mismatches := 'skip').
${RULES}`);
  command.action(action(async (flags: CompareFlags) => {
    const payment = flags.paymentMethod ?? (await configFrom(flags)).paymentMethod;
    if (flags.ahead !== undefined) {
      await runAhead(flags, payment);
      return;
    }
    const defaults = lastCompleteMonths(new Date());
    const range = flags.from === undefined && flags.to === undefined ? { from: defaults.from, to: defaults.to } : rangeOf(flags);
    await withWarehouse(flags, async (warehouse, format) => {
      if (flags.meter === undefined) {
        await printPortfolio(warehouse, format, 'compare', { tariffs: flags.tariff ?? [], payment, ...range, rounded: true }, flags.printSql);
        return;
      }
      const request = { meter: flags.meter, tariffs: flags.tariff ?? [], payment, ...range, rounded: true };
      if (flags.printSql) return printSql(await tariffComparisonStatement(warehouse, request));
      const rows = await tariffComparison(warehouse, request);
      warnIncomplete(rows);
      warnCarried(rows);
      output(rows, format, LAYOUTS.compare);
    });
  }));
}
