// Which tariff from here (issue 55): compare_ahead of sql/public with bound values, and the
// refusals that name why (no readings by --as-of; no expected use for a day type the horizon has).
import { NoDataError } from '../errors.js';
import { MissingData } from './requestErrors.js';
import type { JsRow } from '../store/rowsToJs.js';
import type { Warehouse } from '../store/Warehouse.js';
import type { Query } from '../store/inlineParams.js';
import type { PaymentMethod } from './costs.js';
import { selectSql } from './costs.js';

export const HORIZONS = ['tomorrow', '7d', '30d', '12m'] as const;
export type Horizon = (typeof HORIZONS)[number];

export interface AheadRequest {
  /** 'MPAN' (its serials summed) or 'MPAN:SERIAL'. */
  meter: string;
  /** Readings ending by it, prices published by it. */
  asOf: Date;
  horizon: Horizon;
  /** Tariff codes to price; undefined = tariffs_on_sale. The current agreement is always priced. */
  tariffs?: string[];
  /** Region letter for tariffs_on_sale; undefined = the meter's agreements'. */
  region?: string;
  payment: PaymentMethod;
  rounded?: boolean;
}

/** The statement compare --ahead runs, with its bound values. */
export function compareAheadCall(request: AheadRequest): { call: string; params: Record<string, string | null> } {
  return {
    call: 'compare_ahead($meter, CAST($as_of AS TIMESTAMPTZ), $horizon, tariffs := CAST($tariffs AS VARCHAR[]), ' +
      'region := $region, payment := $payment)',
    params: {
      meter: request.meter, as_of: request.asOf.toISOString(), horizon: request.horizon,
      tariffs: request.tariffs === undefined || request.tariffs.length === 0 ? null : JSON.stringify(request.tariffs),
      region: request.region ?? null, payment: request.payment,
    },
  };
}

/** The statement compare --ahead runs for one meter (what `--print-sql` prints). */
export async function compareAheadStatement(warehouse: Warehouse, request: AheadRequest): Promise<Query> {
  const { call, params } = compareAheadCall(request);
  return { sql: await selectSql(warehouse, call, params, request.rounded), params };
}

/** The meter points with a reading ending by `asOf` (compare --ahead --all-meters). */
export async function metersReadBy(warehouse: Warehouse, asOf: Date): Promise<string[]> {
  const rows = await warehouse.all<{ meter_point: string }>(`SELECT DISTINCT meter_point FROM consumption
    WHERE interval_end <= CAST($as_of AS TIMESTAMPTZ) ORDER BY meter_point`, { as_of: asOf.toISOString() });
  return rows.map((r) => r.meter_point);
}

/** When a meter's stored readings end (null: none): the instant the page's "from here" asks as of. */
export async function readingsEnd(warehouse: Warehouse, meterPoint: string): Promise<Date | null> {
  const row = await warehouse.one('SELECT max(interval_end) AS until FROM consumption WHERE meter_point = $mp', { mp: meterPoint });
  return row?.until ? new Date(String(row.until)) : null;
}

export async function compareAhead(warehouse: Warehouse, request: AheadRequest): Promise<JsRow[]> {
  const [point, serial] = request.meter.split(':');
  const read = (await warehouse.one(`SELECT count(*) AS n FROM consumption
    WHERE meter_point = $point AND ($serial IS NULL OR serial = $serial) AND interval_end <= CAST($as_of AS TIMESTAMPTZ)`,
  { point: point ?? request.meter, serial: serial ?? null, as_of: request.asOf.toISOString() }))!;
  if (Number(read.n) === 0) {
    throw new NoDataError(`no consumption stored for meter ${request.meter} ending by ${request.asOf.toISOString()}: ` +
      'the expected use (expected_use) rests on its readings');
  }
  const query = await compareAheadStatement(warehouse, request);
  const rows = await warehouse.all(query.sql, query.params);
  const first = rows[0];
  if (first && rows.every((r) => Number(r.missing_half_hours) > 0)) {
    const lacking = [Number(first.weekdays) === 0 ? 'weekday' : '', Number(first.weekend_days) === 0 ? 'weekend day' : ''].filter((x) => x);
    if (lacking.length > 0) {
      const days = `${lacking.join(' and no complete ')}`;
      throw new MissingData((w) => `meter ${request.meter} has no complete ${days} (all its half-hours read) ` +
        `among the 28 local days before ${String(first.horizon_from)}, so no expected use for the ${request.horizon} ahead ` +
        `(expected_use; docs/decisions/expected-use.md): a shorter ${w.field('horizon')}, or an ${w.field('asOf')} with more history, has one`);
    }
  }
  return rows;
}
