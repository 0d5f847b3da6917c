// What `tariffs cost` and `tariffs compare` share: the pricing rules their help states, the
// flags naming meters and payment methods, table layouts, and the warnings said on stderr.
import type { CostPeriod, PaymentMethod } from '../analytics/index.js';
import { UsageError } from '../errors.js';
import { parseMeter } from '../ingest/parseMeter.js';
import type { JsRow } from '../store/rowsToJs.js';
import { PAYMENT_METHODS } from '../tariffTerms.js';
import type { TableLayout } from './table.js';

export const PERIODS: CostPeriod[] = ['half-hour', 'day', 'month'];

/** On a narrow terminal the money, its period and whether it is complete never give way; the
 *  kWh, tariff and what is missing come next; the pence break-down and the rest leave first. */
const MISSING = ['missing_half_hours', 'missing_prices', 'missing_readings'];
export const LAYOUTS: Record<CostPeriod | 'net' | 'compare', TableLayout> = {
  'half-hour': { answer: ['slot_start', 'value_inc_vat', 'cost_inc_vat'], key: ['kwh', 'has_price', 'has_reading', 'tariff_code', 'local_date'] },
  day: { answer: ['local_date', 'total_gbp', 'complete'], key: ['kwh', 'tariff_code', 'half_hours', ...MISSING] },
  month: { answer: ['month', 'total_gbp', 'complete'], key: ['kwh', 'tariff_code', 'days', ...MISSING] },
  net: { answer: ['month', 'net_gbp', 'complete'], key: ['import_cost_inc_vat', 'export_earnings_inc_vat', 'import_kwh', 'export_kwh', 'missing_half_hours'] },
  compare: { answer: ['scenario', 'total_gbp', 'difference_gbp', 'complete'], key: ['kwh', 'days', 'tariff_code', ...MISSING, 'first_date', 'last_date'] },
};
export const RULES = `
Costs are pence (p) inc and exc VAT, unrounded per half-hour and summed unrounded; total_gbp is
the one rounded figure. The standing charge is charged once per Europe/London local day (46, 48 or
50 half-hours): the charge of the day's tariff valid at the day's start, for the payment method
(--payment-method, else config payment_method, else DIRECT_DEBIT). Export meters earn at their
export tariff and pay no standing charge. A half-hour without a reading or without a price is
never priced at zero: it is counted (missing_prices, missing_readings, missing_half_hours) and the
row is complete=false; so is a day whose standing charge is not stored. A day's total is its energy
priced plus its standing charge (a day without readings owes the charge); nothing priced and no
charge: no total (empty; null in JSON), never 0.00. Months and comparisons sum their days.
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

/** A meter flag (MPAN or MPAN:SERIAL), checked and kept as given. */
export const meterFlag = (flag: string) => (text: string): string => {
  parseMeter(text, flag);
  return text;
};

/** --payment-method: DIRECT_DEBIT or NON_DIRECT_DEBIT, in any case, `-` for `_`. */
export function paymentMethod(text: string): PaymentMethod {
  const value = text.toUpperCase().replace(/-/g, '_');
  if (!(PAYMENT_METHODS as readonly string[]).includes(value)) {
    throw new UsageError(`--payment-method: '${text}' is not one of DIRECT_DEBIT, NON_DIRECT_DEBIT`);
  }
  return value as PaymentMethod;
}

/** One line on stderr when a total leaves something out, so a table is never read as complete;
 *  another when rows have nothing priced (their total is empty: unpriced is never 0.00). */
export function warnIncomplete(rows: JsRow[], hint = ''): void {
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
export function warnCarried(rows: JsRow[]): void {
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
export function agreementsHint(meter: string): string {
  return `: meter ${meter} has no agreement with prices stored for those half-hours ` +
    '(`tariffs ingest --account A` stores the agreements; --tariff CODE prices at a tariff)';
}
