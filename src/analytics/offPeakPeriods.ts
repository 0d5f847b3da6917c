// The off-peak periods of two- and three-rate tariffs (Go, Intelligent Go, Cosy-like, four-rate
// EV): the off_peak_periods view of sql/views, the periods lying inside a range.
import type { Warehouse } from '../store/Warehouse.js';
import { checkRange, rangeParams, type Range } from './range.js';
import { requireData } from './requireData.js';

export interface OffPeakPeriodsRequest extends Range {
  tariff?: string;
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
  /** Distinct prices of the local day: 2 or 3. */
  day_rates: number;
}

/** Periods inside [from, to), in time order per series; empty when no day has 2-3 prices. */
export async function offPeakPeriods(warehouse: Warehouse, request: OffPeakPeriodsRequest = {}): Promise<OffPeakPeriodRow[]> {
  checkRange(request);
  const rows = await warehouse.all<OffPeakPeriodRow>(`
    SELECT * FROM off_peak_periods
    WHERE ($tariff IS NULL OR tariff_code = $tariff)
      AND start >= coalesce(CAST($from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND "end" <= coalesce(CAST($to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity')
    ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, start`,
    { tariff: request.tariff ?? null, ...rangeParams(request) },
  );
  if (rows.length === 0) await requireData(warehouse, request.tariff, request);
  return rows;
}
