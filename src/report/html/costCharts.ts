// The HTML report's cost section, one per meter with consumption: a chart of the monthly cost
// (£ inc VAT) of the actual agreements and of each compared tariff (a tariff the agreements were
// on throughout is their bar, not a second one; figures that cannot be compared drawn pale), and
// one of daily consumption (kWh, bars) against the daily mean price paid (p/kWh, line). The meters
// and their compared tariffs are the export's cost scope (costReports.ts: export_cost_meters); the
// figures are household_costs' and daily_use's (sql/public), read by costData (through
// src/analytics/pageData.ts), drawn by costSection.
import { compareAhead, readingsEnd } from '../../analytics/compareAhead.js';
import type { PaymentMethod } from '../../analytics/costs.js';
import { dailyUse, exportCostMeters, householdCosts } from '../../analytics/pageData.js';
import { NoDataError } from '../../errors.js';
import type { Params, Warehouse } from '../../store/Warehouse.js';
import type { JsRow } from '../../store/rowsToJs.js';
import { COLORS, SCENARIO_COLORS } from './chartSpecs.js';
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
  /** false: drawn pale (carried prices or half-hours missing: household_costs' comparable). */
  comparable: boolean;
}

/** Each scenario's monthly total as bars side by side within the month, so that a scenario equal to
 *  another in some months (the agreements are one of the compared tariffs) is never hidden behind
 *  it; each scenario in its colour (`colours`, by label), a figure that cannot be compared pale. */
export function monthlyCostChartSpec(
  rows: readonly MonthlyCost[], title: string, subtitle: string, labels: readonly string[], colours: readonly string[] = [],
): TopLevelSpec {
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
        ...(colours.length === labels.length ? { scale: { domain: [...labels], range: [...colours] } } : {}),
        // full names, one a line: two regions of one product differ only at the end of the code
        legend: { orient: 'bottom', direction: 'vertical', labelLimit: 0 },
      },
      opacity: { condition: { test: '!datum.comparable', value: 0.3 }, value: 1 },
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
      { mark: { type: 'bar', color: COLORS.consumption }, encoding: { x, y: { field: 'kwh', type: 'quantitative', title: unit } } },
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

/** A row of household_costs: a scenario's figure for a month, the last month or the last year. */
export type CostFigure = MonthlyRow & {
  period: 'month' | 'last_month' | 'last_year';
  /** YYYY-MM: the period's first and last months. */
  first_month: string;
  last_month: string;
  months: number;
  calendar_days: number;
  energy_only: boolean;
  same_as_agreements: boolean;
  comparable: boolean;
  rank: number | null;
  ranked: number;
};

/** One meter's costs, as read from the warehouse (costSection and householdOverview draw them). */
export interface CostData {
  mp: string;
  isExport: boolean;
  /** 'electricity' or 'gas' (null: the meter point is not stored). */
  fuel: string | null;
  tariffs: string[];
  /** household_costs' rows of period 'month', in month order per scenario. */
  monthly: CostFigure[];
  /** Its rows of the last month and the last year. */
  summary: CostFigure[];
  daily: { local_date: string; kwh: number; price: number | null }[];
  /** What the 30 days after its last reading would cost at its agreement and at each compared
   *  tariff (compare_ahead as of that instant); null when the rule has no expected use for it. */
  ahead: { asOf: Date; rows: JsRow[] } | null;
}

/** Each meter's costs: the meters and their compared tariffs of the export's cost scope
 *  (prepareCostScope), each meter's figures from household_costs and its days from daily_use;
 *  `working` is told each meter. */
export async function costData(warehouse: Warehouse, params: Params, working: (what: string) => void = () => undefined): Promise<CostData[]> {
  const meters = await exportCostMeters(warehouse);
  const out: CostData[] = [];
  for (const meter of meters) {
    const mp = String(meter.meter_point);
    working(`reading the costs of ${mp}`);
    const tariffs = (meter.tariffs as string[]).map(String);
    const named = Array.isArray(params) ? {} : params;
    const range = { cost_from: named.cost_from ?? null, cost_to: named.cost_to ?? null, payment: named.payment ?? 'DIRECT_DEBIT' };
    const figures = (await householdCosts(warehouse, mp, tariffs, range)).map(figureOf);
    const daily = await dailyUse(warehouse, mp, range);
    const fuel = figures.length > 0 ? (figures[0]!.fuel ?? null) : null;
    const rows = figures.map((f) => f.figure);
    out.push({
      mp, isExport: meter.is_export === true, fuel, tariffs,
      monthly: rows.filter((r) => r.period === 'month'), summary: rows.filter((r) => r.period !== 'month'), daily,
      ahead: await aheadOf(warehouse, mp, tariffs, range.payment as PaymentMethod, range.cost_to === null ? null : new Date(String(range.cost_to))),
    });
  }
  return out;
}

/** compare --ahead 30d as of the end of the meter's readings, or of the page's cost range if that
 *  ends first (so that the same data give the same page), at its compared tariffs; null when it
 *  has too little history (the rule refuses). */
async function aheadOf(warehouse: Warehouse, mp: string, tariffs: string[], payment: PaymentMethod, rangeEnd: Date | null): Promise<CostData['ahead']> {
  const end = await readingsEnd(warehouse, mp);
  if (end === null) return null;
  const asOf = rangeEnd !== null && rangeEnd < end ? rangeEnd : end;
  try {
    const rows = await compareAhead(warehouse, { meter: mp, asOf, horizon: '30d', payment, rounded: true, ...(tariffs.length > 0 ? { tariffs } : {}) });
    return { asOf, rows };
  } catch (error) {
    if (error instanceof NoDataError) return null;
    throw error;
  }
}

function figureOf(r: JsRow): { fuel: string | null; figure: CostFigure } {
  const month = (v: unknown) => String(v).slice(0, 7);
  const n = (v: unknown) => Number(v ?? 0);
  return {
    fuel: r.fuel === null ? null : String(r.fuel),
    figure: {
      scenario: String(r.scenario), tariff_code: r.tariff_code === null ? null : String(r.tariff_code),
      period: r.period as CostFigure['period'], month: month(r.first_month), first_month: month(r.first_month), last_month: month(r.last_month),
      months: n(r.months), days: n(r.days), calendar_days: n(r.calendar_days),
      total_gbp: r.total_gbp === null ? null : Number(r.total_gbp), complete: r.complete === true,
      standing_charge_missing_days: n(r.standing_charge_missing_days), carried_half_hours: n(r.carried_half_hours),
      carried_from: r.carried_from === null ? null : String(r.carried_from).slice(0, 10),
      missing_prices: n(r.missing_prices), missing_readings: n(r.missing_readings), missing_half_hours: n(r.missing_half_hours),
      energy_only: r.energy_only === true, same_as_agreements: r.same_as_agreements === true, comparable: r.comparable === true,
      rank: r.rank === null ? null : Number(r.rank), ranked: n(r.ranked),
    },
  };
}

/** A colour for each scenario of the page's meters: the agreements one, each compared tariff its
 *  own (the same on every meter), none a colour the price charts give a meaning to. */
export function scenarioColours(meters: readonly CostData[]): Map<string, string> {
  const tariffs = [...new Set(meters.flatMap((m) => m.tariffs))].sort();
  return new Map([['actual', COLORS.agreements], ...tariffs.map((t, i) => [t, SCENARIO_COLORS[i % SCENARIO_COLORS.length]!] as [string, string])]);
}

/** A tariff the agreements were on in every month: its bars would be theirs again. */
export function sameThroughout(monthly: readonly CostFigure[], tariff: string): boolean {
  const rows = monthly.filter((m) => m.scenario === tariff);
  return rows.length > 0 && rows.every((m) => m.same_as_agreements);
}

/** The agreements' tariffs over the range, in the order they came. */
export function agreedTariffs(monthly: readonly MonthlyRow[]): string[] {
  return [...new Set(monthly.filter((m) => m.scenario === 'actual' && m.tariff_code)
    .sort((a, b) => a.month.localeCompare(b.month)).flatMap((m) => m.tariff_code!.split(' + ')))];
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
  return said.length > 0 ? ` — ${said.join(', ')}` : '';
}

/** One meter's cost section: its monthly totals by scenario and its daily consumption. */
export async function costSection(
  meter: CostData, renderSvg: (spec: TopLevelSpec) => Promise<string>, names: ReadonlyMap<string, string> = new Map(),
  colours: ReadonlyMap<string, string> = scenarioColours([meter]),
): Promise<DrawnSection> {
  const named = (code: string) => (names.has(code) ? `${code} — ${names.get(code)}` : code);
  const { mp, tariffs, monthly, daily } = meter;
  const role = meterRole(meter);
  const agreed = agreedTariffs(monthly);
  const labelOf = (scenario: string) => (scenario === 'actual' ? `actual: the agreements (${agreed.join(', then ') || 'none'})` : named(scenario));
  // a tariff the agreements were on throughout is drawn as their bar, not as a second, equal one
  const drawnScenarios = ['actual', ...tariffs.filter((t) => !sameThroughout(monthly, t))];
  const labels = drawnScenarios.map(labelOf);
  const rows = monthly.filter((m) => drawnScenarios.includes(m.scenario))
    .map((m) => ({ scenario: m.scenario, label: labelOf(m.scenario), month: m.month, total_gbp: m.total_gbp, comparable: m.comparable }));
  const months = [...new Set(monthly.map((m) => m.month))];
  const incomplete = months.filter((month) => monthly.some((m) => m.month === month && !m.complete));
  const carried = [...new Set(monthly.filter((m) => m.carried_half_hours > 0 && drawnScenarios.includes(m.scenario)).map((m) => m.scenario))];
  const carriedFrom = monthly.map((m) => m.carried_from).filter((d): d is string => d !== null).sort()[0];
  const pale = rows.some((r) => !r.comparable && r.total_gbp !== null);
  const monthlySpec = monthlyCostChartSpec(rows, `Monthly ${meter.isExport ? 'earnings' : 'cost'}, ${mp}`,
    costSubtitle(meter.isExport, daily.length, standingMissingDays(monthly, daily.length)), labels,
    drawnScenarios.map((s) => colours.get(s) ?? COLORS.agreements));
  const dailySpec = dailyConsumptionChartSpec(daily, `Daily ${meter.isExport ? 'export' : 'consumption'} and price, ${mp}`, 'kWh');
  const alone = tariffs.filter((t) => sameThroughout(monthly, t));
  return {
    specs: [{ series: mp, kind: 'monthly_cost', period: 'all', spec: monthlySpec }, { series: mp, kind: 'daily_consumption', period: 'all', spec: dailySpec }],
    kind: 'costs',
    page: {
      id: `meter_${mp}`,
      heading: `Costs: ${role} ${mp}`,
      facts: [
        ['compared tariffs', tariffs.map(named).join('; ') || '(none with prices during the readings)'],
        ...(alone.length > 0 ? [['one bar', `${alone.join(', ')}: the agreements throughout, drawn as their bar`] as [string, string]] : []),
        ['local days', daily.length ? `${daily.length} (${daily[0]!.local_date} to ${daily.at(-1)!.local_date})` : '0'],
        ['months', `${months.length}; incomplete: ${incomplete.length} of ${months.length}${incompleteWhy(monthly, incomplete)}`],
        ['standing charges', standingChargesSaid(meter, daily.length)],
        ...(carried.length > 0 ? [['carried prices', `${carried.map(labelOf).join('; ')}: priced partly or wholly at a last published rate ` +
          `(open-ended, from ${carriedFrom}) carried forward, not a price of that time`] as [string, string]] : []),
        ...(pale ? [['pale bars', 'months priced partly at a carried rate or with half-hours missing: not compared with the others'] as [string, string]] : []),
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

/** "electricity meter", "export meter (earnings)", "gas meter" ("meter": its fuel unknown). */
export function meterRole(meter: Pick<CostData, 'isExport' | 'fuel'>): string {
  return meter.isExport ? 'export meter (earnings)' : meter.fuel === 'gas' ? 'gas meter' : meter.fuel === 'electricity' ? 'electricity meter' : 'meter';
}

/** The days without a standing charge known, at the scenario missing most (every scenario prices the same days). */
function standingMissingDays(monthly: readonly CostFigure[], days: number): number {
  const byScenario = new Map<string, number>();
  for (const m of monthly) byScenario.set(m.scenario, (byScenario.get(m.scenario) ?? 0) + m.standing_charge_missing_days);
  return Math.min(days, Math.max(0, ...byScenario.values()));
}

/** What the figures hold of standing charges, in words. */
function standingChargesSaid(meter: CostData, days: number): string {
  if (meter.isExport) return 'none (an export meter)';
  const missing = new Map<string, number>();
  for (const m of meter.monthly) missing.set(m.scenario, (missing.get(m.scenario) ?? 0) + m.standing_charge_missing_days);
  const lacking = [...missing].filter(([, n]) => n > 0);
  if (lacking.length === 0) return 'included';
  if (lacking.length === missing.size && lacking.every(([, n]) => n >= days)) return 'none stored for these tariffs: the figures are energy only';
  return `missing on some days: ${lacking.map(([s, n]) => `${s === 'actual' ? 'the agreements' : s} on ${n} of ${days} days`).join('; ')} (those figures are energy only)`;
}
