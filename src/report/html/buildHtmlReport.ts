// The HTML report: first the household's meters (what each paid, and would have paid at each
// compared tariff; householdSection.ts, costCharts.ts), then per price series (tariff × payment
// method × rate type), the newest first, the last 14 local days as daily charts (the cheapest 2
// hours marked; an export tariff's dearest), and folded away a chart per earlier month (at most
// 24, newest first) and one chart of every month. readHtmlData reads public relations of
// sql/public (src/analytics/pageData.ts); each section is then drawn with no query (pageSections), and assemblePage makes the
// page of them.
import type { Logger } from 'pino';
import type { Params, Warehouse } from '../../store/Warehouse.js';
import type { JsRow } from '../../store/rowsToJs.js';
import { costData, costSection, scenarioColours, type CostData } from './costCharts.js';
import { householdOverview } from './householdSection.js';
import { scopeParams, type ExportScope } from '../exportScope.js';
import { dailyStats, type DailyStatsRow } from '../../analytics/dailyStats.js';
import { bestWindowPerDay, priceSeries, recentDayPrices, type PointRow, type WindowRow } from '../../analytics/pageData.js';
import { monthlyStats, type MonthlyStatsRow } from '../../analytics/monthlyStats.js';
import { regionName } from '../../api/discover.js';
import { dayChartSpec, historyChartSpec, monthChartSpec, type DayPoint, type MonthDay } from './chartSpecs.js';
import { renderReportPage, type PageChart, type PageSeries } from './reportPage.js';
import { renderSvg, type TopLevelSpec } from './renderSvg.js';

export const HTML_LIMITS = { days: 14, months: 24, cheapestSlots: 4 } as const;

/** A day of a series, its key (series_label) beside it. */
type DailyRow = DailyStatsRow & { key: string };
/** A month of a series, its key beside it. */
type MonthRow = MonthlyStatsRow & { key: string };

/** A chart's Vega-Lite spec, kept beside its SVG (tests read them: scales, scenarios, names). */
export interface ChartSpecOf {
  /** The price series key, or the meter point of a cost section. */
  series: string;
  kind: 'day' | 'month' | 'history' | 'monthly_cost' | 'daily_consumption';
  period: string;
  spec: TopLevelSpec;
}

export interface HtmlReport {
  html: string;
  charts: number;
  specs: ChartSpecOf[];
}

/** What the page draws, as its queries read it (readHtmlData); the charts are drawn with no query. */
export interface HtmlData {
  daily: DailyRow[];
  months: MonthRow[];
  windows: WindowRow[];
  points: PointRow[];
  names: Map<string, string>;
  /** The tariffs in scope that are export tariffs (tariff_direction): their marked window is the dearest. */
  exportTariffs: string[];
  /** A section per meter of the export's cost scope (none without cost parameters). */
  costs: CostData[];
}

/** A part of the page drawn in one step: a price series or a meter's costs. */
export interface PageSection {
  name: string;
  draw(): Promise<DrawnSection>;
}

/** A section with its charts drawn, their specs beside them. */
export interface DrawnSection {
  kind: 'prices' | 'costs';
  page: PageSeries;
  specs: ChartSpecOf[];
}

/** The page read, drawn and put together in one go. */
export async function buildHtmlReport(warehouse: Warehouse, scope: ExportScope, logger: Logger, costParams?: Params): Promise<HtmlReport> {
  const data = await readHtmlData(warehouse, scope, costParams);
  const drawn: DrawnSection[] = [];
  for (const section of pageSections(data, logger)) drawn.push(await section.draw());
  return assemblePage(data, drawn);
}

/** The page's data, each read one public relation of sql/public (price_series, daily_stats,
 *  monthly_stats, best_window_per_day, recent_day_prices; the costs: household_costs, daily_use).
 *  With `costParams` (payment, cost_from, cost_to), the household's meters of the scope
 *  prepareCostScope made on this connection. `working` is told each query; `seriesFound`, once
 *  the daily statistics are read, how many price series the page has (a section each). */
export async function readHtmlData(
  warehouse: Warehouse, scope: ExportScope, costParams?: Params, working: (what: string) => void = () => undefined,
  seriesFound: (count: number) => void = () => undefined,
): Promise<HtmlData> {
  const params = scopeParams(scope);
  working('reading the price series');
  const series = await priceSeries(warehouse);
  const labels = new Map(series.map((s) => [seriesKey(s), String(s.series_label)]));
  const labelOf = (row: { tariff_code: unknown; payment_method: unknown; rate_type: unknown }) => labels.get(seriesKey(row)) ?? String(row.tariff_code);
  working('reading daily statistics');
  const daily: DailyRow[] = (await dailyStats(warehouse, { tariffs: scope.tariffs, from: scope.from, to: scope.to, rounded: true }))
    .map((d) => ({ ...d, key: labelOf(d) }));
  seriesFound(new Set(daily.map((d) => d.key)).size);
  working('reading monthly statistics');
  const months = (await monthlyStats(warehouse, { tariffs: scope.tariffs, from: scope.from, to: scope.to, rounded: true }))
    .map((m) => ({ ...m, key: labelOf(m) }));
  // an export tariff earns most in its dearest hours: its marked window is the highest-priced
  const exportTariffs = [...new Set(series.filter((s) => s.direction === 'EXPORT' && scope.tariffs.includes(String(s.tariff_code)))
    .map((s) => String(s.tariff_code)))].sort();
  working('reading the best 2-hour windows');
  const windows = await bestWindowPerDay(warehouse, params, HTML_LIMITS.cheapestSlots);
  working('reading the half-hours of the days drawn');
  const points = await recentDayPrices(warehouse, params, HTML_LIMITS.days);
  const names = seriesNames(series);
  const costs = costParams ? await costData(warehouse, costParams, working) : [];
  return { daily, months, windows, points, names, exportTariffs, costs };
}

/** The page's sections in order: the household's meters (their costs), then each price series,
 *  the newest first (by its last local day). */
export function pageSections(data: HtmlData, logger: Logger): PageSection[] {
  const draw = async (spec: TopLevelSpec) => {
    const svg = await renderSvg(spec, (message) => logger.debug({ message }, 'chart warning'));
    // a turn of the event loop after each chart: drawing resolves without one, and a section of
    // many charts would hold the loop (and the progress bar's redraws) for its whole length
    await new Promise((resolve) => setImmediate(resolve));
    return svg;
  };
  const colours = scenarioColours(data.costs);
  const costs = data.costs.map((meter): PageSection => ({ name: `costs of ${meter.mp}`, draw: () => costSection(meter, draw, data.names, colours) }));
  const series = [...groupBy(data.daily, (d) => d.key)]
    .sort(([a, aDays], [b, bDays]) => maxDate(bDays).localeCompare(maxDate(aDays)) || (a < b ? -1 : a > b ? 1 : 0));
  const prices = series.map(([key, days]): PageSection => ({
    name: key,
    draw: async () => {
      const started = performance.now();
      const drawn = await priceSection(data, key, days, draw);
      logger.info({ series: key, charts: drawn.specs.length, ms: Math.round(performance.now() - started) }, 'html: charts rendered');
      return drawn;
    },
  }));
  return [...costs, ...prices];
}

/** The page of the sections drawn: the header, the household's costs (when it has meters), then
 *  the price sections, in pageSections' order. */
export function assemblePage(data: HtmlData, drawn: readonly DrawnSection[]): HtmlReport {
  const prices = drawn.filter((d) => d.kind === 'prices');
  const meters = drawn.filter((d) => d.kind === 'costs');
  const colours = scenarioColours(data.costs);
  const days = `local days ${minDate(data.daily)} to ${maxDate(data.daily)}`;
  const seriesCount = `${prices.length} price series`;
  const html = renderReportPage({
    title: meters.length > 0 ? "The household's energy costs and half-hourly prices" : 'Half-hourly electricity prices',
    description: meters.length > 0
      ? `The costs of ${meters.length} meter${meters.length === 1 ? '' : 's'}, then ${seriesCount} (${days}), the newest first. Money in £ and prices in p/kWh, VAT included; times are Europe/London wall-clock time.`
      : `${seriesCount} (${days}), the newest first. Prices in p/kWh including VAT; times are Europe/London wall-clock time.`,
    limits: `Per series: the last ${HTML_LIMITS.days} local days, then (folded) one chart for each of at most ${HTML_LIMITS.months} earlier months and one of every month. The x axis of a daily chart is elapsed time, so a day when the clocks change is 23 or 25 hours long. The full data are in the CSV/Parquet files.`,
    ...(meters.length > 0 ? { household: householdOverview(data.costs, data.names, colours) } : {}),
    meters: meters.map((d) => d.page),
    series: prices.map((d) => d.page),
  });
  const specs = [...meters, ...prices].flatMap((d) => d.specs);
  return { html, charts: specs.length, specs };
}

/** A price series' section: its last days, earlier months and every month. */
async function priceSection(data: HtmlData, seriesKey: string, days: DailyRow[], renderSvg: (spec: TopLevelSpec) => Promise<string>): Promise<DrawnSection> {
  const windowOf = new Map(data.windows.filter((w) => w.key === seriesKey).map((w) => [w.local_date, w]));
  const highest = data.exportTariffs.includes(days[0]!.tariff_code);
  const specs: ChartSpecOf[] = [];
  const chart = async (kind: 'day' | 'month' | 'history', period: string, spec: TopLevelSpec): Promise<PageChart> => {
    specs.push({ series: seriesKey, kind, period, spec });
    return { kind, period, svg: await renderSvg(spec) };
  };
  const shownDays = days.slice(-HTML_LIMITS.days).reverse();
  const yDomain = sharedPriceAxis(shownDays);
  const pointsOf = groupBy(data.points.filter((p) => p.key === seriesKey), (p) => p.local_date);
  const dayCharts: PageChart[] = [];
  for (const day of shownDays) {
    const window = windowOf.get(day.local_date);
    const dayPoints = (pointsOf.get(day.local_date) ?? []).map((p): DayPoint => ({ period: p.period, price: p.price, negative: p.negative }));
    dayCharts.push(await chart('day', day.local_date, dayChartSpec({
      localDate: day.local_date,
      slotsInDay: day.expected_slots,
      points: dayPoints,
      ...(window ? { cheapest: { period: window.period, slots: HTML_LIMITS.cheapestSlots, highest } } : {}),
      yDomain,
      title: `${day.local_date} (${weekday(day.local_date)})`,
      subtitle: daySubtitle(day, window, highest),
    })));
  }
  // Months holding days before the daily charts, newest first, at most HTML_LIMITS.months.
  const firstShown = shownDays.at(-1)?.local_date ?? '9999-12-31';
  const earlier = [...groupBy(days.filter((d) => d.local_date.slice(0, 7) <= firstShown.slice(0, 7)), (d) => d.local_date.slice(0, 7))]
    .filter(([, monthDays]) => monthDays.some((d) => d.local_date < firstShown))
    .reverse();
  const monthCharts: PageChart[] = [];
  // one price axis for all of the series' month charts, so that months read against each other
  const monthDomain = sharedPriceAxis(earlier.slice(0, HTML_LIMITS.months).flatMap(([, monthDays]) => monthDays));
  for (const [month, monthDays] of earlier.slice(0, HTML_LIMITS.months)) {
    const values: MonthDay[] = monthDays.map((d) => ({
      day: Number(d.local_date.slice(8, 10)),
      min: d.min_inc_vat,
      mean: d.mean_inc_vat,
      max: d.max_inc_vat,
      negativeSlots: d.negative_slots,
      cheapestMean: windowOf.get(d.local_date)?.mean_inc_vat ?? null,
    }));
    const negatives = monthDays.reduce((n, d) => n + d.negative_slots, 0);
    monthCharts.push(await chart('month', month, monthChartSpec({
      month,
      daysInMonth: daysInMonth(month),
      days: values,
      title: monthName(month),
      yDomain: monthDomain,
      highest,
      subtitle: [
        `${monthDays.length} day${monthDays.length === 1 ? '' : 's'} · ${negatives} negative half-hour${negatives === 1 ? '' : 's'}`,
        `daily mean, min–max and ${highest ? 'dearest' : 'cheapest'} 2 h mean (p/kWh inc VAT)`,
      ],
    })));
  }
  const seriesMonths = data.months.filter((m) => m.key === seriesKey);
  const history = seriesMonths.length < 2 ? undefined : await chart('history', 'all', historyChartSpec({
    months: seriesMonths.map((m) => ({
      month: m.month.slice(0, 7), min: m.min_inc_vat, mean: m.mean_inc_vat, max: m.max_inc_vat, negativeSlots: m.negative_slots,
    })),
    title: 'Every month',
    subtitle: 'monthly mean and min–max (p/kWh inc VAT); ▼ months with negative prices',
  }));
  const name = data.names.get(days[0]!.tariff_code);
  const page: PageSeries = {
    id: seriesKey.replace(/[^A-Za-z0-9-]+/g, '_'),
    heading: `${seriesKey}${name ? ` — ${name}` : ''}`,
    facts: seriesFacts(days),
    ...(history ? { history } : {}),
    days: dayCharts,
    months: monthCharts,
    monthsNotCharted: Math.max(0, earlier.length - HTML_LIMITS.months),
    // older history folded away: the days drawn stay open
    folded: ['history', 'months'],
  };
  return { kind: 'prices', page, specs };
}

/** One price axis for a series' day charts: their lowest and highest price (0 always shown), a
 *  little rounded out, so that neighbouring days read against the same scale. */
export function sharedPriceAxis(days: readonly { min_inc_vat: number; max_inc_vat: number }[]): [number, number] | undefined {
  if (days.length === 0) return undefined;
  const lo = Math.min(0, ...days.map((d) => d.min_inc_vat));
  const hi = Math.max(0, ...days.map((d) => d.max_inc_vat));
  const step = hi - lo > 20 ? 5 : 1;
  return [Math.floor(lo / step) * step, Math.max(Math.ceil(hi / step) * step, Math.floor(lo / step) * step + step)];
}

/** "Agile Octopus, South Eastern England" for each tariff of price_series: the product's display
 *  name (when the product is stored) and the region's name. */
export function seriesNames(series: readonly JsRow[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const r of series) {
    const parts = [r.product_name as string | null, regionName(String(r.region ?? ''))].filter((x): x is string => Boolean(x));
    if (parts.length > 0) names.set(String(r.tariff_code), parts.join(', '));
  }
  return names;
}

/** A lookup key of a series' three columns (not its label: that is price_series' series_label). */
function seriesKey(row: { tariff_code?: unknown; payment_method?: unknown; rate_type?: unknown }): string {
  return JSON.stringify([row.tariff_code, row.payment_method ?? null, row.rate_type]);
}

function seriesFacts(days: DailyRow[]): [string, string][] {
  const min = Math.min(...days.map((d) => d.min_inc_vat));
  const max = Math.max(...days.map((d) => d.max_inc_vat));
  const slots = days.reduce((n, d) => n + d.slots, 0);
  const negatives = days.reduce((n, d) => n + d.negative_slots, 0);
  const negativeDays = days.filter((d) => d.negative_slots > 0).length;
  const changes = days.filter((d) => d.expected_slots !== 48);
  const facts: [string, string][] = [
    ['local days', `${days.length} (${days[0]!.local_date} to ${days.at(-1)!.local_date})`],
    ['half-hours', String(slots)],
    ['price range', `${min.toFixed(2)} to ${max.toFixed(2)} p/kWh inc VAT`],
    ['negative half-hours', `${negatives} on ${negativeDays} day${negativeDays === 1 ? '' : 's'}`],
  ];
  if (changes.length > 0) {
    facts.push(['clock-change days', changes.map((d) => `${d.local_date} (${d.slots} of ${d.expected_slots} half-hours)`).join(', ')]);
  }
  return facts;
}

function daySubtitle(day: DailyRow, window: WindowRow | undefined, highest: boolean): string[] {
  const change = day.expected_slots === 46 ? ' (clocks forward)' : day.expected_slots === 50 ? ' (clocks back)' : '';
  const second = [];
  const which = highest ? 'dearest' : 'cheapest';
  if (window) second.push(`${which} 2 h ${window.local_start.slice(11, 16)}–${window.local_end.slice(11, 16)} at ${window.mean_inc_vat.toFixed(2)}`);
  if (day.negative_slots > 0) second.push(`${day.negative_slots} negative half-hour${day.negative_slots === 1 ? '' : 's'}`);
  return [
    `${day.slots} of ${day.expected_slots} half-hours${change} · min ${day.min_inc_vat.toFixed(2)} · mean ${day.mean_inc_vat.toFixed(2)} · max ${day.max_inc_vat.toFixed(2)}`,
    second.join(' · ') || 'no complete 2-hour window',
  ];
}

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = keyOf(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

function maxDate(days: readonly { local_date: string }[]): string {
  return days.reduce((m, d) => (d.local_date > m ? d.local_date : m), days[0]?.local_date ?? '–');
}

function minDate(days: readonly { local_date: string }[]): string {
  return days.reduce((m, d) => (d.local_date < m ? d.local_date : m), days[0]?.local_date ?? '–');
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function weekday(localDate: string): string {
  return WEEKDAYS[new Date(`${localDate}T00:00:00Z`).getUTCDay()]!;
}

function monthName(month: string): string {
  return `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;
}

function daysInMonth(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}
