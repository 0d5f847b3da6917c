// The cost reports of an export (README, section Exports): monthly_costs and tariff_comparison for
// every meter with consumption, each priced at its agreements ('actual') and at the compared
// tariffs — the export's tariffs (and the meter's agreement tariffs) that have prices during its
// readings and the meter's fuel and direction: the macro cost_meters of sql/public. Numbers come
// from the portfolio_monthly_costs and portfolio_comparison macros, through scope_monthly_costs and
// scope_comparison (sql/internal) and the report_* macros of sql/public. The statements, and the
// cost scope's temp tables (prepareCostScope), are src/analytics/reportQueries.ts'.
import { MONTHLY_COSTS_QUERY, TARIFF_COMPARISON_QUERY } from '../analytics/reportQueries.js';
import type { ReportDefinition } from './reports.js';

export { costReportParams, prepareCostScope } from '../analytics/reportQueries.js';

/** sql/public/report_monthly_costs.sql, over the costs prepareCostScope computed. */
const monthlyCosts: ReportDefinition = { name: 'monthly_costs', query: MONTHLY_COSTS_QUERY };

/** sql/public/report_tariff_comparison.sql, over the comparison prepareCostScope computed. */
const tariffComparison: ReportDefinition = { name: 'tariff_comparison', query: TARIFF_COMPARISON_QUERY };

/** Written after the price reports, when the warehouse holds consumption. */
export const COST_REPORTS: readonly ReportDefinition[] = [monthlyCosts, tariffComparison];
