// optional_resources: per tariff, whether its optional resources (standing charges, a product's
// detail) were there when last asked for, so that a missing one is asked again only at its interval.
import type { Warehouse } from './Warehouse.js';
import { valuesList } from './valuesList.js';

/** (tariff, resource) pairs found missing after `since`. */
export async function missingSince(warehouse: Warehouse, since: Date): Promise<{ tariff_code: string; resource: string }[]> {
  return warehouse.all(`SELECT tariff_code, resource FROM optional_resources
    WHERE state = 'missing' AND checked_at > CAST($since AS TIMESTAMPTZ)`, { since: since.toISOString() });
}

/** One outcome: tariff, resource, state ('present' or 'missing'), HTTP status, error code, URL. */
export type OptionalOutcome = [string, string, string, number | null, string | null, string | null];

/** Records the outcomes of a run, in one statement. */
export async function writeOptionalOutcomes(warehouse: Warehouse, runId: number, now: Date, rows: readonly OptionalOutcome[]): Promise<void> {
  const values = valuesList(rows, ['?', '?', '?', 'CAST(? AS INTEGER)', '?', '?', 'CAST($now AS TIMESTAMPTZ)', '$run']);
  await warehouse.run(`INSERT OR REPLACE INTO optional_resources VALUES ${values.sql}`, { ...values.params, now: now.toISOString(), run: runId });
}
