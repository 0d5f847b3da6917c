// The cheapest run of contiguous half-hours of a tariff (over a range, per local day or per band):
// one call of the price_windows macro of sql/public with bound parameters.
import { listValue, type DuckDBValue } from '@duckdb/node-api';
import { UsageError } from '../errors.js';
import { InvalidRequest } from './requestErrors.js';
import type { Query } from '../store/inlineParams.js';
import type { Warehouse } from '../store/Warehouse.js';
import type { DispatchPrices } from './dispatchPrices.js';
import { checkRange, rangeParams, type Range } from './range.js';
import { withCoverage } from './rangeCoverage.js';
import { selectPrices } from './priceSql.js';
import { requireData } from './requireData.js';
import { slotWeights } from './slotWeights.js';

export interface CheapestWindowsRequest extends Range {
  tariff: string;
  /** Length of the window in half-hours (≥ 1). */
  slots: number;
  /** One window per local day, lying inside that day. */
  perDay?: boolean;
  /**
   * One window per occurrence of this daily band of local wall-clock time (minutes after local
   * midnight, start inclusive, end exclusive; end ≤ start crosses midnight and the occurrence
   * belongs to the local date it starts on). Takes precedence over perDay.
   */
  band?: { startMinutes: number; endMinutes: number };
  /** Break ties in favour of the latest window instead of the earliest. */
  latest?: boolean;
  /** No half-hour of the window may cost more than this, p/kWh inc VAT. */
  maxPrice?: number;
  /** No half-hour of the window may cost less than this, p/kWh inc VAT. */
  minPrice?: number;
  /** The highest-priced window instead of the cheapest (same ties). */
  highest?: boolean;
  /**
   * Score Σ price × weight over the window's half-hours, first half-hour first; padded with 1s (or
   * cut) to the window's length. All > 0.
   */
  weights?: number[];
  /**
   * A relation (table, view or file) giving a weight per half-hour (columns slot_start and weight;
   * see slotWeights): each half-hour's price counts times its weight, on top of `weights`.
   */
  weightsFrom?: string;
  /** 'exact' (default); 'at_least': the best window grows to its whole run of eligible half-hours;
   *  'at_most': fewer half-hours when no run of eligible ones is that long. */
  lengthMode?: LengthMode;
  /** Prices rounded to 4 decimals in SQL, as the exports round them (what the CLI prints). */
  rounded?: boolean;
  /** Intelligent Octopus Go: the account's prices with dispatches (dispatchPrices), ranked instead
   *  of the tariff's own (price_windows' slot_prices). */
  slotPrices?: DispatchPrices;
  /** Each row also says whether every half-hour of its series' range is priced: `complete`. */
  coverage?: boolean;
}

export type LengthMode = 'exact' | 'at_least' | 'at_most';

export interface WindowRow {
  tariff_code: string;
  payment_method: string | null;
  rate_type: string;
  /** Per-day: the local day; band: the local date the band's occurrence starts on. */
  local_date?: string;
  /** UTC, `...Z`. */
  start: string;
  end: string;
  /** Europe/London wall time with offset, e.g. `2024-10-27T01:30:00+00:00`. */
  local_start: string;
  local_end: string;
  slots: number;
  mean_inc_vat: number;
  mean_exc_vat: number;
  /** The ranked score as a price: the mean, or with weights Σ price × weight ÷ Σ weight. */
  score_inc_vat: number;
}

/**
 * Per series of the tariff (payment method, rate type): the cheapest window, or one per local day
 * or band occurrence. Windows lie inside [from, to) and never span a missing half-hour. Empty when
 * the tariff has prices in the range but no window qualifies; NoDataError when it has none.
 */
export async function cheapestWindows(warehouse: Warehouse, request: CheapestWindowsRequest): Promise<WindowRow[]> {
  const { sql, params } = await cheapestWindowsStatement(warehouse, request);
  const rows = await warehouse.all<WindowRow>(sql, params);
  if (rows.length === 0) await requireData(warehouse, request.tariff, request);
  return rows;
}

/** cheapestWindows' statement and its values (what `tariffs cheapest --print-sql` prints). */
export async function cheapestWindowsStatement(warehouse: Warehouse, request: CheapestWindowsRequest): Promise<Query> {
  const { call, params } = await windowsCall(warehouse, request);
  const per = request.band ? 'band' : request.perDay ? 'day' : 'range';
  const columns = selectPrices(['mean_inc_vat', 'mean_exc_vat', 'score_inc_vat'], request.rounded);
  // one window per range carries no local date (price_windows gives it as null)
  const answer = `SELECT ${per === 'range' ? columns.replace(/^\*/, '* EXCLUDE (local_date)') : columns} FROM ${call}`;
  return { sql: request.coverage ? withCoverage(answer, 'a.payment_method NULLS FIRST, a.rate_type, a.start') : answer, params };
}

/** The checked request as a price_windows call and its bound parameters (checkWindow builds on it). */
export async function windowsCall(warehouse: Warehouse, request: CheapestWindowsRequest): Promise<{ call: string; params: Record<string, DuckDBValue> }> {
  checkRequest(request);
  const weighted = request.weightsFrom === undefined ? undefined : await slotWeights(warehouse, request.weightsFrom);
  const params = {
    tariff: request.tariff,
    slots: request.slots,
    latest: request.latest ?? false,
    max_price: request.maxPrice ?? null,
    min_price: request.minPrice ?? null,
    highest: request.highest ?? false,
    weights: request.weights === undefined ? null : listValue(request.weights),
    length_mode: request.lengthMode ?? 'exact',
    band_start: request.band?.startMinutes ?? null,
    band_end: request.band?.endMinutes ?? null,
    ...rangeParams(request),
    ...(request.slotPrices ? request.slotPrices.params : {}),
  };
  const per = request.band ? 'band' : request.perDay ? 'day' : 'range';
  const call = `price_windows($tariff, CAST($slots AS INTEGER), CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ), per := '${per}', ` +
    'band_start_minutes := CAST($band_start AS INTEGER), band_end_minutes := CAST($band_end AS INTEGER), ' +
    'latest := $latest, highest := $highest, min_price := CAST($min_price AS DOUBLE), max_price := CAST($max_price AS DOUBLE), ' +
    'weights := CAST($weights AS DOUBLE[]), length_mode := $length_mode' +
    `${weighted ? `, slot_weights := ${weighted.sql}` : ''}${request.slotPrices ? `, slot_prices := ${request.slotPrices.sql}` : ''})`;
  return { call, params };
}

function checkRequest(request: CheapestWindowsRequest): void {
  if (!Number.isInteger(request.slots) || request.slots < 1) {
    throw new UsageError(`the window must be a positive number of half-hours, got ${request.slots}`);
  }
  for (const [field, value] of [['maxPrice', request.maxPrice], ['minPrice', request.minPrice]] as const) {
    if (value !== undefined && !Number.isFinite(value)) throw new InvalidRequest(field, (w) => `${w.field(field)}: not a number: ${value}`);
  }
  const { minPrice, maxPrice } = request;
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice) {
    throw new InvalidRequest('minPrice', (w) => `${w.field('minPrice')} ${minPrice} is above ${w.field('maxPrice')} ${maxPrice}: no half-hour can qualify`);
  }
  const weights = request.weights;
  if (weights !== undefined) {
    if (weights.length === 0 || weights.some((w) => !Number.isFinite(w) || w <= 0)) {
      throw new InvalidRequest('weights', (w) => `${w.field('weights')}: every weight must be a number above 0, got ${weights.join(',')}`);
    }
    if (weights.length > request.slots) {
      throw new InvalidRequest('weights', (w) => `${w.field('weights')}: ${weights.length} weights for a window of ${request.slots} half-hours`);
    }
  }
  if (request.lengthMode !== undefined && !['exact', 'at_least', 'at_most'].includes(request.lengthMode)) {
    throw new UsageError(`length mode must be exact, at_least or at_most, got ${String(request.lengthMode)}`);
  }
  const band = request.band;
  if (band) {
    const ok = (m: number, max: number) => Number.isInteger(m) && m >= 0 && m <= max;
    if (!ok(band.startMinutes, 1439) || !ok(band.endMinutes, 1440)) {
      throw new InvalidRequest('band', (w) => `${w.field('band')}: band minutes must be 0-1439 and 0-1440, got ${band.startMinutes}-${band.endMinutes}`);
    }
  }
  checkRange(request);
}
