// `tariffs cheapest | slots | negative | daily | monthly | regions | gaps`: the analytics questions,
// thin shells over src/analytics (which runs the views and macros of sql/) on a read-only warehouse.
import type { Command } from 'commander';
import {
  cheapestSlots, cheapestWindows, dailyStats, gaps, monthlyStats, negativeRuns, negativeSlots,
  parseDuration, regionComparison, type Range,
} from '../../analytics/index.js';
import { UsageError } from '../../errors.js';
import { Warehouse } from '../../store/Warehouse.js';
import { HALF_HOUR_MS, parseLocalTimeBand, parseUserDateTime } from '../../time/index.js';
import { allProducts, currentAgile, productTariffs, REGIONS } from '../../api/discover.js';
import { OctopusClient } from '../../api/OctopusClient.js';
import { configFrom, formatOf, loggerFor, withApi, withDb, withFormat, type CommonFlags } from '../common.js';
import { writeRows, type OutputFormat, type Row } from '../output.js';
import { action } from '../run.js';

export interface RangeFlags extends CommonFlags {
  from?: string;
  to?: string;
}

interface CheapestFlags extends RangeFlags {
  tariff: string;
  duration: string;
  perDay?: boolean;
  between?: string;
  latest?: boolean;
  maxPrice?: string;
}

interface SlotsFlags extends RangeFlags {
  tariff: string;
  count: string;
  latest?: boolean;
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
(possibly with no rows), 1 no prices stored for the tariff in the range, 2 bad usage.`;

export function register(program: Command): void {
  const cheapest = program
    .command('cheapest')
    .description('the cheapest run of contiguous half-hours of a tariff (overall, per local day or per nightly band)')
    .requiredOption('--tariff <code>', 'tariff code, e.g. E-1R-AGILE-18-02-21-A')
    .requiredOption('--duration <length>', 'window length, a multiple of 30 minutes: 30m, 90m, 2h, 1h30m')
    .option('--from <when>', `range start (default: the start of the current half-hour); ${WHEN}`)
    .option('--to <when>', 'range end, exclusive (default: the end of stored data)')
    .option('--per-day', 'one window per Europe/London local day, lying inside that day')
    .option('--between <HH:MM-HH:MM>', 'one window per occurrence of a daily local time band, e.g. 23:00-07:00 (listed under the date it starts)')
    .option('--latest', 'break ties in favour of the latest window (default: the earliest)')
    .option('--max-price <p>', 'no half-hour of the window may cost more than this, p/kWh inc VAT');
  withFormat(withDb(cheapest));
  cheapest.addHelpText('after', `
Score: the mean price inc VAT of the window's half-hours. A window never spans a missing half-hour
and lies inside [--from, --to). One window per payment method and rate type of the tariff.
On clock-change days a local day has 46 or 50 half-hours and a band such as 23:00-07:00 has 14 or 18.
--between gives one window per night (or band) by itself; --per-day is then not needed.
SQL: cheapest_window(tariff, n_slots, from, to, latest := …, max_price := …), cheapest_window_per_day(…),
cheapest_window_in_band(tariff, n_slots, band_start_minutes, band_end_minutes, from, to, …).
${FORMS}`);
  cheapest.action(action(async (flags: CheapestFlags) => {
    const slots = parseDuration(flags.duration, '--duration');
    const band = flags.between === undefined ? undefined : parseLocalTimeBand(flags.between, '--between');
    const maxPrice = flags.maxPrice === undefined ? undefined : priceFlag(flags.maxPrice, '--max-price');
    const range = rangeOf(flags, currentHalfHour());
    await withWarehouse(flags, async (warehouse, format) => {
      const rows = await cheapestWindows(warehouse, {
        tariff: flags.tariff, slots, ...range, perDay: flags.perDay === true, latest: flags.latest === true, rounded: true,
        ...(band ? { band } : {}), ...(maxPrice === undefined ? {} : { maxPrice }),
      });
      if (rows.length === 0) {
        process.stderr.write(`tariffs: no window of ${flags.duration} of ${flags.tariff} fits: every candidate spans a missing half-hour` +
          `${maxPrice === undefined ? '' : ' or a price above --max-price'}, or runs outside the range\n`);
      }
      output(rows, format);
    });
  }));

  const slots = program
    .command('slots')
    .description('the N cheapest half-hours of a tariff in a range (adjacent or not), in time order')
    .requiredOption('--tariff <code>', 'tariff code, e.g. E-1R-AGILE-18-02-21-A')
    .requiredOption('--count <n>', 'how many half-hours')
    .option('--from <when>', `range start (default: the start of the current half-hour); ${WHEN}`)
    .option('--to <when>', 'range end, exclusive (default: the end of stored data)')
    .option('--latest', 'equal prices go to the latest half-hours (default: the earliest)');
  withFormat(withDb(slots));
  slots.addHelpText('after', `
SQL: SELECT * FROM cheapest_slots(tariff, n, from, to, latest := …).
${FORMS}`);
  slots.action(action(async (flags: SlotsFlags) => {
    const count = countFlag(flags.count, '--count');
    const range = rangeOf(flags, currentHalfHour());
    await withWarehouse(flags, async (warehouse, format) => {
      output(await cheapestSlots(warehouse, { tariff: flags.tariff, count, ...range, latest: flags.latest === true, rounded: true }), format);
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
      output(await regionComparison(warehouse, { product, ...range, rounded: true }), format);
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

/** `regions --list`: discovery from the API. */
async function listRegions(flags: CommonFlags & { product?: string }): Promise<void> {
  const config = configFrom(flags);
  const format = formatOf(flags);
  const client = new OctopusClient({ baseUrl: config.baseUrl, logger: loggerFor(config) });
  try {
    if (flags.product !== undefined) {
      writeRows(productTariffs(await client.product(flags.product)) as unknown as Row[], format);
      return;
    }
    const agile = currentAgile(await allProducts(client), new Date());
    if (format === 'json') {
      process.stdout.write(`${JSON.stringify({ regions: REGIONS, current_agile: agile ? { code: agile.code, full_name: agile.full_name, available_from: agile.available_from } : null }, null, 2)}\n`);
      return;
    }
    writeRows(REGIONS as unknown as Row[], format);
    if (format === 'table') {
      process.stdout.write(agile
        ? `\nAgile on sale now: ${agile.code} (${agile.full_name}, from ${agile.available_from.slice(0, 10)}); its tariffs: tariffs regions --list --product ${agile.code}\n`
        : '\nNo Agile product on sale now in the products list.\n');
    }
  } finally {
    await client.close();
  }
}

export async function withWarehouse(flags: CommonFlags, fn: (warehouse: Warehouse, format: OutputFormat) => Promise<void>): Promise<void> {
  const config = configFrom(flags);
  const format = formatOf(flags);
  const warehouse = await Warehouse.open(config.db, { readOnly: true, logger: loggerFor(config) });
  try {
    await fn(warehouse, format);
  } finally {
    warehouse.close();
  }
}

/** Prices come rounded from SQL (4 decimals, as in the exports); a table shows 2 (src/cli/table.ts). */
export function output(rows: object[], format: OutputFormat): void {
  writeRows(rows as Row[], format);
}

export function rangeOf(flags: RangeFlags, defaultFrom?: Date): Range {
  const range: Range = {};
  const from = flags.from === undefined ? defaultFrom : parseUserDateTime(flags.from, '--from');
  if (from) range.from = from;
  if (flags.to !== undefined) range.to = parseUserDateTime(flags.to, '--to');
  return range;
}

function tariffOf(flags: TariffFlags): { tariff?: string } {
  return flags.tariff === undefined ? {} : { tariff: flags.tariff };
}

/** The start of the half-hour we are in (half-hours start on :00 and :30 in UTC and London alike). */
function currentHalfHour(now: Date = new Date()): Date {
  return new Date(Math.floor(now.getTime() / HALF_HOUR_MS) * HALF_HOUR_MS);
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
