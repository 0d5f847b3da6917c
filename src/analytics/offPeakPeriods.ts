// The off-peak periods of two- and three-rate tariffs (Go, Intelligent Go, Cosy-like, four-rate
// EV): the off_peak_periods view of sql/public, the periods lying inside a range.
import type { Query } from '../store/inlineParams.js';
import type { Warehouse } from '../store/Warehouse.js';
import { checkRange, rangeParams, type Range } from './range.js';
import { requireData } from './requireData.js';
import type { DispatchMode } from './dispatchMode.js';

export interface OffPeakPeriodsRequest extends Range {
  tariff?: string;
  /** Include the half-hours only a dispatch made off-peak (accounts on Intelligent Octopus Go),
   *  counting these dispatches (issue 28); undefined: the tariffs' own periods. */
  dispatches?: DispatchMode;
}

export interface OffPeakPeriodRow {
  tariff_code: string;
  payment_method: string | null;
  rate_type: string;
  local_date: string;
  start: string;
  end: string;
  local_start: string;
  local_end: string;
  slots: number;
  value_inc_vat: number;
  value_exc_vat: number;
  /** Distinct prices of the local day: 2 or 3 (not with dispatches). */
  day_rates?: number;
  /** With dispatches: the account, the half-hours only a dispatch made off-peak, whether it may change. */
  account_number?: string;
  dispatch_slots?: number;
  provisional?: boolean;
  dispatches?: string;
}

/** Periods inside [from, to), in time order per series; empty when no day has 2-3 prices. */
export async function offPeakPeriods(warehouse: Warehouse, request: OffPeakPeriodsRequest = {}): Promise<OffPeakPeriodRow[]> {
  const { sql, params } = offPeakPeriodsStatement(request);
  const rows = await warehouse.all<OffPeakPeriodRow>(sql, params);
  if (rows.length === 0) await requireData(warehouse, request.tariff, request);
  return rows;
}

/** offPeakPeriods' statement and its values (what `tariffs off-peak --print-sql` prints). */
export function offPeakPeriodsStatement(request: OffPeakPeriodsRequest = {}): Query {
  checkRange(request);
  const source = request.dispatches === undefined ? 'off_peak_periods' : 'off_peak_periods_with($dispatches)';
  return {
    sql: `
    SELECT * FROM ${source}
    WHERE ($tariff IS NULL OR tariff_code = $tariff)
      AND start >= coalesce(CAST($from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND "end" <= coalesce(CAST($to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity')
    ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, start${request.dispatches === undefined ? '' : ', account_number'}`,
    params: { tariff: request.tariff ?? null, ...rangeParams(request), ...(request.dispatches === undefined ? {} : { dispatches: request.dispatches }) },
  };
}
