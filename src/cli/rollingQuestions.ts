// What `cheapest` and `slots` share: the flags of a question asked "from now" (direction, price
// limits, lengths, the clock, dispatches) with their rules and help, and --check's rules.
import type { Command } from 'commander';
import { rangeCoverage, type DispatchMode, type LengthMode, type Range } from '../analytics/index.js';
import { dispatchPrices, type DispatchPrices } from '../analytics/dispatchPrices.js';
import { parseDispatchMode } from './parseDispatchMode.js';
import { CLI_WORDS } from './requestWords.js';
import { ERROR_CODES, TariffsError } from '../errors.js';
import type { Warehouse } from '../store/Warehouse.js';
import { describeWindow, parseUserDateTime } from '../time/index.js';
import { parsed, price, rule, wholeMinutes } from './flagRules.js';
import { isNow, WHEN, type RangeFlags } from './questions.js';

/** Flags every "from now" question shares, as parsed. */
export interface RollingFlags extends RangeFlags {
  tariff: string;
  now?: Date;
  minRemaining?: number;
  complete?: boolean;
  highest?: boolean;
  minPrice?: number;
  maxPrice?: number;
  atLeast?: boolean;
  atMost?: boolean;
  latest?: boolean;
  dispatches?: DispatchMode;
  perDay?: boolean;
  check?: boolean;
  offset?: number;
  weightsFrom?: string;
}

/** The options of `cheapest` and `slots` beyond their own: range, direction, thresholds, lengths, clock. */
export function withRolling(command: Command, what: 'window' | 'half-hours'): Command {
  const unit = what === 'window' ? 'no half-hour of the window may cost' : 'half-hours costing';
  command
    .option('--from <when>', `range start: now (the default: the current half-hour, see --min-remaining) or ${WHEN}`)
    .option('--to <when>', 'range end, exclusive (default: the end of stored data)')
    .option('--now <instant>', 'pin "now" (for scripts and tests), e.g. 2024-05-13T16:10:00Z; default: the clock', parsed('--now', parseUserDateTime))
    .option('--min-remaining <minutes>', 'with --from now: skip the half-hour in progress when fewer minutes of it are left (0-30; default 0)',
      wholeMinutes('--min-remaining'))
    .option('--highest', what === 'window' ? 'the highest-priced window instead (export, peaks to avoid)' : 'the highest-priced half-hours instead')
    .option('--min-price <p>', `${what === 'window' ? `${unit} less` : `${unit} less are never chosen`}, p/kWh inc VAT (negative works)`, price('--min-price'))
    .option('--max-price <p>', `${what === 'window' ? `${unit} more` : `${unit} more are never chosen`}, p/kWh inc VAT (negative works)`, price('--max-price'))
    .option('--at-least', what === 'window'
      ? 'take the whole run of eligible contiguous half-hours holding the best window when it is longer'
      : 'every eligible half-hour, when there are at least --count')
    .option('--at-most', what === 'window'
      ? 'a shorter window when no run of eligible contiguous half-hours is that long'
      : 'up to --count: fewer when fewer half-hours are eligible')
    .option('--latest', 'break ties in favour of the latest (default: the earliest)')
    .option('--complete', 'refuse to answer (exit 1, naming how many are missing) unless every half-hour of the range is priced')
    .option('--dispatches <which>', 'Intelligent Octopus Go: rank the prices as billed with planned|completed|none dispatches (default: completed where known, else planned for the future)',
      parsed('--dispatches', parseDispatchMode));
  rule<RollingFlags>(command, (f) => f.atLeast === true && f.atMost === true, '--at-least and --at-most exclude each other');
  rule<RollingFlags>(command, (f) => f.minRemaining !== undefined && f.from !== undefined && !isNow(f.from),
    '--min-remaining applies to --from now (the default) only');
  return command;
}

/** --check's rules: --offset only with it, and it picks its own days. */
export function withCheckRules(command: Command): Command {
  rule<RollingFlags>(command, (f) => f.offset !== undefined && !f.check, '--offset applies to --check only');
  rule<RollingFlags>(command, (f) => f.check === true && (f.from !== undefined || f.to !== undefined || f.minRemaining !== undefined),
    '--check looks at today and tomorrow by itself: drop --from, --to and --min-remaining');
  return command;
}

export const CHECK_HELP = `
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

export const DISPATCHES_HELP = `
--dispatches: on an Intelligent Octopus Go tariff of an account with dispatches stored, a half-hour
a dispatch touches is priced at the day's off-peak rate (up to 6 hours a Europe/London day; see
sql/public/effective_rates_with.sql), and those are the prices ranked and shown; which dispatches
counted is said on stderr. On any other tariff the flag changes nothing (said on stderr). SQL: the
same call with slot_prices := (SELECT list({payment_method: payment_method, slot_start: slot_start,
value_inc_vat: value_inc_vat, value_exc_vat: value_exc_vat}) FROM effective_rates_with('completed')
WHERE tariff_code = 'T' AND account_number = 'A') ('default'|'completed'|'planned'; none: no slot_prices).`;

export const ROLLING_HELP = `
Without --from (or with --from now) the range starts at the half-hour in progress, or at the next
one when fewer than --min-remaining minutes of it are left; --now pins the clock.
A range that is not fully priced (tomorrow's prices not yet published, a gap) still gets an answer
from the priced half-hours, with a warning on stderr and "complete": false in each row; --complete
refuses instead (exit 1). Asking for N half-hours never yields fewer, unless --at-most asks for it.`;

/** --dispatches: the prices of the tariff's Intelligent Octopus Go account with its dispatches
 *  (none for another tariff), and which were counted, said on stderr. */
export async function dispatchesOf(warehouse: Warehouse, flags: RollingFlags): Promise<{ slotPrices?: DispatchPrices }> {
  const choice = await dispatchPrices(warehouse, flags.tariff, flags.dispatches ?? parseDispatchMode(undefined), flags.dispatches !== undefined);
  if (choice.iog || flags.dispatches !== undefined) process.stderr.write(`tariffs: ${choice.note(CLI_WORDS)}\n`);
  return choice.prices ? { slotPrices: choice.prices } : {};
}

/**
 * Warns on stderr about a partly priced range, or with --complete refuses to answer (exit 1,
 * nothing on stdout). Each row's `complete` comes with the answer (the request's `coverage`).
 */
export async function checkCoverage(warehouse: Warehouse, flags: RollingFlags, range: Range): Promise<void> {
  const coverage = await rangeCoverage(warehouse, { tariff: flags.tariff, ...range });
  const gaps = coverage.filter((c) => !c.complete);
  for (const gap of gaps) {
    const series = gap.payment_method === null && gap.rate_type === 'standard' ? '' : ` (${[gap.payment_method, gap.rate_type].filter(Boolean).join(', ')})`;
    const what = `${flags.tariff}${series} has no price for ${gap.missing_slots} of the ${gap.expected_slots} half-hours in ${describeWindow(asTyped(gap.range_start, range.from), asTyped(gap.range_end, range.to))}`;
    if (flags.complete) throw new TariffsError(ERROR_CODES.INCOMPLETE_RANGE, `${what}: not answering (--complete)`);
    process.stderr.write(`tariffs: warning: ${what}; the answer uses the priced ones\n`);
  }
}

/** The instant `utc` as the user typed it when it is that flag's (`given`), else as a plain instant. */
function asTyped(utc: string, given: Date | undefined): Date {
  const instant = new Date(utc);
  return given !== undefined && given.getTime() === instant.getTime() ? given : instant;
}

/** The request's direction, price limits and length mode. */
export function optionsOf(flags: RollingFlags): { highest: boolean; minPrice?: number; maxPrice?: number; lengthMode?: LengthMode } {
  const lengthMode: LengthMode | undefined = flags.atLeast ? 'at_least' : flags.atMost ? 'at_most' : undefined;
  return {
    highest: flags.highest === true,
    ...(flags.minPrice === undefined ? {} : { minPrice: flags.minPrice }),
    ...(flags.maxPrice === undefined ? {} : { maxPrice: flags.maxPrice }),
    ...(lengthMode === undefined ? {} : { lengthMode }),
  };
}
