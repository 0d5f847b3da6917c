// The staging of `tariffs consumption import` of a long file: its rows in a temp table, checked by
// SQL, then merged into consumption as rows of the import's run (writeConsumption.ts).
import type { Warehouse } from './Warehouse.js';

const STAGE = 'stage_consumption_file';

export const CONSUMPTION_STAGE = STAGE;

/** The SQL (over `relation`, the file read by DuckDB) of each staged column, and `problem`: the
 *  first failing check of the row, NULL for a good one. */
export interface ConsumptionFileColumns {
  relation: string;
  mp: string;
  serial: string;
  startRaw: string;
  start: string;
  kwhRaw: string;
  kwh: string;
  /** Over the names mp, sn, ts_raw, ts, v_raw, v. */
  problem: string;
}

/** Reads the file into the staging table, in file order (rowid is the row's place in the file). */
export async function stageConsumptionFile(warehouse: Warehouse, c: ConsumptionFileColumns): Promise<void> {
  await warehouse.run('SET preserve_insertion_order = true'); // rowid is the row's place in the file
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE ${STAGE} AS
      SELECT mp AS meter_point, coalesce(sn, '') AS serial, ts AS interval_start, v AS kwh, ${c.problem} AS problem
      FROM (SELECT ${c.mp} AS mp, ${c.serial} AS sn,
                   ${c.startRaw} AS ts_raw, ${c.start} AS ts, ${c.kwhRaw} AS v_raw, ${c.kwh} AS v
            FROM ${c.relation})`);
}

/** The first staged half-hour of a meter already on an earlier row: both rowids, the meter and the instant. */
export async function firstRepeatedHalfHour(
  warehouse: Warehouse,
): Promise<{ row: number; first: number; meter_point: string; serial: string; at: string } | undefined> {
  const duplicate = await warehouse.one(`
    WITH twice AS (
        SELECT meter_point, serial, interval_start FROM ${STAGE} WHERE problem IS NULL GROUP BY ALL HAVING count(*) > 1
    ), rows AS (
        SELECT s.rowid AS r, min(s.rowid) OVER (PARTITION BY s.meter_point, s.serial, s.interval_start) AS first,
               s.meter_point, s.serial, s.interval_start
        FROM ${STAGE} AS s SEMI JOIN twice USING (meter_point, serial, interval_start)
    )
    SELECT r, first, meter_point, serial, strftime(interval_start AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS at
    FROM rows WHERE r > first ORDER BY r LIMIT 1`);
  if (!duplicate) return undefined;
  return {
    row: Number(duplicate.r), first: Number(duplicate.first), meter_point: String(duplicate.meter_point),
    serial: String(duplicate.serial ?? ''), at: String(duplicate.at),
  };
}

/** The staged rows, meters and first and last half-hour start (instants, or null with no rows). */
export async function stagedConsumptionTotals(warehouse: Warehouse): Promise<{ rows: number; meters: number; first: unknown; last: unknown }> {
  const totals = (await warehouse.one(`
    SELECT count(*) AS rows, count(DISTINCT meter_point) AS meters, min(interval_start) AS first, max(interval_start) AS last
    FROM ${STAGE}`))!;
  return { rows: Number(totals.rows), meters: Number(totals.meters), first: totals.first, last: totals.last };
}

/** The staged rows as consumption rows of the run (a FROM item for mergeConsumption). */
export function stagedConsumptionRows(runId: number): string {
  return `(SELECT meter_point, serial, interval_start, interval_start + INTERVAL 30 MINUTE AS interval_end,
                  l.local_date, l.settlement_period, kwh, kwh AS raw_value, 'kWh' AS raw_unit, 'file' AS source,
                  CAST(NULL AS DOUBLE) AS supplier_cost_inc_vat, CAST(NULL AS DOUBLE) AS supplier_standing_charge_inc_vat,
                  CAST(${Math.trunc(runId)} AS BIGINT) AS run_id
           FROM (SELECT *, london_local(interval_start) AS l FROM temp.${STAGE}))`;
}

/** Drops the staging table (errors ignored: this runs on the way out of a failure too). */
export async function dropConsumptionStage(warehouse: Warehouse): Promise<void> {
  await warehouse.run(`DROP TABLE IF EXISTS temp.${STAGE}`).catch(() => undefined);
}
