// Vega-Lite specs of the HTML report's charts: one local day (price curve, negative slots, cheapest
// window), one month (daily range, mean and cheapest window) and a series' whole history by month.
// Pure functions of the rows the report queries; x positions never depend on the machine's zone.
import { localDayBounds, utcOffsetMinutes } from '../../time/index.js';
import type { ChartLayer, TopLevelSpec } from './renderSvg.js';

/** One meaning per colour across the page: the price charts' colours, and the cost charts' own
 *  (the agreements, daily consumption, SCENARIO_COLORS), none shared. */
export const COLORS = {
  price: '#1f77b4',
  range: '#aec7e8',
  negative: '#d62728',
  cheapest: '#2ca02c',
  /** An export tariff's marked window: its highest-priced 2 hours, the best time to export. */
  dearest: '#ff7f0e',
  /** The agreements' bars in a cost chart (what was paid). */
  agreements: '#4d4d4d',
  /** Daily consumption bars. */
  consumption: '#c7c7c7',
} as const;

/** The compared tariffs' bars in the cost charts and their swatches in the household's tables,
 *  one per tariff (in the order of the page's compared tariffs): none is a colour of COLORS. */
export const SCENARIO_COLORS = ['#9467bd', '#8c564b', '#e377c2', '#bcbd22', '#393b79', '#8c6d31', '#843c39', '#7b4173'] as const;

const WIDTH = 470;
const HEIGHT = 170;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** One half-hour of a local day: settlement period 1..46/48/50 and its price (p/kWh inc VAT). */
export interface DayPoint {
  period: number;
  price: number;
  negative: boolean;
}

export interface DayChartInput {
  localDate: string;
  /** Half-hours in the local day (46, 48 or 50). */
  slotsInDay: number;
  points: DayPoint[];
  /** The window marked: first period and number of half-hours; the cheapest, or with `highest`
   *  (an export tariff) the dearest. */
  cheapest?: { period: number; slots: number; highest?: boolean };
  /** The price axis, shared by every day chart of a series so that neighbouring days compare. */
  yDomain?: [number, number];
  title: string;
  /** One string per line (a long single line would widen the chart). */
  subtitle?: string | string[];
}

export interface MonthDay {
  day: number;
  min: number;
  mean: number;
  max: number;
  negativeSlots: number;
  cheapestMean: number | null;
}

export interface MonthChartInput {
  /** YYYY-MM */
  month: string;
  daysInMonth: number;
  days: MonthDay[];
  title: string;
  /** One string per line (a long single line would widen the chart). */
  subtitle?: string | string[];
  /** The price axis every month chart of the series shares (sharedPriceAxis of their days). */
  yDomain?: [number, number] | undefined;
  /** cheapestMean is the dearest window's mean (an export tariff). */
  highest?: boolean;
}

export interface HistoryMonth {
  /** YYYY-MM */
  month: string;
  min: number;
  mean: number;
  max: number;
  negativeSlots: number;
}

export interface HistoryChartInput {
  months: HistoryMonth[];
  title: string;
  /** One string per line (a long single line would widen the chart). */
  subtitle?: string | string[];
}

/**
 * Hours elapsed since local midnight at which the wall clock shows 00:00, 03:00, … 24:00: the x
 * axis counts real (elapsed) time, so a 46- or 50-half-hour day is shorter or longer, and the
 * labels still read as wall time (on the day clocks go forward 03:00 is 2 h after midnight).
 */
export function wallClockTicks(localDate: string): { values: number[]; labels: string[] } {
  const { start } = localDayBounds(localDate);
  const startOffset = utcOffsetMinutes(start);
  const values: number[] = [];
  const labels: string[] = [];
  for (let hour = 0; hour <= 24; hour += 3) {
    let t = start.getTime() + hour * 3_600_000;
    t -= (utcOffsetMinutes(new Date(t)) - startOffset) * 60_000;
    values.push((t - start.getTime()) / 3_600_000);
    labels.push(`${String(hour).padStart(2, '0')}:00`);
  }
  return { values, labels };
}

/** A Vega expression mapping each tick value to its label (nested conditionals: no lookups needed). */
function labelExpression(values: number[], labels: string[]): string {
  return values.reduceRight(
    (otherwise, value, i) => `datum.value == ${value} ? '${labels[i]}' : ${otherwise}`,
    "''",
  );
}

function baseConfig() {
  return {
    font: FONT,
    view: { stroke: '#ddd' },
    // No text below 11 px: charts are read on phones too.
    axis: { labelFontSize: 11, titleFontSize: 11, gridColor: '#eee' },
    title: { fontSize: 13, subtitleFontSize: 11, anchor: 'start' as const, subtitleColor: '#555' },
    legend: { labelFontSize: 11, titleFontSize: 11 },
    text: { fontSize: 11 },
  };
}

function titleOf(title: string, subtitle: string | string[] | undefined) {
  return subtitle === undefined ? { text: title } : { text: title, subtitle };
}

export function dayChartSpec(input: DayChartInput): TopLevelSpec {
  const hours = input.slotsInDay / 2;
  const byPeriod = new Map(input.points.map((p) => [p.period, p]));
  // Each half-hour is a flat segment from its start to its end (so consecutive prices join with a
  // vertical step); a half-hour with no price becomes a null row, where the line breaks.
  const line: { i: number; h: number; p: number | null }[] = [];
  for (let period = 1; period <= input.slotsInDay; period++) {
    const price = byPeriod.get(period)?.price;
    const h = (period - 1) / 2;
    if (price === undefined) line.push({ i: line.length, h: h + 0.25, p: null });
    else line.push({ i: line.length, h, p: price }, { i: line.length + 1, h: h + 0.5, p: price });
  }
  const negatives = input.points.filter((p) => p.negative).map((p) => ({ h: (p.period - 1) / 2, h2: p.period / 2, p: p.price }));
  const ticks = wallClockTicks(input.localDate);
  const x = {
    type: 'quantitative' as const,
    scale: { domain: [0, hours], nice: false, zero: false },
    axis: { values: ticks.values, labelExpr: labelExpression(ticks.values, ticks.labels), title: null, grid: true },
  };
  const layers: ChartLayer[] = [];
  if (input.cheapest) {
    const from = (input.cheapest.period - 1) / 2;
    layers.push({
      data: { values: [{ h: from, h2: from + input.cheapest.slots / 2 }] },
      mark: { type: 'rect', color: input.cheapest.highest ? COLORS.dearest : COLORS.cheapest, opacity: 0.18 },
      encoding: { x: { field: 'h', ...x }, x2: { field: 'h2' } },
    });
  }
  layers.push({
    data: { values: [{ y: 0 }] },
    mark: { type: 'rule', color: '#999', strokeWidth: 0.5 },
    encoding: { y: { field: 'y', type: 'quantitative' } },
  });
  if (negatives.length > 0) {
    layers.push({
      data: { values: negatives },
      mark: { type: 'rect', color: COLORS.negative, opacity: 0.75 },
      encoding: { x: { field: 'h', ...x }, x2: { field: 'h2' }, y: { field: 'p', type: 'quantitative' }, y2: { datum: 0 } },
    });
  }
  layers.push({
    data: { values: line },
    mark: { type: 'line', color: COLORS.price, strokeWidth: 1.5, invalid: 'break-paths-filter-domains' },
    encoding: {
      x: { field: 'h', ...x },
      order: { field: 'i', type: 'quantitative' },
      y: { field: 'p', type: 'quantitative', title: 'p/kWh inc VAT', scale: input.yDomain ? { domain: input.yDomain, nice: false, zero: false } : { zero: false } },
    },
  });
  return {
    width: WIDTH,
    height: HEIGHT,
    title: titleOf(input.title, input.subtitle),
    config: baseConfig(),
    layer: layers,
  };
}

export function monthChartSpec(input: MonthChartInput): TopLevelSpec {
  const x = {
    field: 'day',
    type: 'quantitative' as const,
    scale: { domain: [1, input.daysInMonth], nice: false, zero: false },
    axis: { values: [1, 5, 10, 15, 20, 25, input.daysInMonth], format: 'd', title: `day of ${input.month}` },
  };
  const negatives = input.days.filter((d) => d.negativeSlots > 0);
  const cheapest = input.days.filter((d) => d.cheapestMean !== null);
  const layers: ChartLayer[] = [
    {
      data: { values: input.days },
      mark: { type: 'area', color: COLORS.range, opacity: 0.6 },
      encoding: {
        x,
        y: { field: 'min', type: 'quantitative', title: 'p/kWh inc VAT', ...(input.yDomain ? { scale: { domain: input.yDomain, nice: false, zero: false } } : {}) },
        y2: { field: 'max' },
      },
    },
    {
      data: { values: [{ y: 0 }] },
      mark: { type: 'rule', color: '#999', strokeWidth: 0.5 },
      encoding: { y: { field: 'y', type: 'quantitative' } },
    },
    {
      data: { values: input.days },
      mark: { type: 'line', color: COLORS.price, strokeWidth: 1.5, point: { size: 12, color: COLORS.price } },
      encoding: { x, y: { field: 'mean', type: 'quantitative' } },
    },
  ];
  if (cheapest.length > 0) {
    layers.push({
      data: { values: cheapest },
      mark: { type: 'line', color: input.highest ? COLORS.dearest : COLORS.cheapest, strokeWidth: 1.5, strokeDash: [4, 2] },
      encoding: { x, y: { field: 'cheapestMean', type: 'quantitative' } },
    });
  }
  if (negatives.length > 0) {
    layers.push({
      data: { values: negatives },
      mark: { type: 'point', shape: 'triangle-down', filled: true, color: COLORS.negative, size: 40 },
      encoding: { x, y: { field: 'min', type: 'quantitative' } },
    });
  }
  return {
    width: WIDTH,
    height: HEIGHT,
    title: titleOf(input.title, input.subtitle),
    config: baseConfig(),
    layer: layers,
  };
}

export function historyChartSpec(input: HistoryChartInput): TopLevelSpec {
  // Months as UTC dates: the axis is laid out in UTC whatever the machine's zone.
  const values = input.months.map((m) => ({ ...m, t: `${m.month}-01` }));
  const x = {
    field: 't',
    type: 'temporal' as const,
    timeUnit: 'utcyearmonth' as const,
    axis: { title: null, format: '%b %Y', labelAngle: 0, tickCount: 8 },
  };
  const negatives = values.filter((m) => m.negativeSlots > 0);
  const layers: ChartLayer[] = [
    {
      data: { values },
      mark: { type: 'area', color: COLORS.range, opacity: 0.6 },
      encoding: { x, y: { field: 'min', type: 'quantitative', title: 'p/kWh inc VAT' }, y2: { field: 'max' } },
    },
    {
      data: { values: [{ y: 0 }] },
      mark: { type: 'rule', color: '#999', strokeWidth: 0.5 },
      encoding: { y: { field: 'y', type: 'quantitative' } },
    },
    {
      data: { values },
      mark: { type: 'line', color: COLORS.price, strokeWidth: 1.5 },
      encoding: { x, y: { field: 'mean', type: 'quantitative' } },
    },
  ];
  if (negatives.length > 0) {
    layers.push({
      data: { values: negatives },
      mark: { type: 'point', shape: 'triangle-down', filled: true, color: COLORS.negative, size: 40 },
      encoding: { x, y: { field: 'min', type: 'quantitative' } },
    });
  }
  return {
    width: WIDTH * 2 + 40,
    height: HEIGHT,
    title: titleOf(input.title, input.subtitle),
    config: baseConfig(),
    layer: layers,
  };
}
