// Which tariffs have prices in a window: those of a list with half-hours in rate_slots, and every
// tariff with half-hourly rates (an export's default scope).
import { listValue } from '@duckdb/node-api';
import type { Warehouse } from '../store/Warehouse.js';

/** Those of `tariffs` with a half-hour of rate_slots starting in [from, to). */
export async function tariffsWithSlotsIn(warehouse: Warehouse, tariffs: readonly string[], from: Date, to: Date): Promise<Set<string>> {
  const rows = await warehouse.all(
    // rate_slots_for narrows the long rates to the range before expanding them
    `SELECT DISTINCT tariff_code
       FROM rate_slots_for(CAST($tariffs AS VARCHAR[]), CAST($range_from AS TIMESTAMPTZ), CAST($range_to AS TIMESTAMPTZ))`,
    { tariffs: listValue([...tariffs]), range_from: from.toISOString(), range_to: to.toISOString() },
  );
  return new Set(rows.map((r) => r.tariff_code as string));
}

/** Tariffs with half-hourly prices (rates exactly one half-hour long, as rate_slots has it) in [from, to). */
export async function halfHourlyTariffsIn(warehouse: Warehouse, from: Date, to: Date): Promise<string[]> {
  const rows = await warehouse.all(
    `SELECT DISTINCT tariff_code FROM unit_rates
     WHERE valid_to = valid_from + INTERVAL 30 MINUTE
       AND valid_from >= CAST($range_from AS TIMESTAMPTZ) AND valid_from < CAST($range_to AS TIMESTAMPTZ)
     ORDER BY tariff_code`,
    { range_from: from.toISOString(), range_to: to.toISOString() },
  );
  return rows.map((r) => r.tariff_code as string);
}
