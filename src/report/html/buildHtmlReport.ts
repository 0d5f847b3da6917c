// The HTML report: per price series (tariff × payment method × rate type), the last 14 local days
// as daily charts, a chart per earlier month (at most 24, newest first) and one chart of every
// month. Data from src/analytics (daily and monthly statistics), rate_slots, negative_slots and the
// cheapest_window_per_day macro, read first (queryHtmlData); the charts are then drawn to SVG by
// renderSvg with no query (renderHtmlReport). Bounded: ≤ 39 charts per series.
import type { Logger } from 'pino';
import type { Params, Warehouse } from '../../store/Warehouse.js';
import { costData, costPages, type CostData } from './costCharts.js';
import type { ExportProgress } from '../exportReports.js';
import { scopeParams, type ExportScope } from '../exportScope.js';
import { priceDoubleSql as D } from '../../analytics/priceSql.js';
import { dailyStats, dailyStatsIn, type DailyStatsRow } from '../../analytics/dailyStats.js';
import { monthlyStats } from '../../analytics/monthlyStats.js';
import { inLocalDays, inTariffs } from '../../analytics/scopeSql.js';
import { regionName } from '../../api/discover.js';
import { dayChartSpec, historyChartSpec, monthChartSpec, type DayPoint, type MonthDay } from './chartSpecs.js';
import { renderReportPage, type PageChart, type PageSeries } from './reportPage.js';
import { ChartRenderer, type TopLevelSpec } from './renderSvg.js';

export const HTML_LIMITS = { days: 14, months: 24, cheapestSlots: 4 } as const;

const SERIES = 'tariff_code, payment_method, rate_type';
const SAME_SERIES = (a: string, b: string) =>
  `${a}.tariff_code = ${b}.tariff_code AND ${a}.payment_method IS NOT DISTINCT FROM ${b}.payment_method AND ${a}.rate_type = ${b}.rate_type`;

/** A day of a series, its key beside it. */
type DailyRow = DailyStatsRow & { key: string };

/** The cheapest window of a local day, with the settlement period it starts in. */
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

/** What the page draws, read from the warehouse in one go: the charts are then drawn with no query
 *  (exportReports draws them while the CSV/Parquet reports' queries run). */
export interface HtmlData {
  daily: DailyRow[];
  months: Awaited<ReturnType<typeof monthlyStats>>;
  windows: WindowRow[];
  points: Record<string, unknown>[];
  names: Map<string, string>;
  /** The cost sections' data; a promise when they are still being read (the price charts are
   *  drawn meanwhile, and the cost charts once it settles). */
  costs?: CostData[] | Promise<CostData[]>;
}

export interface HtmlOptions {
  /** Told the number of series (price and cost) and each one drawn. */
  progress?: ExportProgress;
}

export async function buildHtmlReport(warehouse: Warehouse, scope: ExportScope, logger: Logger, costParams?: Params, options: HtmlOptions = {}): Promise<HtmlReport> {
  return renderHtmlReport(await queryHtmlData(warehouse, scope, costParams, options.progress), logger, options);
}

/** The price series the page will have (for a progress bar; each meter's costs are one more). */
export function priceSections(data: HtmlData): number {
  return new Set(data.daily.map((d) => d.key)).size;
}

/** Tables an export made of its reports before the page is read (the same rows: the page reads
 *  them instead of asking again). daily: the daily_stats report's; windows: cheapest_2h_per_day's. */
export interface ReportTables {
  daily?: string;
  windows?: string;
}

/** `progress` is told each query (a step each; a meter's costs one more). */
export async function queryHtmlData(warehouse: Warehouse, scope: ExportScope, costParams?: Params, progress?: ExportProgress, tables: ReportTables = {}): Promise<HtmlData> {
  const params = scopeParams(scope);
  const stats = { tariffs: scope.tariffs, from: scope.from, to: scope.to, rounded: true };
  const step = async <T>(what: string, query: Promise<T> | (() => Promise<T>)): Promise<T> => {
    progress?.working(`reading ${what}`);
    const result = await (typeof query === 'function' ? query() : query);
    progress?.done();
    return result;
  };
  progress?.expect(5);
  const daily: DailyRow[] = (await step('daily statistics', () => (tables.daily ? dailyStatsIn(warehouse, tables.daily) : dailyStats(warehouse, stats))))
    .map((d) => ({ ...d, key: seriesLabel(d) }));
  const months = await step('monthly statistics', () => monthlyStats(warehouse, stats));
  // the cheapest 2-hour window of each day: the cheapest_2h_per_day report's rows when the export
  // made them (start_utc, prices DECIMAL(10,4)), else the same macro asked here
  const windowsFrom = tables.windows
    ? `(SELECT *, start_utc AS start FROM ${tables.windows}) AS w`
    : `(SELECT unnest($tariffs) AS code) AS t,
         LATERAL cheapest_window_per_day(t.code, ${HTML_LIMITS.cheapestSlots},
                                         CAST($range_from AS TIMESTAMPTZ), CAST($range_to AS TIMESTAMPTZ)) AS w`;
  const windows = (await step('cheapest windows', () => warehouse.all(`
    SELECT w.tariff_code, w.payment_method, w.rate_type, CAST(w.local_date AS VARCHAR) AS local_date,
           CAST(epoch(w.start - d.day_start) / 1800 + 1 AS INTEGER) AS period,
           w.local_start, w.local_end, ${D('w.mean_inc_vat')} AS mean_inc_vat
    FROM ${windowsFrom}
    JOIN london_days AS d ON d.local_date = w.local_date`, params))).map((w): WindowRow => ({
    key: seriesLabel({ tariff_code: w.tariff_code, payment_method: w.payment_method, rate_type: w.rate_type }), local_date: String(w.local_date), period: Number(w.period),
    local_start: String(w.local_start), local_end: String(w.local_end), mean_inc_vat: Number(w.mean_inc_vat),
  }));
  // Half-hours of the days drawn one by one: the last HTML_LIMITS.days local days of each series.
  const points = await step('half-hours of the days drawn', () => warehouse.all(`
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
      -- said again of rate_slots itself (the join to days says it too late): other tariffs' long
      -- rates are then never expanded to half-hours (the demo: 0.53-0.58 s before, 0.09-0.15 s)
      AND ${inTariffs('s.tariff_code')}
    ORDER BY 1, 2, 3`, params));

  const names = await step('series names', () => seriesNames(warehouse));
  return { daily, months, windows, points, names, ...(costParams ? { costs: await costData(warehouse, costParams, progress) } : {}) };
}

export async function renderHtmlReport(data: HtmlData, logger: Logger, options: HtmlOptions = {}): Promise<HtmlReport> {
  const charts = new ChartRenderer((message) => logger.debug({ message }, 'chart warning'));
  return drawReport(data, logger, async (spec) => {
    // Drawing is JavaScript on the main thread: let waiting I/O (a query that finished) go first.
    await new Promise<void>((resolve) => setImmediate(resolve));
    return charts.render(spec);
  }, options.progress);
}

async function drawReport(data: HtmlData, logger: Logger, renderSvg: (spec: TopLevelSpec) => Promise<string>, progress?: ExportProgress): Promise<HtmlReport> {
  const { daily, months, windows, points, names } = data;
  const windowOf = new Map(windows.map((w) => [`${w.key}|${w.local_date}`, w]));
  const pointsOf = groupBy(points, (p) => `${p.key as string}|${p.local_date as string}`);
  const monthsOf = groupBy(months, seriesLabel);
  const series: PageSeries[] = [];
  const specs: ChartSpecOf[] = [];
  let charts = 0;
  for (const [seriesKey, days] of groupBy(daily, (d) => d.key)) {
    const started = performance.now();
    progress?.working(seriesKey);
    const shownDays = days.slice(-HTML_LIMITS.days).reverse();
    const yDomain = sharedPriceAxis(shownDays);
    const dayCharts: PageChart[] = [];
    for (const day of shownDays) {
      const window = windowOf.get(`${seriesKey}|${day.local_date}`);
      const dayPoints = (pointsOf.get(`${seriesKey}|${day.local_date}`) ?? []).map((p) => ({
        period: p.period as number, price: p.price as number, negative: p.negative === true,
      } satisfies DayPoint));
      const spec = dayChartSpec({
        localDate: day.local_date,
        slotsInDay: day.expected_slots,
        points: dayPoints,
        ...(window ? { cheapest: { period: window.period, slots: HTML_LIMITS.cheapestSlots } } : {}),
        yDomain,
        title: `${day.local_date} (${weekday(day.local_date)})`,
        subtitle: daySubtitle(day, window),
      });
      progress?.working(`${seriesKey}: ${day.local_date}`); // a series' charts take up to ~2 s
      dayCharts.push({ kind: 'day', period: day.local_date, svg: await renderSvg(spec) });
      specs.push({ series: seriesKey, kind: 'day', period: day.local_date, spec });
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
        cheapestMean: windowOf.get(`${seriesKey}|${d.local_date}`)?.mean_inc_vat ?? null,
      }));
      const negatives = monthDays.reduce((n, d) => n + d.negative_slots, 0);
      const spec = monthChartSpec({
        month,
        daysInMonth: daysInMonth(month),
        days: values,
        title: monthName(month),
        yDomain: monthDomain,
        subtitle: [
          `${monthDays.length} day${monthDays.length === 1 ? '' : 's'} · ${negatives} negative half-hour${negatives === 1 ? '' : 's'}`,
          'daily mean, min–max and cheapest 2 h mean (p/kWh inc VAT)',
        ],
      });
      progress?.working(`${seriesKey}: ${month}`);
      monthCharts.push({ kind: 'month', period: month, svg: await renderSvg(spec) });
      specs.push({ series: seriesKey, kind: 'month', period: month, spec });
    }
    const seriesMonths = monthsOf.get(seriesKey) ?? [];
    let history: PageChart | undefined;
    if (seriesMonths.length >= 2) {
      const spec = historyChartSpec({
        months: seriesMonths.map((m) => ({
          month: m.month.slice(0, 7), min: m.min_inc_vat, mean: m.mean_inc_vat, max: m.max_inc_vat, negativeSlots: m.negative_slots,
        })),
        title: 'Every month',
        subtitle: 'monthly mean and min–max (p/kWh inc VAT); ▼ months with negative prices',
      });
      history = { kind: 'history', period: 'all', svg: await renderSvg(spec) };
      specs.push({ series: seriesKey, kind: 'history', period: 'all', spec });
    }
    const page: PageSeries = {
      id: seriesKey.replace(/[^A-Za-z0-9-]+/g, '_'),
      heading: `${seriesKey}${names.has(days[0]!.tariff_code) ? ` — ${names.get(days[0]!.tariff_code)}` : ''}`,
      facts: seriesFacts(days),
      ...(history ? { history } : {}),
      days: dayCharts,
      months: monthCharts,
      monthsNotCharted: Math.max(0, earlier.length - HTML_LIMITS.months),
    };
    series.push(page);
    charts += dayCharts.length + monthCharts.length + (history ? 1 : 0);
    logger.info({ series: seriesKey, charts: dayCharts.length + monthCharts.length + (history ? 1 : 0), ms: Math.round(performance.now() - started) }, 'html: charts rendered');
    progress?.done();
  }
  if (data.costs) {
    const costs = await costPages(await data.costs, renderSvg, names, progress);
    series.push(...costs.pages);
    specs.push(...costs.specs);
    charts += costs.pages.length * 2;
  }
  const html = renderReportPage({
    title: 'Half-hourly electricity prices',
    description: `${series.length} price series; local days ${daily[0]?.local_date ?? '–'} to ${maxDate(daily)} (Europe/London). ` +
      'Prices in p/kWh including VAT. Times are Europe/London wall-clock time; the x axis of a daily chart is elapsed time, so a day when the clocks change is 23 or 25 hours long.',
    limits: `Per series: the last ${HTML_LIMITS.days} local days, one chart for each of at most ${HTML_LIMITS.months} earlier months, and one chart of every month. The full data are in the CSV/Parquet files.`,
    series,
  });
  return { html, charts, specs };
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

function daySubtitle(day: DailyRow, window: WindowRow | undefined): string[] {
  const change = day.expected_slots === 46 ? ' (clocks forward)' : day.expected_slots === 50 ? ' (clocks back)' : '';
  const second = [];
  if (window) second.push(`cheapest 2 h ${window.local_start.slice(11, 16)}–${window.local_end.slice(11, 16)} at ${window.mean_inc_vat.toFixed(2)}`);
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
