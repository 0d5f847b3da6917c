// When the price was negative: the half-hours of the negative_slots view of sql/public inside a
// range, with their Europe/London wall times.
import type { Query } from '../store/inlineParams.js';
import type { Warehouse } from '../store/Warehouse.js';
import { checkRange, rangeParams, type Range } from './range.js';
import { priceDoubleSql } from './priceSql.js';
import { requireData } from './requireData.js';

export interface NegativeSlotsRequest extends Range {
  tariff?: string;
  /** Prices rounded to 4 decimals in SQL, as the exports round them (what the CLI prints). */
  rounded?: boolean;
}

export interface NegativeSlotRow {
  tariff_code: string;
  payment_method: string | null;
  rate_type: string;
  local_date: string;
  settlement_period: number;
  start: string;
  end: string;
  local_start: string;
  local_end: string;
  value_inc_vat: number;
  value_exc_vat: number;
}

/** Negative half-hours inside [from, to), in time order; empty if none, NoDataError if no prices at all. */
export async function negativeSlots(warehouse: Warehouse, request: NegativeSlotsRequest = {}): Promise<NegativeSlotRow[]> {
  const { sql, params } = negativeSlotsStatement(request);
  const rows = await warehouse.all<NegativeSlotRow>(sql, params);
  if (rows.length === 0) await requireData(warehouse, request.tariff, request);
  return rows;
}

/** negativeSlots' statement and its values (what `tariffs negative --print-sql` prints). */
export function negativeSlotsStatement(request: NegativeSlotsRequest = {}): Query {
  checkRange(request);
  const price = (c: string) => (request.rounded ? priceDoubleSql(c) : c);
  return {
    sql: `
    SELECT tariff_code, payment_method, rate_type, local_date, settlement_period,
           slot_start AS start, slot_end AS "end",
           london_iso(slot_start) AS local_start, london_iso(slot_end) AS local_end,
           ${price('value_inc_vat')} AS value_inc_vat, ${price('value_exc_vat')} AS value_exc_vat
    FROM negative_slots
    WHERE ($tariff IS NULL OR tariff_code = $tariff)
      AND slot_start >= coalesce(CAST($from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND slot_end <= coalesce(CAST($to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity')
    ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, slot_start`,
    params: { tariff: request.tariff ?? null, ...rangeParams(request) },
  };
}
