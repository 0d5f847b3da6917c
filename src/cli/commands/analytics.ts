// `tariffs cheapest | slots | negative | daily | monthly | regions | gaps`: the analytics questions,
// thin shells over src/analytics (which runs the views and macros of sql/) on a read-only warehouse.
import type { Command } from 'commander';
import {
  checkWindow, cheapestSlots, cheapestWindows, dailyStats, gaps, monthlyStats, negativeRuns, negativeSlots, offPeakPeriods,
  parseDispatchMode, parseDuration, rangeCoverage, regionComparison, rollingStart, seriesKey, type LengthMode, type Range,
} from '../../analytics/index.js';
import { EXIT, TariffsError, UsageError } from '../../errors.js';
import { Warehouse } from '../../store/Warehouse.js';
import { parseLocalTimeBand, parseUserDateTime } from '../../time/index.js';
import { configFrom, formatOf, loggerFor, withApi, withDb, withFormat, type CommonFlags } from '../common.js';
import { writeRows, type OutputFormat, type Row } from '../output.js';
import { action } from '../run.js';
import type { TableLayout } from '../table.js';
import type { DispatchPrices } from '../../analytics/dispatchPrices.js';

export interface RangeFlags extends CommonFlags {
  from?: string;
  to?: string;
}

/** Flags every "from now" question shares. */
interface RollingFlags extends RangeFlags {
  now?: string;
  minRemaining?: string;
  complete?: boolean;
  highest?: boolean;
  minPrice?: string;
  maxPrice?: string;
  atLeast?: boolean;
  atMost?: boolean;
  latest?: boolean;
  dispatches?: string;
}

interface CheapestFlags extends RollingFlags {
  tariff: string;
  duration?: string;
  perDay?: boolean;
  between?: string;
  weights?: string;
  check?: boolean;
  offset?: string;
  weightsFrom?: string;
}

interface SlotsFlags extends RollingFlags {
  tariff: string;
  count: string;
  perDay?: boolean;
  check?: boolean;
  offset?: string;
  weightsFrom?: string;
}

interface TariffFlags extends RangeFlags {
  tariff?: string;
}

const WHEN = 'a date (a Europe/London day), naive Europe/London time (2024-03-31T16:00) or an instant with offset';
const FORMS = `
--from/--to take a date (the start of that Europe/London local day), a naive Europe/London
time such as 2024-03-31T16:00, or an instant with an offset (2024-03-31T15:00Z); --to is exclusive.
JSON output is an array of objects: instants are UTC (…Z), local_start/local_end are Europe/London
wall times with offset (2024-10-27T01:30:00+00:00), prices are p/kWh. Exit status: 0 answered
(possibly with no rows), 1 no prices stored for the tariff in the range (or, with --complete, not
every half-hour of it), 2 bad usage, 3 (cheapest/slots --check) now is not inside a block of the
selection (moved by --offset).`;

const CHECK_HELP = `
--check (with --per-day): the selection of today and tomorrow (Europe/London local days) as blocks
of contiguous half-hours; exit 0 when now lies in a block, 3 when not. JSON adds active,
current_block and next_block (start, end, act_start, act_end, slots, state, mean/min/max price),
blocks and selection (its half-hours, mean, min and max). --offset moves every block to act on it:
-1h acts an hour before each block starts and ends (act_start = start - 1h); "today" is then the
local day of now minus the offset. SQL: selection_blocks(selection, at, offset_minutes := …).
--weights-from names a table or view of the warehouse, or a CSV/Parquet/JSON file, with columns
slot_start (an instant: TIMESTAMPTZ, or text with an offset such as 2024-03-31T00:30:00Z; on a
half-hour) and weight (above 0): each half-hour's price counts times its weight (half-hours it
does not name weigh 1). SQL: slot_weights := (SELECT list({slot_start: slot_start, weight: weight})
FROM my_weights).`;

/** The options of `cheapest` and `slots` beyond the range: direction, thresholds, lengths, clock. */
function withRolling(command: Command, what: 'window' | 'half-hours'): Command {
  const unit = what === 'window' ? 'no half-hour of the window may cost' : 'half-hours costing';
  return command
    .option('--from <when>', `range start: now (the default: the current half-hour, see --min-remaining) or ${WHEN}`)
    .option('--to <when>', 'range end, exclusive (default: the end of stored data)')
    .option('--now <instant>', 'pin "now" (for scripts and tests), e.g. 2024-05-13T16:10:00Z; default: the clock')
    .option('--min-remaining <minutes>', 'with --from now: skip the half-hour in progress when fewer minutes of it are left (0-30; default 0)')
    .option('--highest', what === 'window' ? 'the highest-priced window instead (export, peaks to avoid)' : 'the highest-priced half-hours instead')
    .option('--min-price <p>', `${what === 'window' ? `${unit} less` : `${unit} less are never chosen`}, p/kWh inc VAT (negative works)`)
    .option('--max-price <p>', `${what === 'window' ? `${unit} more` : `${unit} more are never chosen`}, p/kWh inc VAT (negative works)`)
    .option('--at-least', what === 'window'
      ? 'take the whole run of eligible contiguous half-hours holding the best window when it is longer'
      : 'every eligible half-hour, when there are at least --count')
    .option('--at-most', what === 'window'
      ? 'a shorter window when no run of eligible contiguous half-hours is that long'
      : 'up to --count: fewer when fewer half-hours are eligible')
    .option('--latest', 'break ties in favour of the latest (default: the earliest)')
    .option('--complete', 'refuse to answer (exit 1, naming how many are missing) unless every half-hour of the range is priced')
    .option('--dispatches <which>', 'Intelligent Octopus Go: rank the prices as billed with planned|completed|none dispatches (default: completed where known, else planned for the future)');
}

const DISPATCHES_HELP = `
--dispatches: on an Intelligent Octopus Go tariff of an account with dispatches stored, a half-hour
a dispatch touches is priced at the day's off-peak rate (up to 6 hours a Europe/London day; see
sql/macros/effective_rates_with.sql), and those are the prices ranked and shown; which dispatches
counted is said on stderr. On any other tariff the flag changes nothing (said on stderr). SQL: the
same call with slot_prices := (SELECT list({payment_method: payment_method, slot_start: slot_start,
value_inc_vat: value_inc_vat, value_exc_vat: value_exc_vat}) FROM effective_rates_with('completed')
WHERE tariff_code = 'T' AND account_number = 'A') ('default'|'completed'|'planned'; none: no slot_prices).`;

/** --dispatches: the prices of the tariff's Intelligent Octopus Go account with its dispatches
 *  (none for another tariff), and which were counted, said on stderr. */
async function dispatchesOf(warehouse: Warehouse, flags: { tariff: string; dispatches?: string }): Promise<{ slotPrices?: DispatchPrices }> {
  const { dispatchPrices } = await import('../../analytics/dispatchPrices.js');
  const choice = await dispatchPrices(warehouse, flags.tariff, parseDispatchMode(flags.dispatches), flags.dispatches !== undefined);
  if (choice.iog || flags.dispatches !== undefined) process.stderr.write(`tariffs: ${choice.note}\n`);
  return choice.prices ? { slotPrices: choice.prices } : {};
}

const ROLLING_HELP = `
Without --from (or with --from now) the range starts at the half-hour in progress, or at the next
one when fewer than --min-remaining minutes of it are left; --now pins the clock.
A range that is not fully priced (tomorrow's prices not yet published, a gap) still gets an answer
from the priced half-hours, with a warning on stderr and "complete": false in each row; --complete
refuses instead (exit 1). Asking for N half-hours never yields fewer, unless --at-most asks for it.`;

export function register(program: Command): void {
  const cheapest = program
    .command('cheapest')
    .description('the cheapest (or --highest) run of contiguous half-hours of a tariff (overall, per local day or per nightly band)')
    .requiredOption('--tariff <code>', 'tariff code, e.g. E-1R-AGILE-18-02-21-A')
    .option('--duration <length>', 'window length, a multiple of 30 minutes: 30m, 90m, 2h, 1h30m (default with --weights: one half-hour per weight)')
    .option('--per-day', 'one window per Europe/London local day, lying inside that day')
    .option('--between <HH:MM-HH:MM>', 'one window per occurrence of a daily local time band, e.g. 23:00-07:00 (listed under the date it starts)')
    .option('--weights <w,w,...>', "score Σ price × weight, first half-hour first (an appliance drawing most at the start: 2,1,1); missing weights are 1")
    .option('--weights-from <relation>', 'a weight per half-hour from a table, view or CSV/Parquet file (columns slot_start, weight): Σ price × weight, times --weights')
    .option('--check', 'with --per-day: exit 0 when now lies inside today\'s window, 3 when not; prints the window (JSON: today, current and next, with mean, min and max, and the blocks)')
    .option('--offset <offset>', 'with --check: act this long after each block starts, negative before (-1h: an hour early; -01:00:00 works too)');
  withFormat(withDb(withRolling(cheapest, 'window')));
  cheapest.addHelpText('after', `
Score: the mean price inc VAT of the window's half-hours (with --weights: Σ price × weight, shown as
score_inc_vat = Σ price × weight ÷ Σ weight). The lowest wins, or the highest with --highest.
A window never spans a missing half-hour, lies inside [--from, --to) and holds no half-hour outside
[--min-price, --max-price]. One window per payment method and rate type of the tariff.
On clock-change days a local day has 46 or 50 half-hours and a band such as 23:00-07:00 has 14 or 18.
--between gives one window per night (or band) by itself; --per-day is then not needed.
--check for cron: tariffs cheapest --tariff T --duration 2h --per-day --check --format csv >/dev/null && run-appliance
  (today's window is chosen over the whole local day, so the answer does not move as the day goes on).
SQL: cheapest_window(tariff, n_slots, from, to, latest := …, max_price := …, highest := …, min_price := …,
weights := [2, 1, 1]), cheapest_window_per_day(…), cheapest_window_in_band(tariff, n_slots,
band_start_minutes, band_end_minutes, from, to, …); with --at-least/--at-most: price_windows(tariff,
n_slots, from, to, per := 'range' | 'day' | 'band', …, length_mode := 'at_least' | 'at_most');
range_coverage(tariff, from, to); with --weights-from: price_windows(…, slot_weights := …).
${DISPATCHES_HELP}
${CHECK_HELP}
${ROLLING_HELP}
${FORMS}`);
  cheapest.action(action(async (flags: CheapestFlags) => {
    const weights = flags.weights === undefined ? undefined : weightsFlag(flags.weights);
    if (flags.duration === undefined && weights === undefined) throw new UsageError('--duration is required (or --weights, one half-hour per weight)');
    const slots = flags.duration === undefined ? weights!.length : parseDuration(flags.duration, '--duration');
    const band = flags.between === undefined ? undefined : parseLocalTimeBand(flags.between, '--between');
    if (flags.check && (band !== undefined || flags.perDay !== true)) throw new UsageError('--check needs --per-day (and no --between): it checks today\'s window');
    parseDispatchMode(flags.dispatches);
    const options = optionsOf(flags);
    const now = nowOf(flags);
    const request = {
      tariff: flags.tariff, slots, latest: flags.latest === true, rounded: true, ...options,
      ...(weights === undefined ? {} : { weights }),
      ...(flags.weightsFrom === undefined ? {} : { weightsFrom: flags.weightsFrom }),
    };
    const offsetMinutes = await offsetOf(flags);
    if (flags.check) {
      if (flags.from !== undefined || flags.to !== undefined || flags.minRemaining !== undefined) {
        throw new UsageError('--check looks at today and tomorrow by itself: drop --from, --to and --min-remaining');
      }
      return withWarehouse(flags, async (warehouse, format) => {
        const result = await checkWindow(warehouse, { ...request, ...await dispatchesOf(warehouse, flags), now, offsetMinutes });
        if (format === 'json') process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else if (result.today) output([{ ...result.today, in_window: result.in_window }], format);
        if (!result.today) process.stderr.write(`tariffs: no window of ${slots} half-hours of ${flags.tariff} on ${result.local_date} qualifies\n`);
        return result.in_window ? EXIT.OK : EXIT.NOT_NOW;
      });
    }
    const range = rangeOf(flags, now);
    return withWarehouse(flags, async (warehouse, format) => {
      const rows = await cheapestWindows(warehouse, {
        ...request, ...await dispatchesOf(warehouse, flags), ...range, perDay: flags.perDay === true, ...(band ? { band } : {}),
      });
      const marked = await markCoverage(warehouse, flags, range, rows);
      if (rows.length === 0) {
        process.stderr.write(`tariffs: no window of ${slots} half-hours of ${flags.tariff} fits: every candidate spans a missing half-hour` +
          `${options.maxPrice === undefined && options.minPrice === undefined ? '' : ' or a price outside --min-price/--max-price'}, or runs outside the range\n`);
      }
      output(marked, format);
    });
  }));

  const slots = program
    .command('slots')
    .description('the N cheapest (or --highest) half-hours of a tariff in a range (adjacent or not), in time order')
    .requiredOption('--tariff <code>', 'tariff code, e.g. E-1R-AGILE-18-02-21-A')
    .requiredOption('--count <n>', 'how many half-hours')
    .option('--per-day', '--count half-hours per Europe/London local day (each day chosen on its own)')
    .option('--weights-from <relation>', 'a weight per half-hour from a table, view or CSV/Parquet file (columns slot_start, weight): ranked by price × weight')
    .option('--check', 'with --per-day: exit 0 when now lies in a block of today\'s (or tomorrow\'s) half-hours, 3 when not; prints the blocks')
    .option('--offset <offset>', 'with --check: act this long after each block starts, negative before (-1h: an hour early)');
  withFormat(withDb(withRolling(slots, 'half-hours')));
  slots.addHelpText('after', `
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
  slots.action(action(async (flags: SlotsFlags) => {
    const count = countFlag(flags.count, '--count');
    parseDispatchMode(flags.dispatches);
    const now = nowOf(flags);
    const options = optionsOf(flags);
    const offsetMinutes = await offsetOf(flags);
    const request = {
      tariff: flags.tariff, count, latest: flags.latest === true, rounded: true, ...options,
      ...(flags.weightsFrom === undefined ? {} : { weightsFrom: flags.weightsFrom }),
    };
    if (flags.check) {
      if (flags.perDay !== true) throw new UsageError('--check needs --per-day: it checks today\'s half-hours');
      if (flags.from !== undefined || flags.to !== undefined || flags.minRemaining !== undefined) {
        throw new UsageError('--check looks at today and tomorrow by itself: drop --from, --to and --min-remaining');
      }
      return withWarehouse(flags, async (warehouse, format) => {
        const { checkSlots } = await import('../../analytics/checkSlots.js');
        const result = await checkSlots(warehouse, { ...request, ...await dispatchesOf(warehouse, flags), now, offsetMinutes });
        if (format === 'json') process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else output(result.blocks.map((b) => ({ ...b, active: result.active })), format);
        if (result.today.length === 0) process.stderr.write(`tariffs: fewer than ${count} half-hours of ${flags.tariff} are eligible on ${result.local_date}\n`);
        return result.active ? EXIT.OK : EXIT.NOT_NOW;
      });
    }
    const range = rangeOf(flags, now);
    await withWarehouse(flags, async (warehouse, format) => {
      const rows = await cheapestSlots(warehouse, { ...request, ...await dispatchesOf(warehouse, flags), ...range, perDay: flags.perDay === true });
      const marked = await markCoverage(warehouse, flags, range, rows);
      if (rows.length === 0) {
        process.stderr.write(`tariffs: fewer than ${count} half-hours of ${flags.tariff} are eligible in the range` +
          `${options.maxPrice === undefined && options.minPrice === undefined ? '' : ' (--min-price/--max-price)'}; --at-most takes fewer\n`);
      }
      output(marked, format);
    });
  }));

  const negative = program
    .command('negative')
    .description('when prices were negative: the half-hours, or with --runs the contiguous stretches')
    .option('--tariff <code>', 'one tariff (default: every stored tariff)')
    .option('--runs', 'one row per contiguous run of negative half-hours')
    .option('--from <when>', `range start (default: everything stored); ${WHEN}`)
    .option('--to <when>', 'range end, exclusive (default: everything stored)');
  withFormat(withDb(negative));
  negative.addHelpText('after', `
Half-hours are listed when they lie inside [--from, --to); runs when they overlap it (shown whole).
No negative prices is an empty answer (exit 0). SQL: the views negative_slots and negative_runs.
${FORMS}`);
  negative.action(action(async (flags: TariffFlags & { runs?: boolean }) => {
    const range = rangeOf(flags);
    await withWarehouse(flags, async (warehouse, format) => {
      const request = { ...tariffOf(flags), ...range, rounded: true };
      output(flags.runs ? await negativeRuns(warehouse, request) : await negativeSlots(warehouse, request), format);
    });
  }));

  const offPeak = program
    .command('off-peak')
    .description('off-peak periods of two- and three-rate tariffs (Go, Intelligent Go, Cosy-like, four-rate EV): runs at the day\'s lowest rate')
    .option('--tariff <code>', 'one tariff (default: every stored tariff)')
    .option('--from <when>', `range start (default: everything stored); ${WHEN}`)
    .option('--to <when>', 'range end, exclusive (default: everything stored)')
    .option('--include-dispatches', 'Intelligent Octopus Go: also the half-hours only a dispatch made off-peak, per account')
    .option('--dispatches <which>', 'with --include-dispatches: planned|completed (default: completed where known, else planned for the future)');
  withFormat(withDb(offPeak));
  offPeak.addHelpText('after', `
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
  offPeak.action(action(async (flags: TariffFlags & { includeDispatches?: boolean; dispatches?: string }) => {
    const range = rangeOf(flags);
    const { parseDispatchMode, describeDispatchMode } = await import('../../analytics/dispatchMode.js');
    const mode = parseDispatchMode(flags.dispatches);
    if (flags.dispatches !== undefined && !flags.includeDispatches) throw new UsageError('--dispatches: give --include-dispatches too');
    if (flags.includeDispatches && mode === 'none') throw new UsageError('--dispatches none: leave out --include-dispatches instead');
    await withWarehouse(flags, async (warehouse, format) => {
      const dispatches = flags.includeDispatches ? { dispatches: mode } : {};
      if (flags.includeDispatches) process.stderr.write(`tariffs: off-peak with Intelligent Octopus Go dispatches: ${describeDispatchMode(mode)}\n`);
      output(await offPeakPeriods(warehouse, { ...tariffOf(flags), ...range, ...dispatches }), format);
    });
  }));

  const daily = program
    .command('daily')
    .description('each Europe/London local day: half-hours stored and expected, min/max/mean/median/p10/p90, negatives, peak')
    .option('--tariff <code>', 'one tariff (default: every stored tariff)')
    .option('--from <when>', `first day (default: everything stored); ${WHEN}`)
    .option('--to <when>', 'end, exclusive (default: everything stored)');
  withFormat(withDb(daily));
  daily.addHelpText('after', `
A day is listed when its local midnight lies in [--from, --to): --from 2024-03-01 --to 2024-04-01 is March.
expected_slots is the day's length: 46 when clocks go forward, 50 when they go back, else 48.
Peak: 16:00-19:00 local wall time. SQL: the view daily_stats.
${FORMS}`);
  daily.action(action(async (flags: TariffFlags) => {
    const range = rangeOf(flags);
    await withWarehouse(flags, async (warehouse, format) => {
      output(await dailyStats(warehouse, { ...tariffOf(flags), ...range, rounded: true }), format);
    });
  }));

  const monthly = program
    .command('monthly')
    .description('each Europe/London calendar month: days and half-hours stored, price spread, negatives, peak')
    .option('--tariff <code>', 'one tariff (default: every stored tariff)')
    .option('--from <when>', `first day (default: everything stored); the months holding it and later; ${WHEN}`)
    .option('--to <when>', 'end, exclusive (default: everything stored)');
  withFormat(withDb(monthly));
  monthly.addHelpText('after', `
month is the first day of the Europe/London calendar month; --from/--to select the months holding
the local days whose midnight lies in [--from, --to) (each month whole). SQL: the view monthly_stats.
${FORMS}`);
  monthly.action(action(async (flags: TariffFlags) => {
    const range = rangeOf(flags);
    await withWarehouse(flags, async (warehouse, format) => {
      output(await monthlyStats(warehouse, { ...tariffOf(flags), ...range, rounded: true }), format);
    });
  }));

  const regions = program
    .command('regions')
    .description("a product's tariffs region by region: coverage, price spread, negatives, rank of the mean; --list: region letters, tariff codes, the current Agile product")
    .option('--product <code>', 'product code, e.g. AGILE-18-02-21 (required unless --list)')
    .option('--list', 'from the API, not the warehouse: the region letters and names, with --product its tariff codes per region, and the Agile product on sale now')
    .option('--from <when>', `range start (default: everything stored); ${WHEN}`)
    .option('--to <when>', 'range end, exclusive (default: everything stored)');
  withFormat(withDb(withApi(regions)));
  regions.addHelpText('after', `
Regions stored over different periods are not comparable: give --from/--to to compare like with like.
--list asks the API (public endpoints, no credentials): e.g. \`tariffs regions --list\` names the
current Agile product; \`tariffs regions --list --product AGILE-24-10-01\` gives the tariff code of
each region, ready for \`tariffs ingest --tariff CODE\`.
SQL: SELECT * FROM region_comparison(product, from, to).
${FORMS}`);
  regions.action(action(async (flags: RangeFlags & { product?: string; list?: boolean }) => {
    if (flags.list) return listRegions(flags);
    if (flags.product === undefined) throw new UsageError('--product is required (or --list to discover products and regions)');
    const product = flags.product;
    const range = rangeOf(flags);
    await withWarehouse(flags, async (warehouse, format) => {
      // the region, its tariff and the mean are the answer; min/max next
      output(await regionComparison(warehouse, { product, ...range, rounded: true }), format,
        { answer: ['region', 'tariff_code', 'mean_inc_vat', 'mean_rank'], key: ['min_inc_vat', 'max_inc_vat', 'days'] });
    });
  }));

  const gapsCommand = program
    .command('gaps')
    .description('half-hours missing from half-hourly series, per local day (no rows = no gaps)')
    .option('--tariff <code>', 'one tariff (default: every stored tariff)')
    .option('--from <when>', `first day (default: everything stored); ${WHEN}`)
    .option('--to <when>', 'end, exclusive (default: everything stored)');
  withFormat(withDb(gapsCommand));
  gapsCommand.addHelpText('after', `
A day is listed when its local midnight lies in [--from, --to).
Only days between a series' first stored half-hour and the end of its last are checked, and
expected_slots counts the day's half-hours inside that span (day_slots: 46, 48 or 50). SQL: the view gaps.
${FORMS}`);
  gapsCommand.action(action(async (flags: TariffFlags) => {
    const range = rangeOf(flags);
    await withWarehouse(flags, async (warehouse, format) => {
      output(await gaps(warehouse, { ...tariffOf(flags), ...range }), format);
    });
  }));
}

/** `regions --list`: discovery from the API (its HTTP client loaded only here: the other questions
 *  read the warehouse alone). */
async function listRegions(flags: CommonFlags & { product?: string }): Promise<void> {
  const [{ allProducts, currentAgile, productTariffs, REGIONS }, { OctopusClient }] =
    await Promise.all([import('../../api/discover.js'), import('../../api/OctopusClient.js')]);
  const config = configFrom(flags);
  const format = formatOf(flags);
  const client = new OctopusClient({ baseUrl: config.baseUrl, logger: loggerFor(config, flags) });
  try {
    if (flags.product !== undefined) {
      writeRows(productTariffs(await client.product(flags.product)), format);
      return;
    }
    const agile = currentAgile(await allProducts(client), new Date());
    if (format === 'json') {
      process.stdout.write(`${JSON.stringify({ regions: REGIONS, current_agile: agile ? { code: agile.code, full_name: agile.full_name, available_from: agile.available_from } : null }, null, 2)}\n`);
      return;
    }
    writeRows(REGIONS, format);
    if (format === 'table') {
      process.stdout.write(agile
        ? `\nAgile on sale now: ${agile.code} (${agile.full_name}, from ${agile.available_from.slice(0, 10)}); its tariffs: tariffs regions --list --product ${agile.code}\n`
        : '\nNo Agile product on sale now in the products list.\n');
    }
  } finally {
    await client.close();
  }
}

export async function withWarehouse<T>(flags: CommonFlags, fn: (warehouse: Warehouse, format: OutputFormat) => Promise<T>): Promise<T> {
  const config = configFrom(flags);
  const format = formatOf(flags);
  const warehouse = await Warehouse.open(config.db, { readOnly: true, logger: loggerFor(config, flags) });
  try {
    return await fn(warehouse, format);
  } finally {
    warehouse.close();
  }
}

/**
 * Adds `complete` to each row (is every half-hour of its series' range priced?), warns on stderr
 * about a partly priced range, or with --complete refuses to answer (exit 1, nothing on stdout).
 */
async function markCoverage<R extends { payment_method: string | null; rate_type: string }>(
  warehouse: Warehouse, flags: RollingFlags & { tariff: string }, range: Range, rows: R[],
): Promise<(R & { complete: boolean })[]> {
  const coverage = await rangeCoverage(warehouse, { tariff: flags.tariff, ...range });
  const gaps = coverage.filter((c) => !c.complete);
  for (const gap of gaps) {
    const series = gap.payment_method === null && gap.rate_type === 'standard' ? '' : ` (${[gap.payment_method, gap.rate_type].filter(Boolean).join(', ')})`;
    const what = `${flags.tariff}${series} has no price for ${gap.missing_slots} of the ${gap.expected_slots} half-hours in [${gap.range_start}, ${gap.range_end})`;
    if (flags.complete) throw new TariffsError('INCOMPLETE_RANGE', `${what}: not answering (--complete)`);
    process.stderr.write(`tariffs: warning: ${what}; the answer uses the priced ones\n`);
  }
  const incomplete = new Set(gaps.map(seriesKey));
  return rows.map((row) => ({ ...row, complete: !incomplete.has(seriesKey(row)) }));
}

/** --offset in minutes (0 without it); only --check takes it. */
async function offsetOf(flags: { offset?: string; check?: boolean }): Promise<number> {
  if (flags.offset === undefined) return 0;
  if (!flags.check) throw new UsageError('--offset applies to --check only');
  const { parseOffset } = await import('../../analytics/parseOffset.js');
  return parseOffset(flags.offset, '--offset');
}

/** "Now": --now when given (scripts, tests), else the clock. */
function nowOf(flags: RollingFlags): Date {
  return flags.now === undefined ? new Date() : parseUserDateTime(flags.now, '--now');
}

function optionsOf(flags: RollingFlags): { highest: boolean; minPrice?: number; maxPrice?: number; lengthMode?: LengthMode } {
  if (flags.atLeast && flags.atMost) throw new UsageError('--at-least and --at-most exclude each other');
  const lengthMode: LengthMode | undefined = flags.atLeast ? 'at_least' : flags.atMost ? 'at_most' : undefined;
  return {
    highest: flags.highest === true,
    ...(flags.minPrice === undefined ? {} : { minPrice: priceFlag(flags.minPrice, '--min-price') }),
    ...(flags.maxPrice === undefined ? {} : { maxPrice: priceFlag(flags.maxPrice, '--max-price') }),
    ...(lengthMode === undefined ? {} : { lengthMode }),
  };
}

/** Prices come rounded from SQL (4 decimals, as in the exports); a table shows 2 (src/cli/table.ts). */
export function output(rows: object[], format: OutputFormat, layout?: TableLayout): void {
  writeRows(rows as Row[], format, undefined, false, layout);
}

/** With `now`, an absent --from (or `--from now`) is the rolling start: see rollingStart. */
export function rangeOf(flags: RangeFlags & { minRemaining?: string }, now?: Date): Range {
  const range: Range = {};
  const rolling = now !== undefined && (flags.from === undefined || flags.from.trim().toLowerCase() === 'now');
  if (flags.minRemaining !== undefined && !rolling) throw new UsageError('--min-remaining applies to --from now (the default) only');
  const minutes = flags.minRemaining === undefined ? 0 : minutesFlag(flags.minRemaining, '--min-remaining');
  const from = rolling ? rollingStart(now, minutes) : flags.from === undefined ? undefined : parseUserDateTime(flags.from, '--from');
  if (from) range.from = from;
  if (flags.to !== undefined) range.to = parseUserDateTime(flags.to, '--to');
  return range;
}

function tariffOf(flags: TariffFlags): { tariff?: string } {
  return flags.tariff === undefined ? {} : { tariff: flags.tariff };
}

function minutesFlag(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag}: '${text}' is not a whole number of minutes`);
  return Number(text.trim());
}

/** `2,1,1` → [2, 1, 1]; each a number above 0. */
function weightsFlag(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  const weights = parts.map(Number);
  if (parts.some((p) => p === '') || weights.some((w) => !Number.isFinite(w) || w <= 0)) {
    throw new UsageError(`--weights: '${text}' is not a list of numbers above 0 such as 2,1,1`);
  }
  return weights;
}

function priceFlag(text: string, flag: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`${flag}: '${text}' is not a price in p/kWh (e.g. 15 or -2.5)`);
  return value;
}

function countFlag(text: string, flag: string): number {
  const value = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(`${flag}: '${text}' is not a positive whole number`);
  }
  return value;
}
