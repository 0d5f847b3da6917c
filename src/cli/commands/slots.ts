// `tariffs slots`: the N cheapest (or highest) half-hours of a tariff in a range, adjacent or not;
// with --check, whether now lies in a block of today's.
import type { Command } from 'commander';
import { checkSlots, cheapestSlots } from '../../analytics/index.js';
import { cheapestSlotsStatement } from '../../analytics/cheapestSlots.js';
import { parseOffset } from '../parseOffset.js';
import { EXIT } from '../../errors.js';
import { withDb, withFormat } from '../common.js';
import { parsed, positiveCount, rule } from '../flagRules.js';
import { FORMS, output, rangeOf, withWarehouse } from '../questions.js';
import {
  CHECK_HELP, DISPATCHES_HELP, ROLLING_HELP, checkCoverage, dispatchesOf, optionsOf, withCheckRules, withRolling, type RollingFlags,
} from '../rollingQuestions.js';
import { printSql, withPrintSql, type PrintSqlFlags } from '../printSql.js';
import { action } from '../run.js';

interface SlotsFlags extends RollingFlags, PrintSqlFlags {
  count: number;
}

export function configure(command: Command): void {
  command
    .requiredOption('--tariff <code>', 'tariff code, e.g. E-1R-AGILE-18-02-21-A')
    .requiredOption('--count <n>', 'how many half-hours', positiveCount('--count'))
    .option('--per-day', '--count half-hours per Europe/London local day (each day chosen on its own)')
    .option('--weights-from <relation>', 'a weight per half-hour from a table, view or CSV/Parquet file (columns slot_start, weight): ranked by price × weight')
    .option('--check', 'with --per-day: exit 0 when now lies in a block of today\'s (or tomorrow\'s) half-hours, 3 when not; prints the blocks')
    .option('--offset <offset>', 'with --check: act this long after each block starts, negative before (-1h: an hour early)', parsed('--offset', parseOffset));
  rule<SlotsFlags>(command, (f) => f.check === true && f.perDay !== true, '--check needs --per-day: it checks today\'s half-hours');
  rule<SlotsFlags>(command, (f) => f.check === true && f.printSql === true, '--print-sql: not with --check (it prints the SQL of the half-hours without --check)');
  withCheckRules(command);
  withPrintSql(withFormat(withDb(withRolling(command, 'half-hours'))));
  command.addHelpText('after', `
Only half-hours inside [--min-price, --max-price] can be chosen. Fewer eligible half-hours than
--count is no answer (exit 0, a note on stderr), unless --at-most; with --per-day, per day.
SQL: SELECT * FROM cheapest_slots(tariff, n, from, to, latest := …, highest := …, min_price := …,
max_price := …, length_mode := 'exact' | 'at_least' | 'at_most', per := 'range' | 'day',
slot_weights := …); with --weights-from each row also carries its weight.
--check for cron: tariffs slots --tariff T --count 6 --per-day --check --offset -30m --format csv >/dev/null && run-heater
${DISPATCHES_HELP}
${CHECK_HELP}
${ROLLING_HELP}
${FORMS}`);
  command.action(action(async (flags: SlotsFlags) => {
    const count = flags.count;
    const now = flags.now ?? new Date();
    const options = optionsOf(flags);
    const request = {
      tariff: flags.tariff, count, latest: flags.latest === true, rounded: true, ...options,
      ...(flags.weightsFrom === undefined ? {} : { weightsFrom: flags.weightsFrom }),
    };
    if (flags.check) {
      return withWarehouse(flags, async (warehouse, format) => {
        const result = await checkSlots(warehouse, { ...request, ...await dispatchesOf(warehouse, flags), now, offsetMinutes: flags.offset ?? 0 });
        if (format === 'json') process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else output(result.blocks.map((b) => ({ ...b, active: result.active })), format);
        if (result.today.length === 0) process.stderr.write(`tariffs: fewer than ${count} half-hours of ${flags.tariff} are eligible on ${result.local_date}\n`);
        return result.active ? EXIT.OK : EXIT.NOT_NOW;
      });
    }
    const range = rangeOf(flags, now);
    await withWarehouse(flags, async (warehouse, format) => {
      const slots = { ...request, ...await dispatchesOf(warehouse, flags), ...range, perDay: flags.perDay === true, coverage: true };
      if (flags.printSql) return printSql(await cheapestSlotsStatement(warehouse, slots));
      const rows = await cheapestSlots(warehouse, slots);
      await checkCoverage(warehouse, flags, range);
      if (rows.length === 0) {
        process.stderr.write(`tariffs: fewer than ${count} half-hours of ${flags.tariff} are eligible in the range` +
          `${options.maxPrice === undefined && options.minPrice === undefined ? '' : ' (--min-price/--max-price)'}; --at-most takes fewer\n`);
      }
      output(rows, format);
    });
  }));
}
