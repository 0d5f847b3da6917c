// How much of a range a tariff has prices for, per series: the range_coverage macro of sql/public.
// The CLI uses it to say when an answer comes from a partly priced range (tomorrow not yet
// published, a gap) and to refuse one with --complete.
import type { Warehouse } from '../store/Warehouse.js';
import { checkRange, rangeParams, type Range } from './range.js';

export interface CoverageRow {
  tariff_code: string;
  payment_method: string | null;
  rate_type: string;
  /** The range as asked; an open end is closed by the series' stored data. UTC `...Z`. */
  range_start: string;
  range_end: string;
  expected_slots: number;
  priced_slots: number;
  missing_slots: number;
  complete: boolean;
  min_inc_vat: number;
  max_inc_vat: number;
  mean_inc_vat: number;
}

export async function rangeCoverage(warehouse: Warehouse, request: Range & { tariff: string }): Promise<CoverageRow[]> {
  checkRange(request);
  return await warehouse.all<CoverageRow>(
    'SELECT * FROM range_coverage($tariff, CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ))',
    { tariff: request.tariff, ...rangeParams(request) },
  );
}

/** `answer` (rows of one tariff's series over [$from, $to), with payment_method and rate_type)
 *  with a last column `complete`: whether every half-hour of its series' range is priced
 *  (range_coverage; a series it does not list has nothing missing), in the order `order` of
 *  answer's columns (as a.column). */
export function withCoverage(answer: string, order: string): string {
  return `
    SELECT a.*, coalesce(c.complete, true) AS complete
    FROM (${answer}) AS a
    LEFT JOIN range_coverage($tariff, CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ)) AS c
      ON c.payment_method IS NOT DISTINCT FROM a.payment_method AND c.rate_type = a.rate_type
    ORDER BY ${order}`;
}

/** The key rows of one series share in the analytics answers. */
export function seriesKey(row: { payment_method: string | null; rate_type: string }): string {
  return `${row.payment_method ?? ''}/${row.rate_type}`;
}
