// Contiguous stretches of negative prices: the negative_runs view of sql/public, the runs that
// overlap a range (each shown whole).
import type { Query } from '../store/inlineParams.js';
import type { Warehouse } from '../store/Warehouse.js';
import { checkRange, rangeParams, type Range } from './range.js';
import { selectPrices } from './priceSql.js';
import { requireData } from './requireData.js';

export interface NegativeRunsRequest extends Range {
  tariff?: string;
  /** Prices rounded to 4 decimals in SQL, as the exports round them (what the CLI prints). */
  rounded?: boolean;
}

export interface NegativeRunRow {
  tariff_code: string;
  payment_method: string | null;
  rate_type: string;
  start: string;
  end: string;
  /** Local date of the run's start. */
  local_date: string;
  local_start: string;
  local_end: string;
  slots: number;
  min_inc_vat: number;
  mean_inc_vat: number;
  mean_exc_vat: number;
}

export async function negativeRuns(warehouse: Warehouse, request: NegativeRunsRequest = {}): Promise<NegativeRunRow[]> {
  const { sql, params } = negativeRunsStatement(request);
  const rows = await warehouse.all<NegativeRunRow>(sql, params);
  if (rows.length === 0) await requireData(warehouse, request.tariff, request);
  return rows;
}

/** negativeRuns' statement and its values (what `tariffs negative --runs --print-sql` prints). */
export function negativeRunsStatement(request: NegativeRunsRequest = {}): Query {
  checkRange(request);
  return {
    sql: `
    SELECT ${selectPrices(['min_inc_vat', 'mean_inc_vat', 'mean_exc_vat'], request.rounded)} FROM negative_runs
    WHERE ($tariff IS NULL OR tariff_code = $tariff)
      AND "end" > coalesce(CAST($from AS TIMESTAMPTZ), TIMESTAMPTZ '-infinity')
      AND start < coalesce(CAST($to AS TIMESTAMPTZ), TIMESTAMPTZ 'infinity')
    ORDER BY tariff_code, payment_method NULLS FIRST, rate_type, start`,
    params: { tariff: request.tariff ?? null, ...rangeParams(request) },
  };
}
