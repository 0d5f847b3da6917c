// What a meter's consumption cost, and what it would have cost: the cost macros of sql/public
// (half_hour_costs, daily_costs, monthly_costs, tariff_comparison, net_costs) with bound
// parameters. The CLI, the exports and the demo call these.
import { NoDataError } from '../errors.js';
import { InvalidRequest, MissingData } from './requestErrors.js';
import type { Query } from '../store/inlineParams.js';
import type { JsRow } from '../store/rowsToJs.js';
import type { Params, Warehouse } from '../store/Warehouse.js';
import { localDateOf, localDayBounds } from '../time/index.js';
import { selectPrices } from './priceSql.js';
import { checkRange, describeRange, rangeParams, type Range } from './range.js';
import type { PaymentMethod } from '../tariffTerms.js';
import { meterOnIog, type DispatchMode } from './dispatchMode.js';

export type CostPeriod = 'half-hour' | 'day' | 'month';
export type { PaymentMethod };

export interface CostRequest extends Range {
  /** 'MPAN' (every serial summed) or 'MPAN:SERIAL'. */
  meter: string;
  /** A tariff code for "what would I have paid"; undefined = the agreements in force. */
  tariff?: string;
  per: CostPeriod;
  payment: PaymentMethod;
  /** kWh and pence rounded to 4 decimals in SQL, as the exports round them (what the CLI prints). */
  rounded?: boolean;
  /** Intelligent Octopus Go dispatches counted (default 'default': completed where known, else
   *  planned for the future); meters on other tariffs are priced without them whatever is asked. */
  dispatches?: DispatchMode;
}

export interface ComparisonRequest extends Range {
  meter: string;
  tariffs: string[];
  payment: PaymentMethod;
  rounded?: boolean;
}

export interface NetRequest extends Range {
  importMeter: string;
  exportMeter: string;
  payment: PaymentMethod;
  rounded?: boolean;
}

const MACRO: Record<CostPeriod, string> = { 'half-hour': 'half_hour_costs', day: 'daily_costs', month: 'monthly_costs' };

export async function costs(warehouse: Warehouse, request: CostRequest): Promise<JsRow[]> {
  return run(warehouse, await costsStatement(warehouse, request));
}

/** costs' statement and its values, after its checks (what `tariffs cost --print-sql` prints). */
export async function costsStatement(warehouse: Warehouse, request: CostRequest): Promise<Query> {
  await requireConsumption(warehouse, request.meter, request);
  if (request.tariff !== undefined) await requireTariffs(warehouse, request.meter, [request.tariff]);
  const dispatches = await dispatchesFor(warehouse, request.meter, request.dispatches);
  return statement(warehouse, `${MACRO[request.per]}($meter, $tariff, $from, $to, payment := $payment, dispatches := $dispatches)`, {
    meter: request.meter, tariff: request.tariff ?? null, payment: request.payment, dispatches, ...rangeParams(request),
  }, request.rounded);
}

export async function tariffComparison(warehouse: Warehouse, request: ComparisonRequest): Promise<JsRow[]> {
  return run(warehouse, await tariffComparisonStatement(warehouse, request));
}

/** tariffComparison's statement and its values, after its checks (`tariffs compare --print-sql`). */
export async function tariffComparisonStatement(warehouse: Warehouse, request: ComparisonRequest): Promise<Query> {
  if (request.tariffs.length === 0) throw new InvalidRequest('tariffs', (w) => `${w.field('tariffs')}: name at least one tariff to compare with`);
  await requireConsumption(warehouse, request.meter, request);
  await requireTariffs(warehouse, request.meter, request.tariffs);
  return statement(warehouse, 'tariff_comparison($meter, CAST($tariffs AS VARCHAR[]), $from, $to, payment := $payment, dispatches := $dispatches)', {
    meter: request.meter, tariffs: JSON.stringify(request.tariffs), payment: request.payment,
    dispatches: await dispatchesFor(warehouse, request.meter), ...rangeParams(request),
  }, request.rounded);
}

export async function netCosts(warehouse: Warehouse, request: NetRequest): Promise<JsRow[]> {
  return run(warehouse, await netCostsStatement(warehouse, request));
}

/** netCosts' statement and its values, after its checks (`tariffs cost --export-meter --print-sql`). */
export async function netCostsStatement(warehouse: Warehouse, request: NetRequest): Promise<Query> {
  await requireConsumption(warehouse, request.importMeter, request);
  await requireConsumption(warehouse, request.exportMeter, request);
  const sides = await warehouse.all(`
    SELECT meter_point, is_export FROM meter_points WHERE meter_point IN (split_part($imp, ':', 1), split_part($exp, ':', 1))`,
  { imp: request.importMeter, exp: request.exportMeter });
  const wrong = sides.flatMap((side) => {
    const asked = side.meter_point === request.exportMeter.split(':')[0] ? 'exportMeter' as const : 'importMeter' as const;
    return (asked === 'exportMeter') === side.is_export ? [] : [{ asked, meter: String(side.meter_point), is: side.is_export ? 'export' : 'import' }];
  });
  if (wrong.length > 0) {
    throw new InvalidRequest(wrong[0]!.asked, (w) => `${wrong.map((x) => `${w.field(x.asked)}: meter ${x.meter} is an ${x.is} meter`).sort().join('; ')}; ` +
      `the net is an import meter (${w.field('importMeter')}) less an export meter (${w.field('exportMeter')})`);
  }
  return statement(warehouse, 'net_costs($imp, $exp, $from, $to, payment := $payment)', {
    imp: request.importMeter, exp: request.exportMeter, payment: request.payment, ...rangeParams(request),
  }, request.rounded);
}

async function run(warehouse: Warehouse, query: Query): Promise<JsRow[]> {
  return warehouse.all(query.sql, query.params);
}

/** The dispatches a meter's costs count: 'none' for a meter without an Intelligent Octopus Go
 *  agreement (the same prices; DuckDB then skips the search for dispatch-adjusted rates), else the
 *  mode asked for (default 'default'). */
export async function dispatchesFor(warehouse: Warehouse, meter: string, asked?: DispatchMode): Promise<DispatchMode> {
  return (await meterOnIog(warehouse, meter)) ? asked ?? 'default' : 'none';
}

/** kWh and pence columns: sums of doubles, which carry last-bit noise (4121.885999999998). */
const ROUNDED_COLUMN = /(^|_)kwh$|_(inc|exc)_vat$/;

/** Every column of a table macro's rows; with `rounded`, kWh and pence to 4 decimals in SQL. */
async function statement(warehouse: Warehouse, call: string, params: Query['params'], rounded: boolean | undefined): Promise<Query> {
  return { sql: await selectSql(warehouse, call, params, rounded), params };
}

/** select's statement: with `rounded`, the columns to round read off a run without rows (a macro's
 *  columns are typed only once it is given its arguments' values). */
export async function selectSql(warehouse: Warehouse, call: string, params: Params, rounded: boolean | undefined): Promise<string> {
  if (!rounded) return `SELECT * FROM ${call}`;
  const reader = await warehouse.reader(`SELECT * FROM ${call} LIMIT 0`, params);
  const columns = reader.columnNames().filter((c) => ROUNDED_COLUMN.test(c));
  return `SELECT ${selectPrices(columns, true)} FROM ${call}`;
}

/** The last `months` complete Europe/London calendar months before `now`. */
export function lastCompleteMonths(now: Date, months = 12): Required<Range> {
  const [y, m] = localDateOf(now).split('-').map(Number) as [number, number];
  const first = (year: number, month: number) => {
    const d = new Date(Date.UTC(year, month - 1, 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`;
  };
  return { from: localDayBounds(first(y, m - months)).start, to: localDayBounds(first(y, m)).start };
}

/** A tariff without a single stored price is unknown here: exit 1 naming it, never a total of 0.00.
 *  (A known tariff without prices in the range is answered: its half-hours are missing_prices.)
 *  A tariff of another fuel or direction than the meter's (tariff_mismatch in SQL): exit 2. */
async function requireTariffs(warehouse: Warehouse, meter: string, tariffs: readonly string[]): Promise<void> {
  const mismatches = await warehouse.all(`
    SELECT tariff_mismatch($meter, t.code) AS why FROM (SELECT unnest(CAST($tariffs AS VARCHAR[])) AS code) AS t
    WHERE tariff_mismatch($meter, t.code) IS NOT NULL`, { meter, tariffs: JSON.stringify(tariffs) });
  if (mismatches.length > 0) {
    throw new InvalidRequest('tariffs', (w) => `${w.field('tariffs')}: ${mismatches.map((m) => String(m.why)).join('; ')}: ` +
      'a meter is priced only at tariffs of its fuel and direction');
  }
  const rows = await warehouse.all(`
    SELECT t.code FROM (SELECT unnest(CAST($tariffs AS VARCHAR[])) AS code) AS t
    WHERE NOT EXISTS (SELECT 1 FROM unit_rates AS u WHERE u.tariff_code = t.code)`, { tariffs: JSON.stringify(tariffs) });
  if (rows.length > 0) {
    const codes = rows.map((r) => String(r.code));
    throw new MissingData((w) => `no prices stored for tariff ${codes.join(', tariff ')}${w.advice('storeTariff')}`);
  }
}

async function requireConsumption(warehouse: Warehouse, meter: string, range: Range): Promise<void> {
  checkRange(range); // from after to is a usage error, as in every other question, not "no consumption"
  const [point, serial] = meter.split(':');
  const row = (await warehouse.one(`
    SELECT count(*) AS stored,
           count(*) FILTER (WHERE interval_start >= coalesce(CAST($from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
                              AND interval_start < coalesce(CAST($to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity')) AS in_range,
           min(interval_start) AS first_start, max(interval_end) AS last_end
    FROM consumption WHERE meter_point = $point AND ($serial IS NULL OR serial = $serial)`,
  { point: point ?? meter, serial: serial ?? null, ...rangeParams(range) }))!;
  if (row.stored === 0) {
    throw new MissingData((w) => `no consumption stored for meter ${meter}${w.advice('storeMeterReadings')}`);
  }
  if (row.in_range === 0) {
    throw new NoDataError(`no consumption for meter ${meter} ${describeRange(range)} (stored: ${String(row.first_start)} to ${String(row.last_end)})`);
  }
}
