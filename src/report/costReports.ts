// The cost reports of an export (README, section Exports): monthly_costs and tariff_comparison for
// every meter with consumption, each priced at its agreements ('actual') and at the compared
// tariffs — the export's tariffs (and the meter's agreement tariffs) that have prices during its
// readings and the meter's fuel and direction (tariff_direction, tariff_mismatch in sql/internal):
// import tariffs for import meters, export (Outgoing) tariffs for export meters, gas for gas.
// Numbers come from the portfolio_monthly_costs and portfolio_comparison macros of sql/public.
import { listValue, type DuckDBValue } from '@duckdb/node-api';
import { SUM_DIGITS } from '../analytics/costs.js';
import { priceSql } from '../analytics/priceSql.js';
import type { Warehouse } from '../store/Warehouse.js';
import type { ReportDefinition } from './reports.js';

/** Pence and kWh at 4 decimals, reproducibly rounded (see priceSql.ts), wide enough for sums. */
const D4 = (expr: string) => priceSql(expr, 4, SUM_DIGITS);

/** `column` (a reading's start) lies in the cost window [$cost_from, $cost_to) (NULL: open). */
export const inCostWindow = (column: string) =>
  `${column} >= coalesce(CAST($cost_from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
   AND ${column} < coalesce(CAST($cost_to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity')`;

/**
 * The export's cost scope, as temp tables the cost reports and the HTML page read:
 * export_cost_meters(meter_point, is_export, tariffs) and, for each of those meters, its rows of
 * portfolio_monthly_costs (export_monthly_costs) and, unless `comparison` is false, of
 * portfolio_comparison (export_tariff_comparison); returns how many meters. Each macro is called
 * once for every meter, with the union of their tariffs and the range bound as values; a meter
 * keeps 'actual' and its own tariffs.
 */
export async function prepareCostScope(warehouse: Warehouse, params: Record<string, DuckDBValue>, { comparison = true }: { comparison?: boolean } = {}): Promise<number> {
  await warehouse.run(`
    CREATE OR REPLACE TEMP TABLE export_cost_meters AS
    WITH meters AS (
        SELECT c.meter_point, coalesce(any_value(m.is_export), false) AS is_export,
               min(c.interval_start) AS first_start, max(c.interval_end) AS last_end
        FROM consumption AS c
        LEFT JOIN meter_points AS m USING (meter_point)
        WHERE ${inCostWindow('c.interval_start')}
        GROUP BY c.meter_point
    ),
    candidates AS (
        SELECT m.meter_point, t.code AS tariff_code
        FROM meters AS m, (SELECT unnest($tariffs) AS code) AS t
        UNION
        SELECT a.meter_point, a.tariff_code FROM agreements AS a JOIN meters USING (meter_point)
    ),
    candidate_slots AS (
        -- the candidates' rates over the readings, narrowed before long rates become half-hours
        SELECT tariff_code, slot_start
        FROM rate_slots_for((SELECT list(DISTINCT tariff_code) FROM candidates),
                            (SELECT min(first_start) FROM meters), (SELECT max(last_end) FROM meters))
    ),
    priced AS (
        SELECT c.meter_point, c.tariff_code
        FROM candidates AS c
        JOIN meters AS m USING (meter_point)
        -- only tariffs of the meter's fuel and direction (never gas at an electricity tariff)
        WHERE (tariff_direction(c.tariff_code) = 'EXPORT') = m.is_export
          AND tariff_mismatch(c.meter_point, c.tariff_code) IS NULL
          AND EXISTS (SELECT 1 FROM candidate_slots AS r
                      WHERE r.tariff_code = c.tariff_code AND r.slot_start >= m.first_start AND r.slot_start < m.last_end)
    )
    SELECT m.meter_point, m.is_export,
           coalesce((SELECT list(p.tariff_code ORDER BY p.tariff_code) FROM priced AS p WHERE p.meter_point = m.meter_point),
                    CAST([] AS VARCHAR[])) AS tariffs
    FROM meters AS m`, params);
  const meters = await warehouse.all('SELECT meter_point, tariffs FROM export_cost_meters ORDER BY meter_point');
  if (meters.length === 0) return 0;
  const tariffs = [...new Set(meters.flatMap((m) => (m.tariffs as string[]).map(String)))].sort();
  const scope: Record<string, DuckDBValue> = {
    ...params, meters: listValue(meters.map((m) => String(m.meter_point))), compared: listValue(tariffs),
  };
  // every meter in one statement; each keeps 'actual' and its own compared tariffs
  const portfolio = (macro: string, scenarios: string) => `
    SELECT c.* FROM ${macro}(${scenarios}, CAST($cost_from AS TIMESTAMPTZ), CAST($cost_to AS TIMESTAMPTZ),
                             meters := CAST($meters AS VARCHAR[]), payment := $payment, mismatches := 'skip') AS c
    JOIN export_cost_meters AS m USING (meter_point)
    WHERE c.scenario = 'actual' OR list_contains(m.tariffs, c.scenario)`;
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE export_monthly_costs AS
    ${portfolio('portfolio_monthly_costs', "list_prepend('actual', CAST($compared AS VARCHAR[]))")}`, scope);
  if (comparison) {
    await warehouse.run(`CREATE OR REPLACE TEMP TABLE export_tariff_comparison AS
      ${portfolio('portfolio_comparison', 'CAST($compared AS VARCHAR[])')}`, scope);
  }
  return meters.length;
}

const monthlyCosts: ReportDefinition = {
  name: 'monthly_costs',
  query: `
SELECT m.meter_point, m.is_export, c.scenario, c.tariff_code,
       strftime(c.month, '%Y-%m') AS month,
       c.days, c.half_hours,
       ${D4('c.kwh')} AS kwh,
       ${D4('c.energy_cost_inc_vat')} AS energy_cost_inc_vat,
       ${D4('c.standing_charge_inc_vat')} AS standing_charge_inc_vat,
       ${D4('c.total_inc_vat')} AS total_inc_vat,
       c.total_gbp,
       c.missing_prices, c.missing_readings, c.missing_half_hours, c.standing_charge_missing_days, c.complete
FROM export_cost_meters AS m
JOIN export_monthly_costs AS c USING (meter_point)
ORDER BY m.meter_point, c.scenario <> 'actual', c.scenario, month`,
};

const tariffComparison: ReportDefinition = {
  name: 'tariff_comparison',
  query: `
SELECT m.meter_point, m.is_export, c.scenario, c.tariff_code, c.first_date, c.last_date, c.days,
       ${D4('c.kwh')} AS kwh,
       ${D4('c.energy_cost_inc_vat')} AS energy_cost_inc_vat,
       ${D4('c.standing_charge_inc_vat')} AS standing_charge_inc_vat,
       ${D4('c.total_inc_vat')} AS total_inc_vat,
       c.total_gbp, c.difference_gbp,
       c.missing_prices, c.missing_readings, c.missing_half_hours, c.standing_charge_missing_days, c.complete
FROM export_cost_meters AS m
JOIN export_tariff_comparison AS c USING (meter_point)
ORDER BY m.meter_point, c.scenario <> 'actual', c.scenario`,
};

/** Written after the price reports, when the warehouse holds consumption. */
export const COST_REPORTS: readonly ReportDefinition[] = [monthlyCosts, tariffComparison];
