// The export's report statements (src/report/reports.ts and costReports.ts define the reports;
// src/report/exportReports.ts runs each inside COPY): each a report_* macro of sql/public over the
// export's window and tariffs, bound by name ($tariffs, $range_from, $range_to; the cost reports
// $meter_scope and the cost scope's temp tables). And the export's cost scope: temp tables of one
// export's connection (session-local scratch, no write to the warehouse: they live here, with the
// reads that fill them), export_cost_meters from the macro cost_meters, export_monthly_costs and
// export_tariff_comparison from scope_monthly_costs and scope_comparison (sql/internal), which
// the cost reports and the HTML page (pageData.ts) read.
import { listValue, structValue, type DuckDBValue } from '@duckdb/node-api';
import type { Warehouse } from '../store/Warehouse.js';

/** The export's window, as the report macros take it. */
const SCOPE = 'CAST($range_from AS TIMESTAMPTZ), CAST($range_to AS TIMESTAMPTZ)';

/** The cheapest window of `hours` per local day: sql/public/report_cheapest_per_day.sql. */
export function cheapestPerDayQuery(hours: number): string {
  return `SELECT * FROM report_cheapest_per_day(CAST($tariffs AS VARCHAR[]), ${hours * 2}, ${SCOPE})`;
}

/** sql/public/report_negative_slots.sql. */
export const NEGATIVE_SLOTS_QUERY = `SELECT * FROM report_negative_slots(CAST($tariffs AS VARCHAR[]), ${SCOPE})`;

/** Runs overlapping the window, each whole (as negativeRuns.ts): sql/public/report_negative_runs.sql. */
export const NEGATIVE_RUNS_QUERY = `SELECT * FROM report_negative_runs(CAST($tariffs AS VARCHAR[]), ${SCOPE})`;

/** Every half-hour's price of the export's tariffs in its range (longer rates expanded):
 *  sql/public/report_half_hourly_prices.sql. */
export const HALF_HOURLY_PRICES_QUERY = `SELECT * FROM report_half_hourly_prices(CAST($tariffs AS VARCHAR[]), ${SCOPE})`;

/** The export's meters, as the report macros take them. */
const METER_SCOPE = 'CAST($meter_scope AS STRUCT(meter_point VARCHAR, is_export BOOLEAN, tariffs VARCHAR[])[])';

/** sql/public/report_monthly_costs.sql, over the costs prepareCostScope computed. */
export const MONTHLY_COSTS_QUERY = `SELECT * FROM report_monthly_costs(${METER_SCOPE}, (SELECT list(c) FROM export_monthly_costs AS c))`;

/** sql/public/report_tariff_comparison.sql, over the comparison prepareCostScope computed. */
export const TARIFF_COMPARISON_QUERY = `SELECT * FROM report_tariff_comparison(${METER_SCOPE}, (SELECT list(c) FROM export_tariff_comparison AS c))`;

/** The bound arguments of scope_monthly_costs and scope_comparison: the scope, its scenarios and
 *  meter points (`scenarios`: $compared, after 'actual' for the monthly costs), the window, the payment. */
const scopeArgs = (scenarios: string) => 'CAST($meter_scope AS STRUCT(meter_point VARCHAR, is_export BOOLEAN, tariffs VARCHAR[])[]), '
  + `${scenarios}, CAST($meters AS VARCHAR[]), CAST($cost_from AS TIMESTAMPTZ), CAST($cost_to AS TIMESTAMPTZ), $payment`;
const MONTHLY_ARGS = scopeArgs("list_prepend('actual', CAST($compared AS VARCHAR[]))");
const COMPARISON_ARGS = scopeArgs('CAST($compared AS VARCHAR[])');

/**
 * The export's cost scope, as temp tables the cost reports and the HTML page read:
 * export_cost_meters(meter_point, is_export, tariffs) and, for each of those meters, its rows of
 * portfolio_monthly_costs (export_monthly_costs) and, unless `comparison` is false, of
 * portfolio_comparison (export_tariff_comparison); returns how many meters. Each macro is called
 * once for every meter, with the union of their tariffs and the range bound as values; a meter
 * keeps 'actual' and its own tariffs. `working` is told each statement.
 */
export async function prepareCostScope(
  warehouse: Warehouse, params: Record<string, DuckDBValue>,
  { comparison = true, working = () => undefined }: { comparison?: boolean; working?: (what: string) => void } = {},
): Promise<number> {
  working('the meters in scope');
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE export_cost_meters AS
    SELECT * FROM cost_meters(CAST($tariffs AS VARCHAR[]), CAST($cost_from AS TIMESTAMPTZ), CAST($cost_to AS TIMESTAMPTZ))`, params);
  const scope = await readMeterScope(warehouse);
  if (scope.meters === 0) return 0;
  const scoped = { ...params, ...scope.params };
  working('the monthly costs');
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE export_monthly_costs AS SELECT * FROM scope_monthly_costs(${MONTHLY_ARGS})`, scoped);
  if (comparison) {
    working('the tariff comparison');
    await warehouse.run(`CREATE OR REPLACE TEMP TABLE export_tariff_comparison AS SELECT * FROM scope_comparison(${COMPARISON_ARGS})`, scoped);
  }
  return scope.meters;
}

/** The cost reports' parameters ($meter_scope, $meters, $compared) from export_cost_meters (after prepareCostScope). */
export async function costReportParams(warehouse: Warehouse): Promise<Record<string, DuckDBValue>> {
  return (await readMeterScope(warehouse)).params;
}

/** export_cost_meters's rows as a list (meter_scope), their meter points and the union of their tariffs, sorted. */
async function readMeterScope(warehouse: Warehouse): Promise<{ params: Record<string, DuckDBValue>; meters: number }> {
  const rows = await warehouse.all('SELECT * FROM export_cost_meters ORDER BY meter_point');
  const tariffsOf = (m: (typeof rows)[number]) => (m.tariffs as string[]).map(String);
  const params = {
    meter_scope: listValue(rows.map((m) => structValue({ meter_point: String(m.meter_point), is_export: m.is_export === true, tariffs: listValue(tariffsOf(m)) }))),
    meters: listValue(rows.map((m) => String(m.meter_point))),
    compared: listValue([...new Set(rows.flatMap(tariffsOf))].sort()),
  };
  return { params, meters: rows.length };
}
