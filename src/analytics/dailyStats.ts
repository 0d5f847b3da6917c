// What each Europe/London local day looked like (count, spread, negative half-hours, peak) per
// series: the daily_stats view of sql/views, filtered with bound parameters.
import type { Warehouse } from '../store/Warehouse.js';
import { PRICE_STAT_COLUMNS, priceDoubleSql } from './priceSql.js';
import { localDaysIn } from './localDays.js';
import { checkRange, type Range } from './range.js';
import { requireData } from './requireData.js';

export interface DailyStatsRequest extends Range {
  /** One tariff, or every stored tariff. */
  tariff?: string;
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

/** The local days whose midnight lies in [from, to), in order; NoDataError when there are none. */
export async function dailyStats(warehouse: Warehouse, request: DailyStatsRequest = {}): Promise<DailyStatsRow[]> {
  checkRange(request);
  const { fromDate, toDate } = localDaysIn(request);
  // The columns in the order of the exported daily_stats.csv.
  const prices = PRICE_STAT_COLUMNS.map((c) => `${request.rounded ? priceDoubleSql(`s.${c}`) : `s.${c}`} AS ${c}`).join(', ');
  const rows = (await warehouse.all(`
    SELECT s.tariff_code, s.payment_method, s.rate_type, s.local_date, london_iso(d.day_start) AS day_start_local,
           s.slots, s.expected_slots, ${prices}, s.negative_slots
    FROM daily_stats AS s
    JOIN london_days AS d ON d.local_date = s.local_date
    WHERE ($tariff IS NULL OR s.tariff_code = $tariff)
      AND s.local_date >= coalesce(CAST($from_date AS DATE), DATE '-infinity')
      AND s.local_date < coalesce(CAST($to_date AS DATE), DATE 'infinity')
    ORDER BY s.tariff_code, s.payment_method NULLS FIRST, s.rate_type, s.local_date`,
    { tariff: request.tariff ?? null, from_date: fromDate ?? null, to_date: toDate ?? null },
  )) as unknown as DailyStatsRow[];
  if (rows.length === 0) await requireData(warehouse, request.tariff, request);
  return rows;
}
