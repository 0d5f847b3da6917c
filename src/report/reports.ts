// The tabular reports: one query per file over the analytics views and macros of sql/ (the export
// only selects, formats and orders; the numbers come from the views; the daily and monthly
// statistics are src/analytics' own queries). Every query binds the
// parameters of exportScope.ts and ends in an ORDER BY over a unique key, so files are reproducible.
// Prices are DECIMAL(10,4) (fixed 4 decimals in CSV, see priceSql.ts; DOUBLE in Parquet), times
// Europe/London ISO 8601 with offset, each followed by the same instant as TIMESTAMPTZ named with
// `local` dropped and `_utc` added (local_start → start_utc, day_start_local → day_start_utc);
// exportReports.ts formats instants and adds each one's wall time and offset.
// The columns are documented in README.md (section Exports): change both together.
import { dailyStatsQuery } from '../analytics/dailyStats.js';
import { monthlyStatsQuery } from '../analytics/monthlyStats.js';
import { priceSql } from '../analytics/priceSql.js';
import { inTariffs } from '../analytics/scopeSql.js';

export interface ReportDefinition {
  /** File name without extension. */
  name: string;
  query: string;
}

const P = priceSql;

/** The tariffs and local days in scope (a series is tariff × payment method × rate type). */
const IN_TARIFFS = inTariffs('tariff_code');
const IN_RANGE = (column: string) =>
  `${column} >= CAST($range_from AS TIMESTAMPTZ) AND ${column} < CAST($range_to AS TIMESTAMPTZ)`;
const SERIES_ORDER = 'tariff_code, payment_method NULLS FIRST, rate_type';
const qualified = (alias: string) => `${alias}.tariff_code, ${alias}.payment_method NULLS FIRST, ${alias}.rate_type`;

const dailyStats: ReportDefinition = { name: 'daily_stats', query: dailyStatsQuery({ price: P, utc: true }) };

/** The cheapest window of `hours` per local day, from the cheapest_window_per_day macro. */
function cheapestPerDay(hours: number): ReportDefinition {
  return {
    name: `cheapest_${hours}h_per_day`,
    query: `
SELECT w.tariff_code, w.payment_method, w.rate_type, w.local_date,
       w.local_start, w.start AS start_utc,
       w.local_end, w."end" AS end_utc,
       CAST(w.slots AS INTEGER) AS slots,
       ${P('w.mean_inc_vat')} AS mean_inc_vat,
       ${P('w.mean_exc_vat')} AS mean_exc_vat
FROM (SELECT unnest($tariffs) AS code) AS t,
     LATERAL cheapest_window_per_day(t.code, ${hours * 2},
                                     CAST($range_from AS TIMESTAMPTZ), CAST($range_to AS TIMESTAMPTZ)) AS w
ORDER BY ${qualified('w')}, w.local_date`,
  };
}

/** A half-hour's row: its series, local day and period, local and UTC bounds, prices. */
const HALF_HOUR_COLUMNS = `SELECT tariff_code, payment_method, rate_type, local_date,
       CAST(settlement_period AS INTEGER) AS settlement_period,
       london_iso(slot_start) AS local_start,
       slot_start AS start_utc,
       london_iso(slot_end) AS local_end,
       slot_end AS end_utc,
       ${P('value_inc_vat')} AS value_inc_vat,
       ${P('value_exc_vat')} AS value_exc_vat`;

const negativeSlots: ReportDefinition = {
  name: 'negative_slots',
  query: `
${HALF_HOUR_COLUMNS}
FROM negative_slots
WHERE ${IN_TARIFFS} AND ${IN_RANGE('slot_start')}
ORDER BY ${SERIES_ORDER}, slot_start`,
};

const negativeRuns: ReportDefinition = {
  name: 'negative_runs',
  query: `
SELECT tariff_code, payment_method, rate_type, local_date,
       local_start,
       start AS start_utc,
       local_end,
       "end" AS end_utc,
       CAST(slots AS INTEGER) AS slots,
       ${P('min_inc_vat')} AS min_inc_vat,
       ${P('mean_inc_vat')} AS mean_inc_vat,
       ${P('mean_exc_vat')} AS mean_exc_vat
FROM negative_runs
WHERE ${IN_TARIFFS}
  -- runs overlapping the window, each whole (as src/analytics/negativeRuns.ts)
  AND "end" > CAST($range_from AS TIMESTAMPTZ) AND start < CAST($range_to AS TIMESTAMPTZ)
ORDER BY ${SERIES_ORDER}, start`,
};

/** Every half-hour's price of the export's tariffs in its range: rate_slots (longer rates expanded). */
const halfHourlyPrices: ReportDefinition = {
  name: 'half_hourly_prices',
  query: `
${HALF_HOUR_COLUMNS}
FROM rate_slots_for(CAST($tariffs AS VARCHAR[]), CAST($range_from AS TIMESTAMPTZ), CAST($range_to AS TIMESTAMPTZ))
ORDER BY ${SERIES_ORDER}, slot_start`,
};

const monthlyStats: ReportDefinition = { name: 'monthly_stats', query: monthlyStatsQuery({ price: P, monthText: true }) };

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
