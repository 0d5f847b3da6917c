// The cost reports of an export (README, section Exports): monthly_costs and tariff_comparison for
// every meter with consumption, each priced at its agreements ('actual') and at the compared
// tariffs — the export's tariffs (and the meter's agreement tariffs) that have prices during its
// readings and the meter's fuel and direction: the macro cost_meters of sql/public. Numbers come
// from the portfolio_monthly_costs and portfolio_comparison macros, through scope_monthly_costs and
// scope_comparison (sql/internal) and the report_* macros of sql/public.
import { listValue, structValue, type DuckDBValue } from '@duckdb/node-api';
import type { Warehouse } from '../store/Warehouse.js';
import type { ReportDefinition } from './reports.js';

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
 * keeps 'actual' and its own tariffs.
 */
export async function prepareCostScope(warehouse: Warehouse, params: Record<string, DuckDBValue>, { comparison = true }: { comparison?: boolean } = {}): Promise<number> {
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE export_cost_meters AS
    SELECT * FROM cost_meters(CAST($tariffs AS VARCHAR[]), CAST($cost_from AS TIMESTAMPTZ), CAST($cost_to AS TIMESTAMPTZ))`, params);
  const scope = await readMeterScope(warehouse);
  if (scope.meters === 0) return 0;
  const scoped = { ...params, ...scope.params };
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE export_monthly_costs AS SELECT * FROM scope_monthly_costs(${MONTHLY_ARGS})`, scoped);
  if (comparison) {
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

/** The export's meters, as the report macros take them. */
const METER_SCOPE = 'CAST($meter_scope AS STRUCT(meter_point VARCHAR, is_export BOOLEAN, tariffs VARCHAR[])[])';

/** sql/public/report_monthly_costs.sql, over the costs prepareCostScope computed. */
const monthlyCosts: ReportDefinition = {
  name: 'monthly_costs',
  query: `SELECT * FROM report_monthly_costs(${METER_SCOPE}, (SELECT list(c) FROM export_monthly_costs AS c))`,
};

/** sql/public/report_tariff_comparison.sql, over the comparison prepareCostScope computed. */
const tariffComparison: ReportDefinition = {
  name: 'tariff_comparison',
  query: `SELECT * FROM report_tariff_comparison(${METER_SCOPE}, (SELECT list(c) FROM export_tariff_comparison AS c))`,
};

/** Written after the price reports, when the warehouse holds consumption. */
export const COST_REPORTS: readonly ReportDefinition[] = [monthlyCosts, tariffComparison];
