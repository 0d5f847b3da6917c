// Prices in the reports: 4 decimals, rounded the same way on every run. A mean of doubles summed by
// parallel threads differs in its last bits from run to run, and means of 4-decimal prices often
// sit exactly on a rounding tie (12.24125), so rounding the double directly flips between runs.
// Going through DECIMAL(18,9) first removes that noise; the second cast rounds the tie half away
// from zero, exactly.

/** SQL for `expr` as DECIMAL(10,4) (or fewer decimals), reproducibly rounded. `digits` is the
 *  DECIMAL's width: 6 + decimals suits prices; sums (pence over months, kWh over years) need 18. */
export function priceSql(expr: string, decimals = 4, digits = 6 + decimals): string {
  return `CAST(CAST(${expr} AS DECIMAL(18,9)) AS DECIMAL(${digits},${decimals}))`;
}

/** The same value as a DOUBLE (for charts and summaries read into JavaScript). */
export function priceDoubleSql(expr: string, decimals = 4, digits = 6 + decimals): string {
  return `CAST(${priceSql(expr, decimals, digits)} AS DOUBLE)`;
}

/** A select list: every column, with the price columns rounded as above when `rounded` (what the
 *  CLI prints, the same numbers as the exported files); unrounded for library callers. */
export function selectPrices(columns: readonly string[], rounded: boolean | undefined, digits?: number): string {
  if (!rounded) return '*';
  return `* REPLACE (${columns.map((c) => `${priceDoubleSql(`"${c}"`, 4, digits)} AS "${c}"`).join(', ')})`;
}

/** The price statistics daily_stats and monthly_stats share. */
export const PRICE_STAT_COLUMNS = ['min_inc_vat', 'max_inc_vat', 'mean_inc_vat', 'median_inc_vat', 'p10_inc_vat',
  'p90_inc_vat', 'peak_mean_inc_vat', 'off_peak_mean_inc_vat', 'mean_exc_vat'] as const;
