// The tabular reports: one query per file, each a report_* macro of sql/public (the export only
// binds the parameters of exportScope.ts and formats; the numbers come from the views; the daily
// and monthly statistics are src/analytics' own queries). Every query ends in an ORDER BY over a
// unique key, so files are reproducible. The statements are src/analytics/reportQueries.ts'.
// Prices are DECIMAL(10,4) (fixed 4 decimals in CSV, see priceSql.ts; DOUBLE in Parquet), times
// Europe/London ISO 8601 with offset, each followed by the same instant as TIMESTAMPTZ named with
// `local` dropped and `_utc` added (local_start → start_utc, day_start_local → day_start_utc);
// exportReports.ts formats instants and adds each one's wall time and offset.
// The columns are documented in README.md (section Exports): change both together.
import { dailyStatsQuery } from '../analytics/dailyStats.js';
import { monthlyStatsQuery } from '../analytics/monthlyStats.js';
import { priceSql } from '../analytics/priceSql.js';
import {
  HALF_HOURLY_PRICES_QUERY, NEGATIVE_RUNS_QUERY, NEGATIVE_SLOTS_QUERY, cheapestPerDayQuery,
} from '../analytics/reportQueries.js';

export interface ReportDefinition {
  /** File name without extension. */
  name: string;
  query: string;
}

const dailyStats: ReportDefinition = { name: 'daily_stats', query: dailyStatsQuery({ price: priceSql, utc: true }) };

/** The cheapest window of `hours` per local day: sql/public/report_cheapest_per_day.sql. */
function cheapestPerDay(hours: number): ReportDefinition {
  return { name: `cheapest_${hours}h_per_day`, query: cheapestPerDayQuery(hours) };
}

/** sql/public/report_negative_slots.sql. */
const negativeSlots: ReportDefinition = { name: 'negative_slots', query: NEGATIVE_SLOTS_QUERY };

/** Runs overlapping the window, each whole (as src/analytics/negativeRuns.ts): sql/public/report_negative_runs.sql. */
const negativeRuns: ReportDefinition = { name: 'negative_runs', query: NEGATIVE_RUNS_QUERY };

/** Every half-hour's price of the export's tariffs in its range (longer rates expanded):
 *  sql/public/report_half_hourly_prices.sql. */
const halfHourlyPrices: ReportDefinition = { name: 'half_hourly_prices', query: HALF_HOURLY_PRICES_QUERY };

const monthlyStats: ReportDefinition = { name: 'monthly_stats', query: monthlyStatsQuery({ price: priceSql, monthText: true }) };

/** In the order they are written. */
export const REPORTS: readonly ReportDefinition[] = [
  dailyStats,
  cheapestPerDay(1),
  cheapestPerDay(2),
  cheapestPerDay(4),
  negativeSlots,
  negativeRuns,
  monthlyStats,
  halfHourlyPrices,
];
