// Each Europe/London calendar month per series: the monthly_stats view of sql/views.
import type { Warehouse } from '../store/Warehouse.js';
import type { PriceStats } from './dailyStats.js';
import { PRICE_STAT_COLUMNS, selectPrices } from './priceSql.js';
import { localDaysIn } from './localDays.js';
import { checkRange, type Range } from './range.js';
import { requireData } from './requireData.js';

export interface MonthlyStatsRequest extends Range {
  tariff?: string;
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

/** The calendar months holding local days whose midnight lies in [from, to) (as the exports select them). */
export async function monthlyStats(warehouse: Warehouse, request: MonthlyStatsRequest = {}): Promise<MonthlyStatsRow[]> {
  checkRange(request);
  const { fromDate, toDate } = localDaysIn(request);
  const rows = (await warehouse.all(`
    SELECT ${selectPrices(PRICE_STAT_COLUMNS, request.rounded)} FROM monthly_stats
    WHERE ($tariff IS NULL OR tariff_code = $tariff)
      AND ($from_date IS NULL OR month >= date_trunc('month', CAST($from_date AS DATE)))
      AND ($to_date IS NULL OR month < CAST($to_date AS DATE))
    ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, month`,
    { tariff: request.tariff ?? null, from_date: fromDate ?? null, to_date: toDate ?? null },
  )) as unknown as MonthlyStatsRow[];
  if (rows.length === 0) await requireData(warehouse, request.tariff);
  return rows;
}
