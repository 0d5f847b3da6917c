// What each Europe/London local day looked like (count, spread, negative half-hours, peak) per
// series: the daily_stats view of sql/views, filtered with bound parameters.
import type { Warehouse } from '../store/Warehouse.js';
import { localDaysIn } from './localDays.js';
import { checkRange, type Range } from './range.js';
import { requireData } from './requireData.js';

export interface DailyStatsRequest extends Range {
  /** One tariff, or every stored tariff. */
  tariff?: string;
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
}

/** The local days whose midnight lies in [from, to), in order; NoDataError when there are none. */
export async function dailyStats(warehouse: Warehouse, request: DailyStatsRequest = {}): Promise<DailyStatsRow[]> {
  checkRange(request);
  const { fromDate, toDate } = localDaysIn(request);
  const rows = (await warehouse.all(`
    SELECT * FROM daily_stats
    WHERE ($tariff IS NULL OR tariff_code = $tariff)
      AND local_date >= coalesce(CAST($from_date AS DATE), DATE '-infinity')
      AND local_date < coalesce(CAST($to_date AS DATE), DATE 'infinity')
    ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, local_date`,
    { tariff: request.tariff ?? null, from_date: fromDate ?? null, to_date: toDate ?? null },
  )) as unknown as DailyStatsRow[];
  if (rows.length === 0) await requireData(warehouse, request.tariff, request);
  return rows;
}
