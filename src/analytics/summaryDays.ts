// The days of daily_stats the demo's summary reads: the clock-change days, and per tariff its last
// complete day and last incomplete day.
import { listValue } from '@duckdb/node-api';
import type { Warehouse } from '../store/Warehouse.js';

export interface SummaryDay {
  tariff_code: string;
  local_date: string;
  slots: number;
  expected_slots: number;
}

/** The rows of daily_stats (in dailyStats' order) that the summary reads: the clock-change days,
 *  and per tariff its last complete day and last incomplete day (so that "the latest complete day,
 *  else the latest day" picks as it would from every day). Only the view's counts: its prices
 *  are not worked out, and only the rows used are read into JavaScript. */
export async function summaryDays(warehouse: Warehouse, tariffs: string[]): Promise<SummaryDay[]> {
  const rows = await warehouse.all(`
    SELECT tariff_code, CAST(local_date AS VARCHAR) AS local_date, slots, expected_slots
    FROM daily_stats
    WHERE list_contains($tariffs, tariff_code)
    QUALIFY expected_slots <> 48
         OR row_number() OVER (PARTITION BY tariff_code, slots = expected_slots
                               ORDER BY payment_method DESC NULLS LAST, rate_type DESC, local_date DESC) = 1
    ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, local_date`, { tariffs: listValue(tariffs) });
  return rows.map((r) => ({ tariff_code: String(r.tariff_code), local_date: String(r.local_date), slots: Number(r.slots), expected_slots: Number(r.expected_slots) }));
}
