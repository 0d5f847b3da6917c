// The HTML report: per price series (tariff × payment method × rate type) the last 14 local days as
// daily charts (the cheapest 2 hours marked; an export tariff's dearest), a chart per earlier month
// (at most 24, newest first) and one chart of every month;
// then a section per meter's costs. readHtmlData asks its queries; each section is then drawn with
// no query (pageSections), and assemblePage makes the page of them.
import type { Logger } from 'pino';
import type { Params, Warehouse } from '../../store/Warehouse.js';
import { costData, costSection, type CostData } from './costCharts.js';
import { scopeParams, type ExportScope } from '../exportScope.js';
import { priceDoubleSql as D } from '../../analytics/priceSql.js';
import { dailyStats, type DailyStatsRow } from '../../analytics/dailyStats.js';
import { monthlyStats } from '../../analytics/monthlyStats.js';
import { inLocalDays, inTariffs } from '../../analytics/scopeSql.js';
import { regionName } from '../../api/discover.js';
import { dayChartSpec, historyChartSpec, monthChartSpec, type DayPoint, type MonthDay } from './chartSpecs.js';
import { renderReportPage, type PageChart, type PageSeries } from './reportPage.js';
import { renderSvg, type TopLevelSpec } from './renderSvg.js';

export const HTML_LIMITS = { days: 14, months: 24, cheapestSlots: 4 } as const;

const SERIES = 'tariff_code, payment_method, rate_type';
const SAME_SERIES = (a: string, b: string) =>
  `${a}.tariff_code = ${b}.tariff_code AND ${a}.payment_method IS NOT DISTINCT FROM ${b}.payment_method AND ${a}.rate_type = ${b}.rate_type`;

/** A day of a series, its key beside it. */
type DailyRow = DailyStatsRow & { key: string };

/** The cheapest window of a local day (an export tariff's: the dearest), with the settlement period it starts in. */
interface WindowRow {
  key: string;
  local_date: string;
  period: number;
  local_start: string;
  local_end: string;
  mean_inc_vat: number;
}

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
  months: Awaited<ReturnType<typeof monthlyStats>>;
  windows: WindowRow[];
  points: Record<string, unknown>[];
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

/** The page's data from its own queries. With `costParams` (payment, cost_from, cost_to), the cost
 *  sections of the scope prepareCostScope made on this connection. `working` is told each query. */
export async function readHtmlData(
  warehouse: Warehouse, scope: ExportScope, costParams?: Params, working: (what: string) => void = () => undefined,
): Promise<HtmlData> {
  const params = scopeParams(scope);
  working('reading daily statistics');
  const daily: DailyRow[] = (await dailyStats(warehouse, { tariffs: scope.tariffs, from: scope.from, to: scope.to, rounded: true }))
    .map((d) => ({ ...d, key: seriesLabel(d) }));
  working('reading monthly statistics');
  const months = await monthlyStats(warehouse, { tariffs: scope.tariffs, from: scope.from, to: scope.to, rounded: true });
  working('reading cheapest windows');
  // an export tariff earns most in its dearest hours: its marked window is the highest-priced
  const exportTariffs = (await warehouse.all(`SELECT code FROM (SELECT unnest($tariffs) AS code)
    WHERE tariff_direction(code) = 'EXPORT' ORDER BY code`, { tariffs: params.tariffs! })).map((r) => String(r.code));
  // the cheapest (export: dearest) 2-hour window of each day
  const windows = (await warehouse.all(`
    SELECT w.tariff_code, w.payment_method, w.rate_type, CAST(w.local_date AS VARCHAR) AS local_date,
           CAST(epoch(w.start - d.day_start) / 1800 + 1 AS INTEGER) AS period,
           w.local_start, w.local_end, ${D('w.mean_inc_vat')} AS mean_inc_vat
    FROM (SELECT code, tariff_direction(code) = 'EXPORT' AS is_export FROM (SELECT unnest($tariffs) AS code)) AS t,
         LATERAL cheapest_window_per_day(t.code, ${HTML_LIMITS.cheapestSlots},
                                         CAST($range_from AS TIMESTAMPTZ), CAST($range_to AS TIMESTAMPTZ), highest := t.is_export) AS w
    JOIN london_days AS d ON d.local_date = w.local_date`, params)).map((w): WindowRow => ({
    key: seriesLabel({ tariff_code: w.tariff_code, payment_method: w.payment_method, rate_type: w.rate_type }), local_date: String(w.local_date), period: Number(w.period),
    local_start: String(w.local_start), local_end: String(w.local_end), mean_inc_vat: Number(w.mean_inc_vat),
  }));
  working('reading the half-hours of the days drawn');
  // the last HTML_LIMITS.days local days of each series
  const points = await warehouse.all(`
    WITH days AS (
        SELECT ${SERIES}, local_date
        FROM daily_stats
        WHERE ${inTariffs('tariff_code')}
          AND ${inLocalDays('local_date')}
        QUALIFY row_number() OVER (PARTITION BY ${SERIES} ORDER BY local_date DESC) <= ${HTML_LIMITS.days}
    )
    SELECT concat_ws(' / ', s.tariff_code, s.payment_method, CASE WHEN s.rate_type <> 'standard' THEN s.rate_type END) AS key,
           CAST(s.local_date AS VARCHAR) AS local_date, s.settlement_period AS period, ${D('s.value_inc_vat')} AS price,
           n.slot_start IS NOT NULL AS negative
    FROM rate_slots AS s
    JOIN days ON ${SAME_SERIES('s', 'days')} AND s.local_date = days.local_date
    LEFT JOIN negative_slots AS n ON ${SAME_SERIES('s', 'n')} AND n.slot_start = s.slot_start
    WHERE s.slot_start >= CAST($range_from AS TIMESTAMPTZ) AND s.slot_start < CAST($range_to AS TIMESTAMPTZ)
      -- said again of rate_slots itself: other tariffs' long rates are then never expanded to half-hours
      AND ${inTariffs('s.tariff_code')}
    ORDER BY 1, 2, 3`, params);
  working('reading series names');
  const names = await seriesNames(warehouse);
  const costs = costParams ? await costData(warehouse, costParams, working) : [];
  return { daily, months, windows, points, names, exportTariffs, costs };
}

/** The page's sections in order: each price series, then each meter's costs. */
export function pageSections(data: HtmlData, logger: Logger): PageSection[] {
  const draw = (spec: TopLevelSpec) => renderSvg(spec, (message) => logger.debug({ message }, 'chart warning'));
  const prices = [...groupBy(data.daily, (d) => d.key)].map(([key, days]): PageSection => ({
    name: key,
    draw: async () => {
      const started = performance.now();
      const drawn = await priceSection(data, key, days, draw);
      logger.info({ series: key, charts: drawn.specs.length, ms: Math.round(performance.now() - started) }, 'html: charts rendered');
      return drawn;
    },
  }));
  const costs = data.costs.map((meter): PageSection => ({ name: `costs of ${meter.mp}`, draw: () => costSection(meter, draw, data.names) }));
  return [...prices, ...costs];
}

/** The page of the sections drawn, in their order. */
export function assemblePage(data: HtmlData, drawn: readonly DrawnSection[]): HtmlReport {
  const priceSeries = drawn.filter((d) => d.kind === 'prices').length;
  const meters = drawn.length - priceSeries;
  const html = renderReportPage({
    title: 'Half-hourly electricity prices',
    description: `${priceSeries} price series${meters > 0 ? ` and the costs of ${meters} meter${meters === 1 ? '' : 's'}` : ''}; local days ${data.daily[0]?.local_date ?? '–'} to ${maxDate(data.daily)} (Europe/London). ` +
      'Prices in p/kWh including VAT. Times are Europe/London wall-clock time; the x axis of a daily chart is elapsed time, so a day when the clocks change is 23 or 25 hours long.',
    limits: `Per series: the last ${HTML_LIMITS.days} local days, one chart for each of at most ${HTML_LIMITS.months} earlier months, and one chart of every month. The full data are in the CSV/Parquet files.`,
    series: drawn.map((d) => d.page),
  });
  const specs = drawn.flatMap((d) => d.specs);
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
  const pointsOf = groupBy(data.points.filter((p) => p.key === seriesKey), (p) => p.local_date as string);
  const dayCharts: PageChart[] = [];
  for (const day of shownDays) {
    const window = windowOf.get(day.local_date);
    const dayPoints = (pointsOf.get(day.local_date) ?? []).map((p) => ({
      period: p.period as number, price: p.price as number, negative: p.negative === true,
    } satisfies DayPoint));
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
  const seriesMonths = data.months.filter((m) => seriesLabel(m) === seriesKey);
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

/** "Agile Octopus, South Eastern England" for each stored tariff: the product's display name
 *  (from the products list, when stored) and the region's name. */
export async function seriesNames(warehouse: Warehouse): Promise<Map<string, string>> {
  const rows = await warehouse.all(`
    SELECT t.tariff_code, t.region, p.display_name
    FROM tariffs AS t LEFT JOIN products AS p ON p.code = t.product_code`);
  const names = new Map<string, string>();
  for (const r of rows) {
    const parts = [r.display_name as string | null, regionName(String(r.region ?? ''))].filter((x): x is string => Boolean(x));
    if (parts.length > 0) names.set(r.tariff_code as string, parts.join(', '));
  }
  return names;
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

/** "tariff / payment method / rate type", the parts that are set (standard rates unnamed). */
function seriesLabel(row: { tariff_code: unknown; payment_method: unknown; rate_type: unknown }): string {
  return [row.tariff_code, row.payment_method, row.rate_type === 'standard' ? null : row.rate_type]
    .filter((part) => part !== null && part !== undefined).map(String).join(' / ');
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

function maxDate(days: DailyRow[]): string {
  return days.reduce((m, d) => (d.local_date > m ? d.local_date : m), days[0]?.local_date ?? '–');
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
