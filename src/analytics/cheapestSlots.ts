// The n cheapest half-hours of a tariff in a range, whether adjacent or not, in time order: the
// cheapest_slots macro of sql/public with bound parameters.
import type { DuckDBValue } from '@duckdb/node-api';
import { InvalidRequest } from './requestErrors.js';
import type { Query } from '../store/inlineParams.js';
import type { Warehouse } from '../store/Warehouse.js';
import type { LengthMode } from './cheapestWindows.js';
import type { DispatchPrices } from './dispatchPrices.js';
import { checkRange, rangeParams, type Range } from './range.js';
import { withCoverage } from './rangeCoverage.js';
import { selectPrices } from './priceSql.js';
import { requireData } from './requireData.js';
import { slotWeights } from './slotWeights.js';

export interface CheapestSlotsRequest extends Range {
  tariff: string;
  /** How many half-hours (≥ 1). */
  count: number;
  /** Equal prices go to the latest half-hours instead of the earliest. */
  latest?: boolean;
  /** The highest-priced half-hours instead of the cheapest. */
  highest?: boolean;
  /** Half-hours priced below this (p/kWh inc VAT) are not chosen. */
  minPrice?: number;
  /** Half-hours priced above this are not chosen. */
  maxPrice?: number;
  /** 'exact' (default: fewer than count eligible = no answer), 'at_most' (up to count),
   *  'at_least' (every eligible half-hour, when there are at least count). */
  lengthMode?: LengthMode;
  /** Prices rounded to 4 decimals in SQL, as the exports round them (what the CLI prints). */
  rounded?: boolean;
  /** count half-hours per Europe/London local day instead of over the whole range. */
  perDay?: boolean;
  /** A relation giving a weight per half-hour (slotWeights): half-hours are ranked by price × weight. */
  weightsFrom?: string;
  /** Intelligent Octopus Go: the account's prices with dispatches (dispatchPrices), ranked instead
   *  of the tariff's own (cheapest_slots' slot_prices). */
  slotPrices?: DispatchPrices;
  /** Each row also says whether every half-hour of its series' range is priced: `complete`. */
  coverage?: boolean;
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
  /** 1 = the cheapest half-hour of the range (per day: of the day). */
  price_rank: number;
  /** The half-hour's weight: only with weightsFrom. */
  weight?: number;
}

export async function cheapestSlots(warehouse: Warehouse, request: CheapestSlotsRequest): Promise<SlotRow[]> {
  const { sql, params } = await cheapestSlotsStatement(warehouse, request);
  const rows = await warehouse.all<SlotRow>(sql, params);
  if (rows.length === 0) await requireData(warehouse, request.tariff, request);
  return rows;
}

/** cheapestSlots' statement and its values (what `tariffs slots --print-sql` prints). */
export async function cheapestSlotsStatement(warehouse: Warehouse, request: CheapestSlotsRequest): Promise<Query> {
  const { call, params } = await slotsCall(warehouse, request);
  // the weight column only when weights were asked for (the rows are otherwise as they were)
  const exclude = request.weightsFrom === undefined ? ' EXCLUDE (weight)' : '';
  const select = selectPrices(['value_inc_vat', 'value_exc_vat'], request.rounded).replace(/^\*/, `*${exclude}`);
  const answer = `SELECT ${select} FROM ${call}`;
  return { sql: request.coverage ? withCoverage(answer, 'a.payment_method, a.rate_type, a.start') : answer, params };
}

/** The checked request as a cheapest_slots call and its bound parameters (checkSlots builds on it). */
export async function slotsCall(warehouse: Warehouse, request: CheapestSlotsRequest): Promise<{ call: string; params: Record<string, DuckDBValue> }> {
  if (!Number.isInteger(request.count) || request.count < 1) {
    throw new InvalidRequest('count', (w) => `${w.field('count')}: must be a positive whole number, got ${request.count}`);
  }
  checkRange(request);
  const weighted = request.weightsFrom === undefined ? undefined : await slotWeights(warehouse, request.weightsFrom);
  const call = `cheapest_slots($tariff, CAST($count AS BIGINT), CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ),
       latest := $latest, highest := $highest, min_price := CAST($min_price AS DOUBLE),
       max_price := CAST($max_price AS DOUBLE), length_mode := $length_mode, per := '${request.perDay ? 'day' : 'range'}'` +
    `${weighted ? `, slot_weights := ${weighted.sql}` : ''}${request.slotPrices ? `, slot_prices := ${request.slotPrices.sql}` : ''})`;
  const params = {
    tariff: request.tariff, count: request.count, latest: request.latest ?? false, highest: request.highest ?? false,
    min_price: request.minPrice ?? null, max_price: request.maxPrice ?? null, length_mode: request.lengthMode ?? 'exact',
    ...rangeParams(request),
    ...(request.slotPrices ? request.slotPrices.params : {}),
  };
  return { call, params };
}
