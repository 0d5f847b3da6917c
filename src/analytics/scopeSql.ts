// Which tariffs and local days a stats question covers, as SQL and bound parameters shared by the
// CLI's questions, the exported files and the HTML report: $tariffs (a list, NULL = every tariff),
// $from_date and $to_date (the local days whose midnight lies in [from, to); NULL = open).
import { listValue, type DuckDBListValue } from '@duckdb/node-api';
import { localDaysIn } from './localDays.js';
import type { Range } from './range.js';

/** `column` is one of $tariffs, or $tariffs is NULL. A function of the bound list, not
 *  `IN (SELECT unnest($tariffs))`: DuckDB pushes a plain filter down into rate_slots, so the long
 *  rates of other tariffs are never expanded to half-hours, where a subquery is a join above the
 *  expansion. */
export const inTariffs = (column: string) => `($tariffs IS NULL OR list_contains(CAST($tariffs AS VARCHAR[]), ${column}))`;

/** `column` (a local date) is one of the local days in [$from_date, $to_date). Written so that an
 *  open bound folds away when DuckDB plans with the values (`NULL IS NULL OR …`): a comparison with
 *  coalesce(…, '-infinity') stays, is pushed down into rate_slots, and there makes the long rates'
 *  london_local run twice. */
export const inLocalDays = (column: string) => `($from_date IS NULL OR ${column} >= CAST($from_date AS DATE))
      AND ($to_date IS NULL OR ${column} < CAST($to_date AS DATE))`;

/** $tariffs for a request naming several tariffs, one, or none (every tariff). */
export function tariffsParam(request: { tariff?: string; tariffs?: readonly string[] }): DuckDBListValue | null {
  if (request.tariffs) return listValue([...request.tariffs]);
  return request.tariff === undefined ? null : listValue([request.tariff]);
}

/** $from_date and $to_date of a range. */
export function localDayParams(range: Range): { from_date: string | null; to_date: string | null } {
  const { fromDate, toDate } = localDaysIn(range);
  return { from_date: fromDate ?? null, to_date: toDate ?? null };
}
