// Every meter's costs at once: the portfolio macros of sql/public (portfolio_daily_costs,
// portfolio_monthly_costs, portfolio_comparison) over batches of meter points, one row per meter
// and scenario (and day or month), meter_point first. `tariffs cost|compare --all-meters` call these.
import { listValue } from '@duckdb/node-api';
import { InvalidRequest, MissingData } from './requestErrors.js';
import type { Query } from '../store/inlineParams.js';
import type { JsRow } from '../store/rowsToJs.js';
import type { Warehouse } from '../store/Warehouse.js';
import { selectSql, type PaymentMethod } from './costs.js';
import type { DispatchMode } from './dispatchMode.js';
import { checkRange, describeRange, rangeParams, type Range } from './range.js';

export interface PortfolioRequest extends Range {
  /** Tariffs compared (compare) or the one priced (cost; none: the agreements in force). */
  tariffs: string[];
  payment: PaymentMethod;
  dispatches?: DispatchMode;
  rounded?: boolean;
  /** Meter points a statement prices at once (memory stays bounded by a batch). */
  batch?: number;
  /** Told the number of meter points, then each batch done. */
  progress?: { expect(meters: number): void; done(meters: number): void };
}

export type PortfolioQuestion = 'day' | 'month' | 'compare';

export interface PortfolioAnswer {
  rows: JsRow[];
  /** Tariff and meter pairs left out: the tariff is of another fuel or direction (tariff_mismatch). */
  skipped: { meter_point: string; tariff: string; why: string }[];
}

const BATCH = 250;

/** The one statement of a portfolio question, for every meter point with consumption in the
 *  range (`meters`, in order; portfolioCosts runs it a batch of them at a time, binding $meters). */
export interface PortfolioStatement {
  query: Query;
  meters: string[];
  skipped: PortfolioAnswer['skipped'];
}

/** The rows of every meter point with consumption in the range. */
export async function portfolioCosts(warehouse: Warehouse, question: PortfolioQuestion, request: PortfolioRequest): Promise<PortfolioAnswer> {
  const rows: JsRow[] = [];
  const size = request.batch ?? BATCH;
  // DuckDB's estimates of the priced half-hours shrink to a few rows through the macros' CTEs, and
  // it would then build the price join's hash table on every meter's half-hours rather than on the
  // prices: here each join builds on the side the macros write second (the smaller).
  await warehouse.run(`SET disabled_optimizers = 'build_side_probe_side'`);
  try {
    const { query, meters, skipped } = await portfolioStatement(warehouse, question, request);
    request.progress?.expect(meters.length);
    // one statement, prepared once and run for each batch of meter points
    const statement = await warehouse.prepare(query.sql);
    try {
      for (let i = 0; i < meters.length; i += size) {
        const batch = meters.slice(i, i + size);
        rows.push(...await statement.all({ ...query.params, meters: listValue(batch) }));
        request.progress?.done(batch.length);
      }
    } finally {
      statement.close();
    }
    return { rows, skipped };
  } finally {
    await warehouse.run('RESET disabled_optimizers');
  }
}

/** portfolioCosts' statement, after its checks, with every meter point in $meters (what
 *  `tariffs cost|compare --all-meters --print-sql` prints). */
export async function portfolioStatement(warehouse: Warehouse, question: PortfolioQuestion, request: PortfolioRequest): Promise<PortfolioStatement> {
  checkRange(request);
  const range = rangeParams(request);
  const meters = (await warehouse.all(`
    SELECT DISTINCT meter_point FROM consumption
    WHERE interval_start >= coalesce(CAST($from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND interval_start < coalesce(CAST($to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity')
    ORDER BY meter_point`, range)).map((r) => String(r.meter_point));
  if (meters.length === 0) {
    const range = describeRange(request);
    throw new MissingData((w) => `no consumption stored ${range}${w.advice('storeReadings')}`);
  }
  const skipped = await requirePortfolioTariffs(warehouse, meters, request.tariffs);
  const scenarios = question === 'compare' ? request.tariffs : [request.tariffs[0] ?? 'actual'];
  const call = question === 'compare'
    ? 'portfolio_comparison(CAST($scenarios AS VARCHAR[]), CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ), meters := CAST($meters AS VARCHAR[]), payment := $payment, dispatches := $dispatches, mismatches := \'skip\')'
    : `${question === 'day' ? 'portfolio_daily_costs' : 'portfolio_monthly_costs'}(CAST($scenarios AS VARCHAR[]), CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ), meters := CAST($meters AS VARCHAR[]), payment := $payment, dispatches := $dispatches, mismatches := 'skip')`;
  const order = question === 'compare'
    ? 'ORDER BY meter_point, scenario <> \'actual\', list_position(CAST($scenarios AS VARCHAR[]), scenario)'
    : `ORDER BY meter_point, scenario, ${question === 'day' ? 'local_date' : 'month'}`;
  const params = {
    scenarios: listValue(scenarios), meters: listValue(meters), payment: request.payment,
    dispatches: request.dispatches ?? 'default', ...range,
  };
  const relation = `(SELECT * FROM ${call} ${order})`;
  // the columns to round read off a run of the first batch (they do not depend on the meters)
  const probe = { ...params, meters: listValue(meters.slice(0, request.batch ?? BATCH)) };
  return { query: { sql: await selectSql(warehouse, relation, probe, request.rounded), params }, meters, skipped };
}

/** A tariff without a single stored price is unknown (exit 1); one that fits none of the meters
 *  (another fuel or direction: tariff_mismatch) is refused (exit 2); the pairs that do not fit are
 *  returned, to be said and left out. */
async function requirePortfolioTariffs(warehouse: Warehouse, meters: string[], tariffs: string[]): Promise<PortfolioAnswer['skipped']> {
  if (tariffs.length === 0) return [];
  const unknown = await warehouse.all(`
    SELECT t.code FROM (SELECT unnest(CAST($tariffs AS VARCHAR[])) AS code) AS t
    WHERE NOT EXISTS (SELECT 1 FROM unit_rates AS u WHERE u.tariff_code = t.code)`, { tariffs: listValue(tariffs) });
  if (unknown.length > 0) {
    const codes = unknown.map((r) => String(r.code)).join(', tariff ');
    throw new MissingData((w) => `no prices stored for tariff ${codes}${w.advice('storeTariff')}`);
  }
  const pairs = await warehouse.all(`
    SELECT m.mp AS meter_point, t.code AS tariff, tariff_mismatch(m.mp, t.code) AS why
    FROM (SELECT unnest(CAST($meters AS VARCHAR[])) AS mp) AS m, (SELECT unnest(CAST($tariffs AS VARCHAR[])) AS code) AS t
    ORDER BY m.mp, list_position(CAST($tariffs AS VARCHAR[]), t.code)`, { meters: listValue(meters), tariffs: listValue(tariffs) });
  const fitsNone = tariffs.filter((t) => pairs.every((p) => p.tariff !== t || p.why !== null));
  if (fitsNone.length > 0) {
    const why = pairs.find((p) => p.tariff === fitsNone[0])!.why;
    throw new InvalidRequest('tariffs', (w) => `${w.field('tariffs')}: ${fitsNone.join(', ')} fits none of the ${meters.length} meters (${String(why)}): ` +
      'a meter is priced only at tariffs of its fuel and direction');
  }
  return pairs.filter((p) => p.why !== null).map((p) => ({ meter_point: String(p.meter_point), tariff: String(p.tariff), why: String(p.why) }));
}
