// `tariffs cheapest`: the cheapest (or highest) run of contiguous half-hours of a tariff, overall,
// per local day or per nightly band; with --check, whether now lies in today's window.
import type { Command } from 'commander';
import { checkWindow, cheapestWindows } from '../../analytics/index.js';
import { cheapestWindowsStatement } from '../../analytics/cheapestWindows.js';
import { parseDuration } from '../parseDuration.js';
import { parseOffset } from '../parseOffset.js';
import { EXIT } from '../../errors.js';
import { parseLocalTimeBand, type LocalTimeBand } from '../../time/index.js';
import { withDb, withFormat } from '../common.js';
import { parsed, rule, weightList } from '../flagRules.js';
import { FORMS, output, rangeOf, withWarehouse } from '../questions.js';
import {
  CHECK_HELP, DISPATCHES_HELP, ROLLING_HELP, checkCoverage, dispatchesOf, optionsOf, withCheckRules, withRolling, type RollingFlags,
} from '../rollingQuestions.js';
import { printSql, withPrintSql, type PrintSqlFlags } from '../printSql.js';
import { action } from '../run.js';

interface CheapestFlags extends RollingFlags, PrintSqlFlags {
  duration?: number;
  between?: LocalTimeBand;
  weights?: number[];
}

export function configure(command: Command): void {
  command
    .requiredOption('--tariff <code>', 'tariff code, e.g. E-1R-AGILE-18-02-21-A')
    .option('--duration <length>', 'window length, a multiple of 30 minutes: 30m, 90m, 2h, 1h30m (default with --weights: one half-hour per weight)',
      parsed('--duration', parseDuration))
    .option('--per-day', 'one window per Europe/London local day, lying inside that day')
    .option('--between <HH:MM-HH:MM>', 'one window per occurrence of a daily local time band, e.g. 23:00-07:00 (listed under the date it starts)',
      parsed('--between', parseLocalTimeBand))
    .option('--weights <w,w,...>', "score Σ price × weight, first half-hour first (an appliance drawing most at the start: 2,1,1); missing weights are 1",
      weightList('--weights'))
    .option('--weights-from <relation>', 'a weight per half-hour from a table, view or CSV/Parquet file (columns slot_start, weight): Σ price × weight, times --weights')
    .option('--check', 'with --per-day: exit 0 when now lies inside today\'s window, 3 when not; prints the window (JSON: today, current and next, with mean, min and max, and the blocks)')
    .option('--offset <offset>', 'with --check: act this long after each block starts, negative before (-1h: an hour early; -01:00:00 works too)',
      parsed('--offset', parseOffset));
  rule<CheapestFlags>(command, (f) => f.duration === undefined && f.weights === undefined, '--duration is required (or --weights, one half-hour per weight)');
  rule<CheapestFlags>(command, (f) => f.check === true && (f.between !== undefined || f.perDay !== true),
    '--check needs --per-day (and no --between): it checks today\'s window');
  rule<CheapestFlags>(command, (f) => f.check === true && f.printSql === true, '--print-sql: not with --check (it prints the SQL of the windows without --check)');
  withCheckRules(command);
  withPrintSql(withFormat(withDb(withRolling(command, 'window'))));
  command.addHelpText('after', `
Score: the mean price inc VAT of the window's half-hours (with --weights: Σ price × weight, shown as
score_inc_vat = Σ price × weight ÷ Σ weight). The lowest wins, or the highest with --highest.
A window never spans a missing half-hour, lies inside [--from, --to) and holds no half-hour outside
[--min-price, --max-price]. One window per payment method and rate type of the tariff.
On clock-change days a local day has 46 or 50 half-hours and a band such as 23:00-07:00 has 14 or 18.
--between gives one window per night (or band) by itself; --per-day is then not needed.
--check for cron: tariffs cheapest --tariff T --duration 2h --per-day --check --format csv >/dev/null && run-appliance
  (today's window is chosen over the whole local day, so the answer does not move as the day goes on).
SQL: price_windows(tariff, n_slots, from, to, per := 'range' | 'day' | 'band', band_start_minutes := …,
band_end_minutes := …, latest := …, highest := …, min_price := …, max_price := …, weights := [2, 1, 1],
length_mode := 'exact' | 'at_least' | 'at_most', slot_weights := …), one call whatever the flags
(--per-day: per := 'day'; --between: per := 'band'). cheapest_window(…), cheapest_window_per_day(…)
and cheapest_window_in_band(tariff, n_slots, band_start_minutes, band_end_minutes, from, to, …)
are its named calls for the exact length. range_coverage(tariff, from, to): how much is priced.
${DISPATCHES_HELP}
${CHECK_HELP}
${ROLLING_HELP}
${FORMS}`);
  command.action(action(async (flags: CheapestFlags) => {
    const slots = flags.duration ?? flags.weights!.length;
    const options = optionsOf(flags);
    const now = flags.now ?? new Date();
    const request = {
      tariff: flags.tariff, slots, latest: flags.latest === true, rounded: true, ...options,
      ...(flags.weights === undefined ? {} : { weights: flags.weights }),
      ...(flags.weightsFrom === undefined ? {} : { weightsFrom: flags.weightsFrom }),
    };
    if (flags.check) {
      return withWarehouse(flags, async (warehouse, format) => {
        const result = await checkWindow(warehouse, { ...request, ...await dispatchesOf(warehouse, flags), now, offsetMinutes: flags.offset ?? 0 });
        if (format === 'json') process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else if (result.today) output([{ ...result.today, in_window: result.in_window }], format);
        if (!result.today) process.stderr.write(`tariffs: no window of ${slots} half-hours of ${flags.tariff} on ${result.local_date} qualifies\n`);
        return result.in_window ? EXIT.OK : EXIT.NOT_NOW;
      });
    }
    const range = rangeOf(flags, now);
    return withWarehouse(flags, async (warehouse, format) => {
      const windows = {
        ...request, ...await dispatchesOf(warehouse, flags), ...range, perDay: flags.perDay === true, ...(flags.between ? { band: flags.between } : {}),
        coverage: true,
      };
      if (flags.printSql) return printSql(await cheapestWindowsStatement(warehouse, windows));
      const rows = await cheapestWindows(warehouse, windows);
      await checkCoverage(warehouse, flags, range);
      if (rows.length === 0) {
        process.stderr.write(`tariffs: no window of ${slots} half-hours of ${flags.tariff} fits: every candidate spans a missing half-hour` +
          `${options.maxPrice === undefined && options.minPrice === undefined ? '' : ' or a price outside --min-price/--max-price'}, or runs outside the range\n`);
      }
      output(rows, format);
    });
  }));
}
