// `tariffs cost`: what a meter's consumption cost at its agreements (or at a stored tariff), per
// half-hour, day or month; with --export-meter, per month the import, the export and the net.
import type { Command } from 'commander';
import {
  costs, describeDispatchMode, meterOnIog, netCosts, type CostPeriod, type DispatchMode, type PaymentMethod,
} from '../../analytics/index.js';
import { configFrom, withConfig, withDb, withFormat } from '../common.js';
import { LAYOUTS, PERIODS, RULES, agreementsHint, meterFlag, paymentMethod, warnCarried, warnIncomplete } from '../costOutput.js';
import { oneOf, parsed, rule } from '../flagRules.js';
import { parseDispatchMode } from '../parseDispatchMode.js';
import { printPortfolio } from '../portfolioOutput.js';
import { costsStatement, netCostsStatement } from '../../analytics/costs.js';
import { PRINT_SQL_BATCHES, printSql, withPrintSql, type PrintSqlFlags } from '../printSql.js';
import { output, rangeOf, withWarehouse, type RangeFlags } from '../questions.js';
import { action } from '../run.js';

interface CostFlags extends RangeFlags, PrintSqlFlags {
  meter?: string;
  allMeters?: boolean;
  tariff?: string;
  per?: CostPeriod;
  paymentMethod?: PaymentMethod;
  exportMeter?: string;
  dispatches?: DispatchMode;
}

export function configure(command: Command): void {
  command
    .option('--meter <MPAN[:SERIAL]>', 'the meter (gas: MPRN)', meterFlag('--meter'))
    .option('--all-meters', 'every meter with consumption in the range, per day or month: meter_point first')
    .option('--tariff <code>', 'price the consumption at this stored tariff instead of the agreements in force')
    .option('--from <when>', 'range start (default: the first reading)')
    .option('--to <when>', 'range end, exclusive (default: the end of the last reading)')
    .option('--per <period>', `${PERIODS.join('|')} (default: day)`, oneOf('--per', PERIODS))
    .option('--payment-method <method>', 'DIRECT_DEBIT or NON_DIRECT_DEBIT standing charges (default: config payment_method, else DIRECT_DEBIT)', paymentMethod)
    .option('--export-meter <MPAN[:SERIAL]>', 'the export meter: per month, import cost, export earnings and net', meterFlag('--export-meter'))
    .option('--dispatches <which>', 'Intelligent Octopus Go: planned|completed|none (default: completed where known, else planned for the future)',
      parsed('--dispatches', parseDispatchMode));
  rule<CostFlags>(command, (f) => (f.meter === undefined) === (f.allMeters !== true),
    'name one meter (--meter) or every meter (--all-meters)');
  rule<CostFlags>(command, (f) => f.allMeters === true && (f.exportMeter !== undefined || f.per === 'half-hour'),
    '--all-meters: per day or month (--per day|month), without --export-meter (SQL: portfolio_pricing for half-hours)');
  rule<CostFlags>(command, (f) => f.exportMeter !== undefined && (f.tariff !== undefined || (f.per !== undefined && f.per !== 'month')),
    '--export-meter: the net is per month at the agreements (no --tariff, --per month)');
  withPrintSql(withFormat(withConfig(withDb(command))), PRINT_SQL_BATCHES);
  command.addHelpText('after', `
SQL: half_hour_costs(meter, tariff, from, to, payment := …), daily_costs(…), monthly_costs(…)
(tariff NULL = the agreements), net_costs(import_meter, export_meter, from, to, payment := …).
Intelligent Octopus Go (a meter whose account has such an agreement and its dispatches ingested):
a half-hour a dispatch touches is priced at the day's off-peak rate, up to 6 hours of dispatched
half-hours a Europe/London day (sql/public/effective_rates_with.sql); --dispatches picks which
count, said on stderr (SQL: dispatches := 'default'|'completed'|'planned'|'none').
--all-meters: every meter point with consumption in the range (a --tariff only for the meters of
its fuel and direction), a progress bar on a terminal. SQL: portfolio_daily_costs([scenario],
from, to, meters := …), portfolio_monthly_costs(…), portfolio_pricing(…) per half-hour.
${RULES}`);
  command.action(action(async (flags: CostFlags) => {
    const per = flags.per ?? 'day';
    const range = rangeOf(flags);
    const payment = flags.paymentMethod ?? (await configFrom(flags)).paymentMethod;
    const dispatches = flags.dispatches ?? parseDispatchMode(undefined);
    await withWarehouse(flags, async (warehouse, format) => {
      if (flags.meter === undefined) {
        await printPortfolio(warehouse, format, per === 'month' ? 'month' : 'day',
          { tariffs: flags.tariff ? [flags.tariff] : [], payment, dispatches, ...range, rounded: true }, flags.printSql);
        return;
      }
      const meter = flags.meter;
      const request = { meter, ...(flags.tariff ? { tariff: flags.tariff } : {}), per, payment, dispatches, ...range, rounded: true };
      const net = flags.exportMeter === undefined ? undefined : { importMeter: meter, exportMeter: flags.exportMeter, payment, ...range, rounded: true };
      if (flags.printSql) return printSql(net ? await netCostsStatement(warehouse, net) : await costsStatement(warehouse, request));
      const rows = net ? await netCosts(warehouse, net) : await costs(warehouse, request);
      warnIncomplete(rows, flags.tariff === undefined ? agreementsHint(meter) : '');
      warnCarried(rows);
      if (flags.exportMeter === undefined && await meterOnIog(warehouse, meter)) {
        process.stderr.write(`tariffs: Intelligent Octopus Go dispatches counted: ${describeDispatchMode(dispatches)} (SQL: dispatches := '${dispatches}')\n`);
      }
      output(rows, format, LAYOUTS[flags.exportMeter === undefined ? per : 'net']);
    });
  }));
}
