// Each Europe/London calendar month per series: the monthly_stats view of sql/views.
import type { Warehouse } from '../store/Warehouse.js';
import type { PriceStats } from './dailyStats.js';
import { requireData } from './requireData.js';

export interface MonthlyStatsRequest {
  tariff?: string;
}

export interface MonthlyStatsRow extends PriceStats {
  tariff_code: string;
  payment_method: string | null;
  rate_type: string;
  /** First day of the month, `YYYY-MM-01`. */
  month: string;
  days: number;
}

export async function monthlyStats(warehouse: Warehouse, request: MonthlyStatsRequest = {}): Promise<MonthlyStatsRow[]> {
  const rows = (await warehouse.all(`
    SELECT * FROM monthly_stats
    WHERE $tariff IS NULL OR tariff_code = $tariff
    ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, month`,
    { tariff: request.tariff ?? null },
  )) as unknown as MonthlyStatsRow[];
  if (rows.length === 0) await requireData(warehouse, request.tariff);
  return rows;
}
