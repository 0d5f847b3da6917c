// The n cheapest half-hours of a tariff in a range, whether adjacent or not, in time order: the
// cheapest_slots macro of sql/macros with bound parameters.
import { UsageError } from '../errors.js';
import type { Warehouse } from '../store/Warehouse.js';
import { checkRange, rangeParams, type Range } from './range.js';
import { selectPrices } from './priceSql.js';
import { requireData } from './requireData.js';

export interface CheapestSlotsRequest extends Range {
  tariff: string;
  /** How many half-hours (≥ 1). */
  count: number;
  /** Equal prices go to the latest half-hours instead of the earliest. */
  latest?: boolean;
  /** Prices rounded to 4 decimals in SQL, as the exports round them (what the CLI prints). */
  rounded?: boolean;
}

export interface SlotRow {
  tariff_code: string;
  payment_method: string | null;
  rate_type: string;
  local_date: string;
  start: string;
  end: string;
  local_start: string;
  local_end: string;
  value_inc_vat: number;
  value_exc_vat: number;
  /** 1 = the cheapest half-hour of the range. */
  price_rank: number;
}

export async function cheapestSlots(warehouse: Warehouse, request: CheapestSlotsRequest): Promise<SlotRow[]> {
  if (!Number.isInteger(request.count) || request.count < 1) {
    throw new UsageError(`--count: must be a positive whole number, got ${request.count}`);
  }
  checkRange(request);
  const rows = (await warehouse.all(
    `SELECT ${selectPrices(['value_inc_vat', 'value_exc_vat'], request.rounded)} FROM cheapest_slots($tariff, CAST($count AS BIGINT), CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ), latest := $latest)`,
    { tariff: request.tariff, count: request.count, latest: request.latest ?? false, ...rangeParams(request) },
  )) as unknown as SlotRow[];
  if (rows.length === 0) await requireData(warehouse, request.tariff, request);
  return rows;
}
