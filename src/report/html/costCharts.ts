// The HTML report's cost section, one per meter with consumption: a chart of the monthly cost
// (£ inc VAT) of the actual agreements and of each compared tariff, and one of daily consumption
// (kWh, bars) against the daily mean price paid (p/kWh, line). Data from the export's cost scope
// (costReports.ts: export_cost_meters, export_monthly_costs) and scenario_daily_costs, read by
// costData and drawn by costSection.
import type { Params, Warehouse } from '../../store/Warehouse.js';
import { priceDoubleSql } from '../../analytics/priceSql.js';
import { COLORS } from './chartSpecs.js';
import type { DrawnSection } from './buildHtmlReport.js';
import type { TopLevelSpec } from './renderSvg.js';

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const config = { font: FONT, view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 11, grid: true, gridColor: '#eee' }, legend: { labelFontSize: 11, titleFontSize: 11 } };

export interface MonthlyCost {
  scenario: string;
  /** How the legend names it: the tariff code with its product and region, or the agreements. */
  label: string;
  /** YYYY-MM */
  month: string;
  /** null: nothing priced that month (no bar, never a zero). */
  total_gbp: number | null;
}

/** Each scenario's monthly total as bars side by side within the month, so that a scenario equal to
 *  another (the agreements are one of the compared tariffs each month) is never hidden behind it. */
export function monthlyCostChartSpec(rows: readonly MonthlyCost[], title: string, subtitle: string, labels: readonly string[]): TopLevelSpec {
  return {
    width: 980, height: 220, config,
    title: { text: title, subtitle, fontSize: 13, subtitleFontSize: 11, anchor: 'start' },
    data: { values: rows.filter((r) => r.total_gbp !== null) },
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'month', type: 'ordinal', sort: 'ascending', axis: { title: null, labelAngle: 0 } },
      xOffset: { field: 'label', type: 'nominal', sort: [...labels] },
      y: { field: 'total_gbp', type: 'quantitative', title: '£ inc VAT' },
      color: {
        field: 'label', type: 'nominal', title: null, sort: [...labels],
        // full names, one a line: two regions of one product differ only at the end of the code
        legend: { orient: 'bottom', direction: 'vertical', labelLimit: 0 },
      },
      tooltip: [{ field: 'label' }, { field: 'month' }, { field: 'total_gbp', format: '.2f' }],
    },
  };
}

export function dailyConsumptionChartSpec(rows: { local_date: string; kwh: number; price: number | null }[], title: string, unit: string): TopLevelSpec {
  const x = { field: 'local_date', type: 'temporal', timeUnit: 'utcyearmonthdate', axis: { title: null, format: '%d %b %Y', labelAngle: 0 } } as const;
  return {
    width: 980, height: 200, config,
    title: { text: title, subtitle: `daily ${unit} (bars) and the mean price of its half-hours at the agreements (line, p/kWh inc VAT)`, fontSize: 13, subtitleFontSize: 11, anchor: 'start' },
    data: { values: rows },
    layer: [
      { mark: { type: 'bar', color: COLORS.range }, encoding: { x, y: { field: 'kwh', type: 'quantitative', title: unit } } },
      { mark: { type: 'line', color: COLORS.price, strokeWidth: 1 }, encoding: { x, y: { field: 'price', type: 'quantitative', title: 'p/kWh inc VAT' } } },
    ],
    resolve: { scale: { y: 'independent' } },
  };
}

/** What a meter's monthly totals include, said in the chart's subtitle. */
export function costSubtitle(isExport: boolean, days: number, standingMissingDays: number): string {
  if (isExport) return 'monthly earnings, £ inc VAT, of the export at its agreements and at each compared export tariff (no standing charge)';
  const included = standingMissingDays === 0 ? 'energy and standing charges'
    : standingMissingDays >= days ? 'energy only: no standing charges are stored for these tariffs'
      : `energy, and standing charges on ${days - standingMissingDays} of ${days} days (none stored for the rest)`;
  return `monthly total, £ inc VAT, at the agreements and at each compared tariff: ${included}`;
}

export type MonthlyRow = {
  scenario: string; tariff_code: string | null; month: string; total_gbp: number | null; complete: boolean;
  days: number; standing_charge_missing_days: number; carried_half_hours: number; carried_from: string | null;
  missing_prices: number; missing_readings: number; missing_half_hours: number;
};

/** One meter's cost section, as read from the warehouse (costPages draws it). */
export interface CostData {
  mp: string;
  isExport: boolean;
  tariffs: string[];
  monthly: MonthlyRow[];
  daily: { local_date: string; kwh: number; price: number | null }[];
}

/** Each meter's cost section as read from the warehouse; `working` is told each meter. */
export async function costData(warehouse: Warehouse, params: Params, working: (what: string) => void = () => undefined): Promise<CostData[]> {
  const meters = await warehouse.all('SELECT meter_point, is_export, tariffs FROM export_cost_meters ORDER BY meter_point');
  const out: CostData[] = [];
  for (const meter of meters) {
    const mp = String(meter.meter_point);
    working(`reading the costs of ${mp}`);
    const tariffs = meter.tariffs as string[];
    const monthly = (await warehouse.all(`
      SELECT scenario, tariff_code, strftime(month, '%Y-%m') AS month, CAST(total_gbp AS DOUBLE) AS total_gbp, complete,
             days, standing_charge_missing_days, carried_half_hours, CAST(carried_from AS VARCHAR) AS carried_from,
             missing_prices, missing_readings, missing_half_hours
      FROM export_monthly_costs
      WHERE meter_point = $mp
      ORDER BY scenario, month`, { mp })) as MonthlyRow[];
    const daily = (await warehouse.all(`
      SELECT CAST(local_date AS VARCHAR) AS local_date, ${priceDoubleSql('kwh', 3)} AS kwh,
             ${priceDoubleSql('energy_cost_inc_vat / nullif(kwh, 0)')} AS price
      FROM scenario_daily_costs($mp, ['actual'], CAST($cost_from AS TIMESTAMPTZ), CAST($cost_to AS TIMESTAMPTZ), payment := $payment)
      ORDER BY local_date`, { ...params, mp })) as CostData['daily'];
    out.push({ mp, isExport: meter.is_export === true, tariffs, monthly, daily });
  }
  return out;
}

/** Why months are incomplete, in words: each reason with the number of months it holds in (in any
 *  scenario), e.g. ": no standing charges stored (12), half-hours without a reading (1)". */
export function incompleteWhy(monthly: readonly MonthlyRow[], incomplete: readonly string[]): string {
  if (incomplete.length === 0) return '';
  const reasons: [string, (m: MonthlyRow) => boolean][] = [
    ['no standing charges stored', (m) => m.standing_charge_missing_days > 0],
    ['half-hours without a reading', (m) => m.missing_readings > 0 || m.missing_half_hours > 0],
    ['half-hours without a price', (m) => m.missing_prices > 0],
  ];
  const said = reasons.map(([why, holds]) => [why, incomplete.filter((month) => monthly.some((m) => m.month === month && holds(m))).length] as const)
    .filter(([, n]) => n > 0).map(([why, n]) => `${why} (${n === incomplete.length ? 'every one' : `${n} month${n === 1 ? '' : 's'}`})`);
  return said.length > 0 ? ` — ${said.join(', ')} (see monthly_costs)` : ' (see monthly_costs)';
}

/** One meter's cost section: its monthly totals by scenario and its daily consumption. */
export async function costSection(
  meter: CostData, renderSvg: (spec: TopLevelSpec) => Promise<string>, names: ReadonlyMap<string, string> = new Map(),
): Promise<DrawnSection> {
  const named = (code: string) => (names.has(code) ? `${code} — ${names.get(code)}` : code);
  const { mp, tariffs, monthly, daily } = meter;
  const role = meter.isExport ? 'export meter (earnings)' : 'meter';
  // the agreements' tariffs over the range, in the order they came
  const agreed = [...new Set(monthly.filter((m) => m.scenario === 'actual' && m.tariff_code)
    .sort((a, b) => a.month.localeCompare(b.month)).flatMap((m) => m.tariff_code!.split(' + ')))];
  const labelOf = (scenario: string) => (scenario === 'actual' ? `actual: the agreements (${agreed.join(', then ') || 'none'})` : named(scenario));
  const labels = ['actual', ...tariffs].map(labelOf);
  const rows = monthly.map((m) => ({ scenario: m.scenario, label: labelOf(m.scenario), month: m.month, total_gbp: m.total_gbp }));
  const months = [...new Set(monthly.map((m) => m.month))];
  const incomplete = months.filter((month) => monthly.some((m) => m.month === month && !m.complete));
  const standingMissing = monthly.reduce((n, m) => n + m.standing_charge_missing_days, 0);
  const allDays = monthly.reduce((n, m) => n + m.days, 0);
  const carried = [...new Set(monthly.filter((m) => m.carried_half_hours > 0).map((m) => m.scenario))];
  const carriedFrom = monthly.map((m) => m.carried_from).filter((d): d is string => d !== null).sort()[0];
  const monthlySpec = monthlyCostChartSpec(rows, `Monthly ${meter.isExport ? 'earnings' : 'cost'}, ${mp}`,
    costSubtitle(meter.isExport, allDays, standingMissing), labels);
  const dailySpec = dailyConsumptionChartSpec(daily, `Daily ${meter.isExport ? 'export' : 'consumption'} and price, ${mp}`, 'kWh');
  return {
    specs: [{ series: mp, kind: 'monthly_cost', period: 'all', spec: monthlySpec }, { series: mp, kind: 'daily_consumption', period: 'all', spec: dailySpec }],
    kind: 'costs',
    page: {
      id: `meter_${mp}`,
      heading: `Costs: ${role} ${mp}`,
      facts: [
        ['compared tariffs', tariffs.map(named).join('; ') || '(none with prices during the readings)'],
        ['local days', daily.length ? `${daily.length} (${daily[0]!.local_date} to ${daily.at(-1)!.local_date})` : '0'],
        ['months', `${months.length}; incomplete: ${incomplete.length} of ${months.length}${incompleteWhy(monthly, incomplete)}`],
        ['standing charges', meter.isExport ? 'none (an export meter)' : standingMissing === 0 ? 'included'
          : `not stored for ${standingMissing} of ${allDays} scenario-days: ${standingMissing >= allDays ? 'energy only' : 'partly energy only'}`],
        ...(carried.length > 0 ? [['carried prices', `${carried.map(labelOf).join('; ')}: priced partly or wholly at a last published rate ` +
          `(open-ended, from ${carriedFrom}) carried forward, not a price of that time`] as [string, string]] : []),
      ],
      history: { kind: 'history', period: 'all', svg: await renderSvg(monthlySpec) },
      days: [],
      months: [{ kind: 'month', period: 'all', svg: await renderSvg(dailySpec) }],
      monthsNotCharted: 0,
      headings: {
        history: `Monthly ${meter.isExport ? 'earnings' : 'cost'} at the agreements and at each compared tariff`,
        months: `Daily ${meter.isExport ? 'export' : 'consumption'} and the price paid, ${daily.length} local day${daily.length === 1 ? '' : 's'}`,
      },
    },
  };
}
