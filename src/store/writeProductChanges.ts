// product_changes: what a products refresh saw appear in the supplier's list or leave it.
import type { Warehouse } from './Warehouse.js';

export interface ProductChange {
  code: string;
  change: string;
}

/** Records the changes seen at `seen` (one already recorded is kept as it is). */
export async function writeProductChanges(warehouse: Warehouse, rows: readonly ProductChange[], seen: Date): Promise<void> {
  await warehouse.run(`INSERT OR IGNORE INTO product_changes
        SELECT r.code, r.change, CAST($seen AS TIMESTAMPTZ) FROM (SELECT unnest(from_json($rows, '[{"code":"VARCHAR","change":"VARCHAR"}]'), recursive := true)) AS r`,
  { rows: JSON.stringify(rows), seen: seen.toISOString() });
}
