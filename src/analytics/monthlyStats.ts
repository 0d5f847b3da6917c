// Each Europe/London calendar month per series: the monthly_stats view of sql/public.
import type { Query } from '../store/inlineParams.js';
import type { Warehouse } from '../store/Warehouse.js';
import { priceStatsOf, seriesOf, type PriceStats } from './dailyStats.js';
import { PRICE_STAT_COLUMNS, priceDoubleSql } from './priceSql.js';
import { inTariffs, localDayParams, tariffsParam } from './scopeSql.js';
import { checkRange, type Range } from './range.js';
import { requireData } from './requireData.js';

export interface MonthlyStatsRequest extends Range {
  tariff?: string;
  /** Several tariffs (an export's scope); takes precedence over tariff. */
  tariffs?: readonly string[];
  /** Prices rounded to 4 decimals in SQL, as the exports round them (what the CLI prints). */
  rounded?: boolean;
}

export interface MonthlyStatsRow extends PriceStats {
  tariff_code: string;
  payment_method: string | null;
  rate_type: string;
  /** First day of the month, `YYYY-MM-01`. */
  month: string;
  days: number;
}

/** The one monthly statistics query (the CLI, the exports and the HTML report run it): `month`
 *  as `YYYY-MM` text when `monthText` (the exported files), else the month's first day; the
 *  calendar months holding the local days in [$from_date, $to_date), for the tariffs in $tariffs
 *  (NULL: every tariff), ordered by series and month. */
export function monthlyStatsQuery({ price = (c) => c, monthText = false, cliOrder = false }:
  { price?: (column: string) => string; monthText?: boolean; cliOrder?: boolean } = {}): string {
  const prices = (columns: readonly string[]) => columns.map((c) => `${price(c)} AS ${c}`).join(', ');
  // `tariffs monthly` has always printed the peak means and mean_exc_vat after negative_slots
  const stats = cliOrder
    ? `${prices(PRICE_STAT_COLUMNS.slice(0, 6))}, negative_slots, ${prices(PRICE_STAT_COLUMNS.slice(6))}`
    : `${prices(PRICE_STAT_COLUMNS)}, negative_slots`;
  return `
    SELECT tariff_code, payment_method, rate_type, ${monthText ? `strftime(month, '%Y-%m')` : 'month'} AS month,
           days, slots, expected_slots, ${stats}
    FROM monthly_stats
    WHERE ${inTariffs('tariff_code')}
      AND ($from_date IS NULL OR month >= date_trunc('month', CAST($from_date AS DATE)))
      AND ($to_date IS NULL OR month < CAST($to_date AS DATE))
    ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, month`;
}

/** The calendar months holding local days whose midnight lies in [from, to) (as the exports select them). */
export async function monthlyStats(warehouse: Warehouse, request: MonthlyStatsRequest = {}): Promise<MonthlyStatsRow[]> {
  const { sql, params } = monthlyStatsStatement(request);
  const rows = await warehouse.all(sql, params);
  if (rows.length === 0 && !request.tariffs) await requireData(warehouse, request.tariff);
  // the fields in the view's column order, as `tariffs monthly` has always printed them
  return rows.map((row) => {
    const { peak_mean_inc_vat, off_peak_mean_inc_vat, mean_exc_vat, ...spread } = priceStatsOf(row);
    return {
      ...seriesOf(row),
      month: String(row.month),
      days: Number(row.days),
      slots: Number(row.slots),
      expected_slots: Number(row.expected_slots),
      ...spread,
      negative_slots: Number(row.negative_slots),
      peak_mean_inc_vat, off_peak_mean_inc_vat, mean_exc_vat,
    };
  });
}

/** monthlyStats' statement and its values, its columns in the order monthlyStats gives them
 *  (what `tariffs monthly --print-sql` prints). */
export function monthlyStatsStatement(request: MonthlyStatsRequest = {}): Query {
  checkRange(request);
  return {
    sql: monthlyStatsQuery({ price: request.rounded ? priceDoubleSql : undefined, cliOrder: true }),
    params: { tariffs: tariffsParam(request), ...localDayParams(request) },
  };
}
