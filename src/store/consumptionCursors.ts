// The consumption ingest's cursors (consumption_cursors): per meter, the window fetched so far.
// Moved in the transaction that stores the readings they cover.
import type { Warehouse } from './Warehouse.js';

export interface ConsumptionCursor {
  fetched_from: string;
  fetched_until: string;
}

/** The meter's cursor (instants as ISO text), if it has been fetched before. */
export async function readConsumptionCursor(warehouse: Warehouse, meterPoint: string, serial: string): Promise<ConsumptionCursor | undefined> {
  return (await warehouse.all<ConsumptionCursor>(
    'SELECT fetched_from, fetched_until FROM consumption_cursors WHERE meter_point = $mp AND serial = $serial',
    { mp: meterPoint, serial }))[0];
}

/** Widens the meter's cursor to [from, to) and records its latest stored half-hour. */
export async function moveConsumptionCursor(
  warehouse: Warehouse, cursor: { meterPoint: string; serial: string; from: Date; to: Date; runId: number; now: Date },
): Promise<void> {
  await warehouse.run(`
      INSERT INTO consumption_cursors VALUES ($mp, $serial, CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ),
        (SELECT max(interval_start) FROM consumption WHERE meter_point = $mp AND serial = $serial), $run, CAST($now AS TIMESTAMPTZ))
      ON CONFLICT (meter_point, serial) DO UPDATE SET
        fetched_from = least(consumption_cursors.fetched_from, excluded.fetched_from),
        fetched_until = greatest(consumption_cursors.fetched_until, excluded.fetched_until),
        latest_interval_start = excluded.latest_interval_start, run_id = excluded.run_id, updated_at = excluded.updated_at`,
  { mp: cursor.meterPoint, serial: cursor.serial, from: cursor.from.toISOString(), to: cursor.to.toISOString(),
    run: cursor.runId, now: cursor.now.toISOString() });
}
