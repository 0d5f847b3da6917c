// What each Europe/London local day looked like (count, spread, negative half-hours, peak) per
// series: the daily_stats view of sql/public, filtered with bound parameters.
import type { Query } from '../store/inlineParams.js';
import type { JsRow } from '../store/rowsToJs.js';
import type { Warehouse } from '../store/Warehouse.js';
import { PRICE_STAT_COLUMNS, priceDoubleSql } from './priceSql.js';
import { inLocalDays, inTariffs, localDayParams, tariffsParam } from './scopeSql.js';
import { checkRange, type Range } from './range.js';
import { requireData } from './requireData.js';

export interface DailyStatsRequest extends Range {
  /** One tariff, or every stored tariff. */
  tariff?: string;
  /** Several tariffs (an export's scope); takes precedence over tariff. */
  tariffs?: readonly string[];
  /** Prices rounded to 4 decimals in SQL, as the exports round them (what the CLI prints). */
  rounded?: boolean;
}

/** The price statistics that daily_stats and monthly_stats both give, inc VAT unless named. */
export interface PriceStats {
  slots: number;
  /** Half-hours in the period: 46, 48 or 50 a local day. */
  expected_slots: number;
  min_inc_vat: number;
  max_inc_vat: number;
  mean_inc_vat: number;
  median_inc_vat: number;
  p10_inc_vat: number;
  p90_inc_vat: number;
  negative_slots: number;
  /** Mean over 16:00-19:00 local wall time; null when the period has no half-hour there. */
  peak_mean_inc_vat: number | null;
  off_peak_mean_inc_vat: number | null;
  mean_exc_vat: number;
}

export interface DailyStatsRow extends PriceStats {
  tariff_code: string;
  payment_method: string | null;
  rate_type: string;
  local_date: string;
  /** The local day's start, Europe/London ISO 8601 with offset. */
  day_start_local: string;
}

/** How a stats query formats its columns: `price` wraps each price column (rounding), `utc` adds
 *  day_start_utc after day_start_local (the exported files carry both). */
export interface StatsQueryOptions {
  price?: (column: string) => string;
  utc?: boolean;
}

/** The one daily statistics query (the CLI, the exports and the HTML report run it): the columns
 *  in the order of daily_stats.csv, for the tariffs in $tariffs (a list; NULL: every tariff) and
 *  the local days in [$from_date, $to_date) (NULL: open), ordered by series and day. */
export function dailyStatsQuery({ price = (c) => c, utc = false }: StatsQueryOptions = {}): string {
  const prices = PRICE_STAT_COLUMNS.map((c) => `${price(`s.${c}`)} AS ${c}`).join(', ');
  return `
    SELECT s.tariff_code, s.payment_method, s.rate_type, s.local_date,
           london_iso(d.day_start) AS day_start_local,${utc ? ' d.day_start AS day_start_utc,' : ''}
           s.slots, CAST(s.expected_slots AS INTEGER) AS expected_slots, ${prices}, s.negative_slots
    FROM daily_stats AS s
    JOIN london_days AS d ON d.local_date = s.local_date
    WHERE ${inTariffs('s.tariff_code')}
      AND ${inLocalDays('s.local_date')}
    ORDER BY s.tariff_code, s.payment_method NULLS FIRST, s.rate_type, s.local_date`;
}

/** The local days whose midnight lies in [from, to), in order; NoDataError when there are none
 *  (for one tariff or the warehouse; a caller naming `tariffs` has checked them). */
export async function dailyStats(warehouse: Warehouse, request: DailyStatsRequest = {}): Promise<DailyStatsRow[]> {
  const { sql, params } = dailyStatsStatement(request);
  const rows = await warehouse.all(sql, params);
  if (rows.length === 0 && !request.tariffs) await requireData(warehouse, request.tariff, request);
  return rows.map(dailyRowOf);
}

/** dailyStats' statement and its values (what `tariffs daily --print-sql` prints). */
export function dailyStatsStatement(request: DailyStatsRequest = {}): Query {
  checkRange(request);
  return {
    sql: dailyStatsQuery({ price: request.rounded ? priceDoubleSql : undefined }),
    params: { tariffs: tariffsParam(request), ...localDayParams(request) },
  };
}

function dailyRowOf(row: JsRow): DailyStatsRow {
  return {
    ...seriesOf(row),
    local_date: String(row.local_date),
    day_start_local: String(row.day_start_local),
    slots: Number(row.slots),
    expected_slots: Number(row.expected_slots),
    ...priceStatsOf(row),
    negative_slots: Number(row.negative_slots),
  };
}

/** A row's series: the tariff, payment method and rate type every per-series answer starts with. */
export function seriesOf(row: JsRow): { tariff_code: string; payment_method: string | null; rate_type: string } {
  return { tariff_code: String(row.tariff_code), payment_method: row.payment_method as string | null, rate_type: String(row.rate_type) };
}

/** The price columns of a daily_stats or monthly_stats row, typed. */
export function priceStatsOf(row: JsRow): Omit<PriceStats, 'slots' | 'expected_slots' | 'negative_slots'> {
  const number = (column: string) => Number(row[column]);
  const optional = (column: string) => (row[column] === null ? null : Number(row[column]));
  return {
    min_inc_vat: number('min_inc_vat'), max_inc_vat: number('max_inc_vat'), mean_inc_vat: number('mean_inc_vat'),
    median_inc_vat: number('median_inc_vat'), p10_inc_vat: number('p10_inc_vat'), p90_inc_vat: number('p90_inc_vat'),
    peak_mean_inc_vat: optional('peak_mean_inc_vat'), off_peak_mean_inc_vat: optional('off_peak_mean_inc_vat'),
    mean_exc_vat: number('mean_exc_vat'),
  };
}
