// Missing half-hours of half-hourly series, per local day: the gaps view of sql/public.
import type { Query } from '../store/inlineParams.js';
import type { Warehouse } from '../store/Warehouse.js';
import { seriesOf } from './dailyStats.js';
import { checkRange, type Range } from './range.js';
import { requireData } from './requireData.js';
import { inLocalDays, inTariffs, localDayParams, tariffsParam } from './scopeSql.js';

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
  const { sql, params } = gapsStatement(request);
  const rows = await warehouse.all(sql, params);
  if (rows.length === 0) await requireData(warehouse, request.tariff);
  return rows.map((row) => ({
    ...seriesOf(row),
    local_date: String(row.local_date),
    day_slots: Number(row.day_slots),
    expected_slots: Number(row.expected_slots),
    slots: Number(row.slots),
    missing_slots: Number(row.missing_slots),
  }));
}

/** gaps' statement and its values (what `tariffs gaps --print-sql` prints): the columns gaps gives. */
export function gapsStatement(request: GapsRequest = {}): Query {
  checkRange(request);
  return {
    sql: `
    SELECT tariff_code, payment_method, rate_type, local_date, day_slots, expected_slots, slots, missing_slots
    FROM gaps
    WHERE ${inTariffs('tariff_code')} AND ${inLocalDays('local_date')}
    ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, local_date`,
    params: { tariffs: tariffsParam(request), ...localDayParams(request) },
  };
}

/** Missing half-hours per tariff (all its series) over the local days whose midnight lies in
 *  [from, to): the gaps view summed, for `tariffs status`. A tariff without gaps is absent. */
export async function missingSlotsByTariff(warehouse: Warehouse, range: Range): Promise<Map<string, number>> {
  checkRange(range);
  const rows = await warehouse.all(`
    SELECT tariff_code, sum(missing_slots) AS missing
    FROM gaps
    WHERE ${inLocalDays('local_date')}
    GROUP BY tariff_code`, localDayParams(range));
  return new Map(rows.map((r) => [String(r.tariff_code), Number(r.missing)]));
}
