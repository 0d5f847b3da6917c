// Prices and pence in the CLI's output and the reports: 4 decimals, by the round_price macro of
// sql/public (the rule, and why it is not a plain cast, are in its contract), so that an analyst's
// query of the same relation gives the CLI's digits.

/** SQL for `expr` rounded by round_price, as DECIMAL(10,4) (prices), or DECIMAL(18,4) with
 *  `digits` 18 (sums: pence over months, kWh over years). */
export function priceSql(expr: string, digits = 10): string {
  return digits === 18 ? `round_price(${expr})` : `CAST(round_price(${expr}) AS DECIMAL(${digits}, 4))`;
}

/** The same value as a DOUBLE (for the CLI's output, charts and summaries read into JavaScript). */
export function priceDoubleSql(expr: string): string {
  return `CAST(round_price(${expr}) AS DOUBLE)`;
}

/** A select list: every column, with the price columns rounded as above when `rounded` (what the
 *  CLI prints, the same numbers as the exported files); unrounded for library callers. */
export function selectPrices(columns: readonly string[], rounded: boolean | undefined): string {
  if (!rounded) return '*';
  return `* REPLACE (${columns.map((c) => `${priceDoubleSql(`"${c}"`)} AS "${c}"`).join(', ')})`;
}

/** The price statistics daily_stats and monthly_stats share. */
export const PRICE_STAT_COLUMNS = ['min_inc_vat', 'max_inc_vat', 'mean_inc_vat', 'median_inc_vat', 'p10_inc_vat',
  'p90_inc_vat', 'peak_mean_inc_vat', 'off_peak_mean_inc_vat', 'mean_exc_vat'] as const;
