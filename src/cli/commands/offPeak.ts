// `tariffs off-peak`: the off-peak periods of two- and three-rate tariffs, runs at the day's lowest
// rate; with --include-dispatches, the half-hours an Intelligent Octopus Go dispatch made off-peak.
import type { Command } from 'commander';
import { describeDispatchMode, offPeakPeriods, type DispatchMode } from '../../analytics/index.js';
import { parseDispatchMode } from '../parseDispatchMode.js';
import { offPeakPeriodsStatement } from '../../analytics/offPeakPeriods.js';
import { withDb, withFormat } from '../common.js';
import { parsed, rule } from '../flagRules.js';
import { FORMS, output, rangeOf, tariffOf, withStoredRange, withWarehouse, type TariffFlags } from '../questions.js';
import { printSql, withPrintSql, type PrintSqlFlags } from '../printSql.js';
import { action } from '../run.js';

interface OffPeakFlags extends TariffFlags, PrintSqlFlags {
  includeDispatches?: boolean;
  dispatches?: DispatchMode;
}

export function configure(command: Command): void {
  withStoredRange(command.option('--tariff <code>', 'one tariff (default: every stored tariff)'))
    .option('--include-dispatches', 'Intelligent Octopus Go: also the half-hours only a dispatch made off-peak, per account')
    .option('--dispatches <which>', 'with --include-dispatches: planned|completed (default: completed where known, else planned for the future)',
      parsed('--dispatches', parseDispatchMode));
  rule<OffPeakFlags>(command, (f) => f.dispatches !== undefined && !f.includeDispatches, '--dispatches: give --include-dispatches too');
  rule<OffPeakFlags>(command, (f) => f.includeDispatches === true && f.dispatches === 'none', '--dispatches none: leave out --include-dispatches instead');
  withPrintSql(withFormat(withDb(command)));
  command.addHelpText('after', `
Only fully priced Europe/London local days (all 46, 48 or 50 half-hours) with two or three
distinct prices count (Agile days never do; a day's first or last stored hours do not); a period
is cut at local midnight, and listed when it lies inside [--from, --to). A four-rate EV
tariff (ingested with --product/--region) shows its night band, 10/12/14 half-hours long for
23:30-05:30 on the spring-forward/ordinary/fall-back night. No such days is an empty answer (exit 0).
Half-hours made off-peak only by an Intelligent Octopus Go dispatch are left out unless
--include-dispatches: then each account on such a tariff has its periods with the dispatched
half-hours in (within the 6-hour daily cap), dispatch_slots counting them, provisional when they
rest on a plan; which dispatches counted is said on stderr.
SQL: the view off_peak_periods; off_peak_periods_with('default'|'completed'|'planned').
${FORMS}`);
  command.action(action(async (flags: OffPeakFlags) => {
    const range = rangeOf(flags);
    const mode = flags.dispatches ?? parseDispatchMode(undefined);
    const dispatches = flags.includeDispatches ? { dispatches: mode } : {};
    if (flags.printSql) return printSql(offPeakPeriodsStatement({ ...tariffOf(flags), ...range, ...dispatches }));
    await withWarehouse(flags, async (warehouse, format) => {
      if (flags.includeDispatches) process.stderr.write(`tariffs: off-peak with Intelligent Octopus Go dispatches: ${describeDispatchMode(mode)}\n`);
      output(await offPeakPeriods(warehouse, { ...tariffOf(flags), ...range, ...dispatches }), format);
    });
  }));
}
