// The HTML report's cost section, one per meter with consumption: a chart of the monthly cost
// (£ inc VAT) of the actual agreements and of each compared tariff, and one of daily consumption
// (kWh, bars) against the daily mean price paid (p/kWh, line). Data from scenario_monthly_costs
// and scenario_daily_costs over the export's cost scope (export_cost_meters, see costReports.ts).
import type { Params, Warehouse } from '../../store/Warehouse.js';
import { priceDoubleSql } from '../../analytics/priceSql.js';
import { COLORS } from './chartSpecs.js';
import type { PageSeries } from './reportPage.js';
import { renderSvg, type TopLevelSpec } from './renderSvg.js';

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const config = { font: FONT, view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 11, grid: true, gridColor: '#eee' }, legend: { labelFontSize: 11, titleFontSize: 11 } };

export function monthlyCostChartSpec(rows: { scenario: string; month: string; total_gbp: number }[], title: string): TopLevelSpec {
  return {
    width: 980, height: 200, config,
    title: { text: title, subtitle: 'monthly total (energy and standing charges, £ inc VAT): actual agreements and each compared tariff', fontSize: 13, subtitleFontSize: 11, anchor: 'start' },
    data: { values: rows.map((r) => ({ ...r, t: `${r.month}-01` })) },
    mark: { type: 'line', point: true, strokeWidth: 1.5 },
    encoding: {
      x: { field: 't', type: 'temporal', timeUnit: 'utcyearmonth', axis: { title: null, format: '%b %Y', labelAngle: 0 } },
      y: { field: 'total_gbp', type: 'quantitative', title: '£ inc VAT' },
      color: { field: 'scenario', type: 'nominal', title: null, legend: { orient: 'top' } },
      strokeDash: { condition: { test: "datum.scenario === 'actual'", value: [1, 0] }, value: [4, 2] },
    },
  } as unknown as TopLevelSpec;
}

export function dailyConsumptionChartSpec(rows: { local_date: string; kwh: number; price: number | null }[], title: string, unit: string): TopLevelSpec {
  const x = { field: 'local_date', type: 'temporal', timeUnit: 'utcyearmonthdate', axis: { title: null, format: '%d %b %Y', labelAngle: 0 } };
  return {
    width: 980, height: 200, config,
    title: { text: title, subtitle: `daily ${unit} (bars) and the mean price of its half-hours at the agreements (line, p/kWh inc VAT)`, fontSize: 13, subtitleFontSize: 11, anchor: 'start' },
    data: { values: rows },
    layer: [
      { mark: { type: 'bar', color: COLORS.range }, encoding: { x, y: { field: 'kwh', type: 'quantitative', title: unit } } },
      { mark: { type: 'line', color: COLORS.price, strokeWidth: 1 }, encoding: { x, y: { field: 'price', type: 'quantitative', title: 'p/kWh inc VAT' } } },
    ],
    resolve: { scale: { y: 'independent' } },
  } as unknown as TopLevelSpec;
}

export async function costSeries(warehouse: Warehouse, params: Params, warn: (m: string) => void): Promise<PageSeries[]> {
  const meters = await warehouse.all('SELECT meter_point, is_export, tariffs FROM export_cost_meters ORDER BY meter_point');
  const out: PageSeries[] = [];
  for (const meter of meters) {
    const mp = String(meter.meter_point);
    const monthly = (await warehouse.all(`
      SELECT scenario, strftime(month, '%Y-%m') AS month, CAST(total_gbp AS DOUBLE) AS total_gbp, complete
      FROM scenario_monthly_costs($mp, list_prepend('actual', CAST($tariffs AS VARCHAR[])),
                                  CAST($cost_from AS TIMESTAMPTZ), CAST($cost_to AS TIMESTAMPTZ), payment := $payment)
      ORDER BY scenario, month`, { ...params, mp, tariffs: JSON.stringify(meter.tariffs) })) as { scenario: string; month: string; total_gbp: number; complete: boolean }[];
    const daily = (await warehouse.all(`
      SELECT CAST(local_date AS VARCHAR) AS local_date, ${priceDoubleSql('kwh', 3)} AS kwh,
             ${priceDoubleSql('energy_cost_inc_vat / nullif(kwh, 0)')} AS price
      FROM scenario_daily_costs($mp, ['actual'], CAST($cost_from AS TIMESTAMPTZ), CAST($cost_to AS TIMESTAMPTZ), payment := $payment)
      ORDER BY local_date`, { ...params, mp })) as { local_date: string; kwh: number; price: number | null }[];
    const role = meter.is_export ? 'export meter (earnings)' : 'meter';
    const incomplete = monthly.filter((m) => !m.complete).length;
    out.push({
      id: `meter_${mp}`,
      heading: `Costs: ${role} ${mp}`,
      facts: [
        ['compared tariffs', (meter.tariffs as string[]).join(', ') || '(none with prices during the readings)'],
        ['local days', daily.length ? `${daily.length} (${daily[0]!.local_date} to ${daily.at(-1)!.local_date})` : '0'],
        ['incomplete months', `${incomplete} of ${monthly.length} (a missing reading, price or standing charge; see monthly_costs)`],
      ],
      history: { kind: 'history', period: 'all', svg: await renderSvg(monthlyCostChartSpec(monthly, `Monthly cost, ${mp}`), warn) },
      days: [],
      months: [{ kind: 'month', period: 'all', svg: await renderSvg(dailyConsumptionChartSpec(daily, `Daily ${meter.is_export ? 'export' : 'consumption'} and price, ${mp}`, 'kWh'), warn) }],
      monthsNotCharted: 0,
    });
  }
  return out;
}
