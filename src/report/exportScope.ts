// What an export covers: the tariffs (given, or every tariff with half-hourly prices) and the
// window, as the bound parameters every report query shares. Fails naming a tariff with no data.
import { listValue, type DuckDBValue } from '@duckdb/node-api';
import { NoDataError, UsageError } from '../errors.js';
import type { Warehouse } from '../store/Warehouse.js';
import { localDaysIn } from '../analytics/index.js';
import { halfHourlyTariffsIn, tariffsWithSlotsIn } from '../analytics/pricedTariffs.js';
import { describeOrder, describeWindow } from '../time/index.js';

/** Bounds used when --from/--to are not given: wider than any price the warehouse can hold. */
const EARLIEST = new Date('1990-01-01T00:00:00Z');
const LATEST = new Date('2100-01-01T00:00:00Z');

export interface ExportScope {
  tariffs: string[];
  /** Half-hours starting in [from, to) count. */
  from: Date;
  to: Date;
  /** Local days whose midnight lies in [from, to) (as src/analytics selects them); undefined = open. */
  fromDate?: string;
  toDate?: string;
}

export async function resolveScope(
  warehouse: Warehouse, request: { tariffs?: string[]; from?: Date; to?: Date },
): Promise<ExportScope> {
  const from = request.from ?? EARLIEST;
  const to = request.to ?? LATEST;
  if (from >= to) {
    throw new UsageError(`--from must be before --to (the window is half-open: [from, to)), ${describeOrder(from, to)}`);
  }
  const shown = request.from || request.to
    ? ` in ${describeWindow(request.from, request.to)}`
    : '';
  let tariffs: string[];
  if (request.tariffs && request.tariffs.length > 0) {
    tariffs = [...new Set(request.tariffs)].sort();
    const found = await tariffsWithSlotsIn(warehouse, tariffs, from, to);
    const missing = tariffs.filter((t) => !found.has(t));
    if (missing.length > 0) {
      throw new NoDataError(`no prices for ${missing.join(', ')}${shown} in ${warehouse.file}`);
    }
  } else {
    tariffs = await halfHourlyTariffs(warehouse, from, to);
    if (tariffs.length === 0) throw new NoDataError(`no tariff with half-hourly prices${shown} in ${warehouse.file}`);
  }
  return { tariffs, from, to, ...localDaysIn({ from: request.from, to: request.to }) };
}

/** Tariffs with half-hourly prices (rates exactly one half-hour long, as rate_slots has it) in [from, to). */
export async function halfHourlyTariffs(warehouse: Warehouse, from = EARLIEST, to = LATEST): Promise<string[]> {
  return halfHourlyTariffsIn(warehouse, from, to);
}

/** The named parameters of the report queries (each query binds the ones it uses). */
export function scopeParams(scope: ExportScope): Record<string, DuckDBValue> {
  return {
    tariffs: listValue(scope.tariffs),
    range_from: scope.from.toISOString(),
    range_to: scope.to.toISOString(),
    from_date: scope.fromDate ?? null,
    to_date: scope.toDate ?? null,
  };
}
