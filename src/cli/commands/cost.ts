// `tariffs cost` and `tariffs compare`: what a meter's consumption cost (at its agreements or any
// stored tariff), per half-hour, day or month, and several tariffs side by side. Thin shells over
// src/analytics/costs.ts, which runs the cost macros of sql/macros.
import type { Command } from 'commander';
import {
  costs, describeDispatchMode, lastCompleteMonths, meterOnIog, netCosts, parseDispatchMode, tariffComparison,
  type CostPeriod, type PaymentMethod,
} from '../../analytics/index.js';
import { UsageError } from '../../errors.js';
import { parseMeter } from '../../ingest/parseMeter.js';
import type { JsRow } from '../../store/rowsToJs.js';
import { collect, configFrom, withConfig, withDb, withFormat } from '../common.js';
import { output, rangeOf, withWarehouse, type RangeFlags } from './analytics.js';
import { action } from '../run.js';
import type { TableLayout } from '../table.js';

interface CostFlags extends RangeFlags {
  meter: string;
  tariff?: string;
  per?: string;
  paymentMethod?: string;
  exportMeter?: string;
  dispatches?: string;
}

interface CompareFlags extends RangeFlags {
  meter: string;
  tariff: string[];
  paymentMethod?: string;
}

const PERIODS: CostPeriod[] = ['half-hour', 'day', 'month'];

/** On a narrow terminal the money, its period and whether it is complete never give way; the
 *  kWh, tariff and what is missing come next; the pence break-down and the rest leave first. */
const MISSING = ['missing_half_hours', 'missing_prices', 'missing_readings'];
const LAYOUTS: Record<CostPeriod | 'net' | 'compare', TableLayout> = {
  'half-hour': { answer: ['slot_start', 'value_inc_vat', 'cost_inc_vat'], key: ['kwh', 'has_price', 'has_reading', 'tariff_code', 'local_date'] },
  day: { answer: ['local_date', 'total_gbp', 'complete'], key: ['kwh', 'tariff_code', 'half_hours', ...MISSING] },
  month: { answer: ['month', 'total_gbp', 'complete'], key: ['kwh', 'tariff_code', 'days', ...MISSING] },
  net: { answer: ['month', 'net_gbp', 'complete'], key: ['import_cost_inc_vat', 'export_earnings_inc_vat', 'import_kwh', 'export_kwh', 'missing_half_hours'] },
  compare: { answer: ['scenario', 'total_gbp', 'difference_gbp', 'complete'], key: ['kwh', 'days', 'tariff_code', ...MISSING, 'first_date', 'last_date'] },
};
const RULES = `
Costs are pence (p) inc and exc VAT, unrounded per half-hour and summed unrounded; total_gbp is
the one rounded figure. The standing charge is charged once per Europe/London local day (46, 48 or
50 half-hours): the charge of the day's tariff valid at the day's start, for the payment method
(--payment-method, else config payment_method, else DIRECT_DEBIT). Export meters earn at their
export tariff and pay no standing charge. A half-hour without a reading or without a price is
never priced at zero: it is counted (missing_prices, missing_readings, missing_half_hours) and the
row is complete=false; so is a day whose standing charge is not stored. A row with nothing priced
has no total (empty; null in JSON), never 0.00; an incomplete row's total is that of what is priced.
Half-hours priced at a tariff's last published rate without an end date (valid_to null), carried
forward, are counted (carried_half_hours, from carried_from) and said on stderr.
--meter is MPAN (every serial on it summed) or MPAN:SERIAL. --from/--to take a date (that
Europe/London day's start), naive Europe/London time or an instant with offset; --to is exclusive;
days and months are those whose local midnight lies in [--from, --to), each day whole (a mid-day
--to still counts its day's every half-hour; a month sums its days in the range); --per half-hour
is [--from, --to) as given.
A --tariff of another fuel or direction than the meter's (a gas meter at an electricity tariff, an
import meter at an export tariff, or the reverse) is refused, naming both; so is an --export-meter
that is not an export meter (SQL: tariff_mismatch(meter, tariff)).
On a narrow terminal the money, its day, month or scenario and complete never give way; the
footer names the columns left out (--format csv or json has them all).
Exit status: 0 answered, 1 no consumption stored for the meter (in the range) or no prices stored
for a --tariff (unknown here), 2 bad usage (a tariff of another fuel or direction too).`;

export function register(program: Command): void {
  const cost = program
    .command('cost')
    .description("what a meter's consumption cost at its agreements (or would have cost on --tariff), per half-hour, day or month")
    .requiredOption('--meter <MPAN[:SERIAL]>', 'the meter (gas: MPRN)')
    .option('--tariff <code>', 'price the consumption at this stored tariff instead of the agreements in force')
    .option('--from <when>', 'range start (default: the first reading)')
    .option('--to <when>', 'range end, exclusive (default: the end of the last reading)')
    .option('--per <period>', `${PERIODS.join('|')} (default: day)`)
    .option('--payment-method <method>', 'DIRECT_DEBIT or NON_DIRECT_DEBIT standing charges (default: config payment_method, else DIRECT_DEBIT)')
    .option('--export-meter <MPAN[:SERIAL]>', 'the export meter: per month, import cost, export earnings and net')
    .option('--dispatches <which>', 'Intelligent Octopus Go: planned|completed|none (default: completed where known, else planned for the future)');
  withFormat(withConfig(withDb(cost)));
  cost.addHelpText('after', `
SQL: half_hour_costs(meter, tariff, from, to, payment := …), daily_costs(…), monthly_costs(…)
(tariff NULL = the agreements), net_costs(import_meter, export_meter, from, to, payment := …).
Intelligent Octopus Go (a meter whose account has such an agreement and its dispatches ingested):
a half-hour a dispatch touches is priced at the day's off-peak rate, up to 6 hours of dispatched
half-hours a Europe/London day (sql/macros/effective_rates_with.sql); --dispatches picks which
count, said on stderr (SQL: dispatches := 'default'|'completed'|'planned'|'none').
${RULES}`);
  cost.action(action(async (flags: CostFlags) => {
    parseMeter(flags.meter);
    const per = periodOf(flags.per);
    const range = rangeOf(flags);
    const payment = paymentOf(flags);
    const dispatches = parseDispatchMode(flags.dispatches);
    if (flags.exportMeter !== undefined) {
      parseMeter(flags.exportMeter, '--export-meter');
      if (flags.tariff !== undefined || (flags.per !== undefined && per !== 'month')) {
        throw new UsageError('--export-meter: the net is per month at the agreements (no --tariff, --per month)');
      }
    }
    await withWarehouse(flags, async (warehouse, format) => {
      const rows = flags.exportMeter === undefined
        ? await costs(warehouse, { meter: flags.meter, ...(flags.tariff ? { tariff: flags.tariff } : {}), per, payment, dispatches, ...range, rounded: true })
        : await netCosts(warehouse, { importMeter: flags.meter, exportMeter: flags.exportMeter, payment, ...range, rounded: true });
      warnIncomplete(rows, flags.tariff === undefined ? agreementsHint(flags.meter) : '');
      warnCarried(rows);
      if (flags.exportMeter === undefined && await meterOnIog(warehouse, flags.meter)) {
        process.stderr.write(`tariffs: Intelligent Octopus Go dispatches counted: ${describeDispatchMode(dispatches)} (SQL: dispatches := '${dispatches}')\n`);
      }
      output(rows, format, LAYOUTS[flags.exportMeter === undefined ? per : 'net']);
    });
  }));

  const compare = program
    .command('compare')
    .description("a meter's consumption priced at its agreements and at each --tariff, side by side (default: the last 12 complete months)")
    .requiredOption('--meter <MPAN[:SERIAL]>', 'the meter')
    .requiredOption('--tariff <code>', 'a stored tariff to compare (repeatable)', collect)
    .option('--from <when>', 'range start (default: the first day of the month 12 months ago)')
    .option('--to <when>', 'range end, exclusive (default: the first day of the current month)')
    .option('--payment-method <method>', 'DIRECT_DEBIT or NON_DIRECT_DEBIT standing charges (default: config payment_method, else DIRECT_DEBIT)');
  withFormat(withConfig(withDb(compare)));
  compare.addHelpText('after', `
One row for the actual agreements (scenario 'actual') and one per --tariff: days, kwh,
energy_cost_inc_vat, standing_charge_inc_vat, total_inc_vat, total_gbp and difference_gbp (to the
actual; positive = dearer), with what is missing, and caveats: what the total rests on (prices
carried from a last published rate without an end, carried_half_hours and carried_from; days
without a standing charge), said on stderr too. SQL: tariff_comparison(meter, [tariffs], from, to, payment := …,
dispatches := …).
${RULES}`);
  compare.action(action(async (flags: CompareFlags) => {
    parseMeter(flags.meter);
    const payment = paymentOf(flags);
    const defaults = lastCompleteMonths(new Date());
    const range = flags.from === undefined && flags.to === undefined ? { from: defaults.from, to: defaults.to } : rangeOf(flags);
    await withWarehouse(flags, async (warehouse, format) => {
      const rows = await tariffComparison(warehouse, { meter: flags.meter, tariffs: flags.tariff, payment, ...range, rounded: true });
      warnIncomplete(rows);
      warnCarried(rows);
      output(rows, format, LAYOUTS.compare);
    });
  }));
}

function periodOf(text: string | undefined): CostPeriod {
  if (text === undefined) return 'day';
  if (!(PERIODS as string[]).includes(text)) throw new UsageError(`--per: '${text}' is not one of ${PERIODS.join(', ')}`);
  return text as CostPeriod;
}

function paymentOf(flags: RangeFlags & { paymentMethod?: string }): PaymentMethod {
  if (flags.paymentMethod === undefined) return configFrom(flags).paymentMethod;
  const value = flags.paymentMethod.toUpperCase().replace(/-/g, '_');
  if (value !== 'DIRECT_DEBIT' && value !== 'NON_DIRECT_DEBIT') {
    throw new UsageError(`--payment-method: '${flags.paymentMethod}' is not one of DIRECT_DEBIT, NON_DIRECT_DEBIT`);
  }
  return value;
}

/** One line on stderr when a total leaves something out, so a table is never read as complete;
 *  another when rows have nothing priced (their total is empty: unpriced is never 0.00). */
function warnIncomplete(rows: JsRow[], hint = ''): void {
  const incomplete = rows.filter((r) => r.complete === false || r.complete === null);
  if (incomplete.length === 0) return;
  const missing = incomplete.reduce((n, r) => n + Number(r.missing_half_hours ?? 0), 0);
  const standing = incomplete.reduce((n, r) => n + Number(r.standing_charge_missing_days ?? (r.standing_charge_missing ? 1 : 0)), 0);
  process.stderr.write(`tariffs: ${incomplete.length} of ${rows.length} rows incomplete (complete=false): ` +
    `${missing} half-hour(s) without a reading or a price` + (standing ? `, ${standing} day(s) without a standing charge` : '') + '\n');
  const unpriced = rows.filter((r) => TOTAL_OF.some((c) => c in r && r[c] === null));
  if (unpriced.length > 0) {
    const what = unpriced.map((r) => String(r.scenario ?? r.month ?? r.local_date ?? r.slot_start ?? '')).filter((w) => w !== '');
    process.stderr.write(`tariffs: ${unpriced.length} of ${rows.length} rows have no price at all, so no total` +
      (rows.length > 1 && what.length > 0 && what.length <= 3 ? ` (${what.join(', ')})` : '') + hint + '\n');
  }
}

/** A line on stderr when prices were carried past the last published rate (an open-ended rate
 *  applied to later half-hours): the figure is an estimate, not the price published for that time. */
function warnCarried(rows: JsRow[]): void {
  const carried = rows.filter((r) => Number(r.carried_half_hours ?? 0) > 0);
  if (carried.length === 0) return;
  if (rows.some((r) => 'caveats' in r)) {
    for (const r of carried) process.stderr.write(`tariffs: ${String(r.scenario)}: ${String(r.caveats)}\n`);
    return;
  }
  const n = carried.reduce((sum, r) => sum + Number(r.carried_half_hours), 0);
  const all = rows.reduce((sum, r) => sum + Number(r.half_hours ?? 0), 0);
  const from = carried.map((r) => String(r.carried_from)).sort()[0];
  process.stderr.write(`tariffs: prices of ${n} of ${all} half-hours carried from the last published rate (open-ended, from ${from}): ` +
    'not a price published for that time\n');
}

/** The rounded figure of each kind of row; null = nothing of that row could be priced. */
const TOTAL_OF = ['total_gbp', 'net_gbp'];

/** Said when the agreements price nothing: where agreements come from, and the other way. */
function agreementsHint(meter: string): string {
  return `: meter ${meter} has no agreement with prices stored for those half-hours ` +
    '(`tariffs ingest --account A` stores the agreements; --tariff CODE prices at a tariff)';
}
