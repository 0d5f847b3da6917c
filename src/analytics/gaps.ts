// Missing half-hours of half-hourly series, per local day: the gaps view of sql/views.
import type { Warehouse } from '../store/Warehouse.js';
import { localDaysIn } from './localDays.js';
import { checkRange, type Range } from './range.js';
import { requireData } from './requireData.js';

export interface GapsRequest extends Range {
  tariff?: string;
}

export interface GapRow {
  tariff_code: string;
  payment_method: string | null;
  rate_type: string;
  local_date: string;
  /** Half-hours in the local day: 46, 48 or 50. */
  day_slots: number;
  /** The day's half-hours between the series' first stored half-hour and the end of its last. */
  expected_slots: number;
  slots: number;
  missing_slots: number;
}

/** Days with missing half-hours, in order; empty = no gaps. NoDataError for a tariff with no prices. */
/** Days are selected as daily's are: those whose local midnight lies in [from, to). */
export async function gaps(warehouse: Warehouse, request: GapsRequest = {}): Promise<GapRow[]> {
  checkRange(request);
  const { fromDate, toDate } = localDaysIn(request);
  const rows = (await warehouse.all(`
    SELECT * FROM gaps
    WHERE ($tariff IS NULL OR tariff_code = $tariff)
      AND local_date >= coalesce(CAST($from_date AS DATE), DATE '-infinity')
      AND local_date < coalesce(CAST($to_date AS DATE), DATE 'infinity')
    ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, local_date`,
    { tariff: request.tariff ?? null, from_date: fromDate ?? null, to_date: toDate ?? null },
  )) as unknown as GapRow[];
  if (rows.length === 0) await requireData(warehouse, request.tariff);
  return rows;
}
