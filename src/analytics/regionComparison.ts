// A product's tariffs region by region over a range: the region_comparison macro of sql/public.
import { NoDataError } from '../errors.js';
import { selectPrices } from './priceSql.js';
import type { Query } from '../store/inlineParams.js';
import type { Warehouse } from '../store/Warehouse.js';
import { checkRange, describeRange, rangeParams, type Range } from './range.js';

export interface RegionComparisonRequest extends Range {
  product: string;
  /** Prices rounded to 4 decimals in SQL, as the exports round them (what the CLI prints). */
  rounded?: boolean;
}

export interface RegionComparisonRow {
  product_code: string;
  region: string;
  tariff_code: string;
  payment_method: string | null;
  rate_type: string;
  first_start: string;
  last_end: string;
  days: number;
  slots: number;
  min_inc_vat: number;
  max_inc_vat: number;
  mean_inc_vat: number;
  median_inc_vat: number;
  negative_slots: number;
  peak_mean_inc_vat: number | null;
  mean_exc_vat: number;
  /** 1 = the cheapest mean among the product's tariffs with the same payment method and rate type. */
  mean_rank: number;
}

export async function regionComparison(warehouse: Warehouse, request: RegionComparisonRequest): Promise<RegionComparisonRow[]> {
  const { sql, params } = regionComparisonStatement(request);
  const rows = await warehouse.all<RegionComparisonRow>(sql, params);
  if (rows.length === 0) {
    throw new NoDataError(`no prices stored for any tariff of product ${request.product} ${describeRange(request)}`);
  }
  return rows;
}

/** regionComparison's statement and its values (what `tariffs regions --print-sql` prints). */
export function regionComparisonStatement(request: RegionComparisonRequest): Query {
  checkRange(request);
  const prices = selectPrices(['min_inc_vat', 'max_inc_vat', 'mean_inc_vat', 'median_inc_vat', 'peak_mean_inc_vat', 'mean_exc_vat'], request.rounded);
  return {
    sql: `SELECT ${prices} FROM region_comparison($product, CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ))`,
    params: { product: request.product, ...rangeParams(request) },
  };
}
