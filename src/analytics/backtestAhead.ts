// compare --ahead --backtest (issue 55): the rule replayed over a meter's history. Each past local
// day (tomorrow) or calendar month (30d: the 30 days from its 1st; 12m: the twelve months from it)
// is predicted with compare_ahead as of 17:00 London on its eve (after that day's half-hourly prices
// are published), then priced as it came: the readings that came at the prices that came
// (daily_costs). Per tariff: the mean absolute percentage error of the total; per period: whether
// the tariff predicted cheapest (for export, paying most) was the cheapest.
import { NoDataError } from '../errors.js';
import type { JsRow } from '../store/rowsToJs.js';
import type { Warehouse } from '../store/Warehouse.js';
import { addLocalDays, localDateOf, localDayBounds, parseUserDateTime } from '../time/index.js';
import { compareAhead, type Horizon } from './compareAhead.js';
import type { PaymentMethod } from './costs.js';

export interface BacktestRequest {
  meter: string;
  horizon: Horizon;
  /** Tariffs to price at every eve; undefined = those on sale then. */
  tariffs?: string[];
  region?: string;
  payment: PaymentMethod;
  /** Only periods whose first day lies in [from, to). */
  from?: Date;
  to?: Date;
}

export interface BacktestRow {
  meter_point: string;
  tariff_code: string;
  horizon: Horizon;
  /** Periods with a predicted and an actual total for the tariff. */
  periods: number;
  /** Mean of |predicted - actual| / |actual| over them (0.05 = 5 %). */
  mape_total: number | null;
  /** Times it was predicted cheapest (export: to pay most), and times it was. */
  predicted_first: number;
  actual_first: number;
  /** Over the periods every tariff compared had both totals: how often the predicted first was the actual first. */
  ranked_periods: number;
  first_hit_rate: number | null;
}

/** 17:00 Europe/London on the eve of a local day. */
export function eveOf(localDate: string): Date {
  return parseUserDateTime(`${addLocalDays(localDate, -1)}T17:00`, 'eve');
}

function periodStarts(first: string, last: string, horizon: Horizon): { start: string; days: number }[] {
  const out: { start: string; days: number }[] = [];
  if (horizon === 'tomorrow' || horizon === '7d') {
    const days = horizon === 'tomorrow' ? 1 : 7;
    for (let d = first; addLocalDays(d, days - 1) <= last; d = addLocalDays(d, days)) out.push({ start: d, days });
    return out;
  }
  let month = `${first.slice(0, 7)}-01`;
  if (month < first) month = nextMonth(month);
  for (; ; month = nextMonth(month)) {
    const end = horizon === '30d' ? addLocalDays(month, 30) : addMonths(month, 12);
    if (addLocalDays(end, -1) > last) break;
    out.push({ start: month, days: daysBetween(month, end) });
  }
  return out;
}
const nextMonth = (date: string) => addMonths(date, 1);
function addMonths(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 10);
}
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

export async function backtestAhead(warehouse: Warehouse, request: BacktestRequest): Promise<BacktestRow[]> {
  const [point, serial] = request.meter.split(':');
  const span = (await warehouse.one(`SELECT min(local_date) AS first, max(local_date) AS last, any_value(is_export) AS is_export
    FROM consumption LEFT JOIN meter_points USING (meter_point)
    WHERE meter_point = $point AND ($serial IS NULL OR serial = $serial)`, { point: point ?? request.meter, serial: serial ?? null }))!;
  if (span.first === null) throw new NoDataError(`no consumption stored for meter ${request.meter}: nothing to replay`);
  const exporting = span.is_export === true;
  // the first day with 28 days of history before it, the last day read
  let first = addLocalDays(String(span.first), 28);
  const last = addLocalDays(String(span.last), -1);
  if (request.from && localDateOf(request.from) > first) first = localDateOf(request.from);
  const periods = periodStarts(first, last, request.horizon)
    .filter((p) => request.to === undefined || localDayBounds(p.start).start < request.to!);
  const actualCache = new Map<string, Map<string, number | null>>();
  const actualDays = async (tariff: string): Promise<Map<string, number | null>> => {
    let days = actualCache.get(tariff);
    if (days) return days;
    const rows = await warehouse.all(`SELECT CAST(local_date AS VARCHAR) AS d, CASE WHEN missing_half_hours = 0 THEN total_inc_vat END AS total
      FROM daily_costs($meter, $tariff, CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ), payment := $payment)`, {
      meter: request.meter, tariff, payment: request.payment,
      from: localDayBounds(first).start.toISOString(), to: localDayBounds(addLocalDays(last, 1)).start.toISOString(),
    });
    days = new Map(rows.map((r) => [String(r.d), r.total === null ? null : Number(r.total)]));
    actualCache.set(tariff, days);
    return days;
  };
  const stats = new Map<string, { errors: number[]; predictedFirst: number; actualFirst: number }>();
  let ranked = 0;
  let hits = 0;
  for (const period of periods) {
    let predicted: JsRow[];
    try {
      predicted = await compareAhead(warehouse, {
        meter: request.meter, asOf: eveOf(period.start), horizon: request.horizon, payment: request.payment,
        ...(request.tariffs ? { tariffs: request.tariffs } : {}), ...(request.region ? { region: request.region } : {}),
      });
    } catch (error) {
      if (error instanceof NoDataError) continue;
      throw error;
    }
    const pairs: { tariff: string; predicted: number; actual: number }[] = [];
    let all = true;
    for (const row of predicted) {
      const tariff = String(row.tariff_code);
      const days = await actualDays(tariff);
      let actual: number | null = 0;
      for (let k = 0; k < period.days; k++) {
        const v = days.get(addLocalDays(period.start, k));
        actual = v === undefined || v === null || actual === null ? null : actual + v;
      }
      if (row.total_inc_vat === null || actual === null) { all = false; continue; }
      pairs.push({ tariff, predicted: Number(row.total_inc_vat), actual });
      const s = stats.get(tariff) ?? { errors: [], predictedFirst: 0, actualFirst: 0 };
      stats.set(tariff, s);
      if (actual !== 0) s.errors.push(Math.abs(Number(row.total_inc_vat) - actual) / Math.abs(actual));
    }
    if (!all || pairs.length < 2) continue;
    const best = (key: 'predicted' | 'actual') => pairs.reduce((a, b) => ((exporting ? b[key] > a[key] : b[key] < a[key]) ? b : a));
    const p = best('predicted');
    const a = best('actual');
    stats.get(p.tariff)!.predictedFirst++;
    stats.get(a.tariff)!.actualFirst++;
    ranked++;
    if (p.tariff === a.tariff) hits++;
  }
  return [...stats.entries()].sort(([x], [y]) => (x < y ? -1 : 1)).map(([tariff, s]) => ({
    meter_point: point ?? request.meter, tariff_code: tariff, horizon: request.horizon, periods: s.errors.length,
    mape_total: s.errors.length === 0 ? null : s.errors.reduce((n, e) => n + e, 0) / s.errors.length,
    predicted_first: s.predictedFirst, actual_first: s.actualFirst, ranked_periods: ranked,
    first_hit_rate: ranked === 0 ? null : hits / ranked,
  }));
}
