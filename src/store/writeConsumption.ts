// Writes half-hourly readings: one meter's through an appender into a temp staging table, local date and
// settlement period from london_local (sql/internal/london_local.sql), or any staged rows set-wise (a long
// file); changed readings kept in consumption_revisions, then updated in place and new ones inserted —
// in the caller's transaction (a file import is stored whole or not at all). consumption has no
// primary key (migration 016): mergeConsumption is what keeps one row per meter, serial and half-hour.
import type { Warehouse } from './Warehouse.js';

export interface ConsumptionReading {
  /** UTC epoch ms of the half-hour's start and end. */
  startMs: number;
  endMs: number;
  kwh: number;
  rawValue: number;
  rawUnit: 'kWh' | 'm3';
  supplierCostIncVat?: number | null;
  supplierStandingChargeIncVat?: number | null;
}

export interface ConsumptionBatch {
  meterPoint: string;
  serial: string;
  source: 'api' | 'file';
  runId: number;
  readings: readonly ConsumptionReading[];
  now: Date;
}

export interface ConsumptionCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

const STAGE = 'stage_consumption';

/** Stores the batch; call inside warehouse.transaction(). */
export async function writeConsumption(warehouse: Warehouse, batch: ConsumptionBatch): Promise<ConsumptionCounts> {
  await warehouse.run(`CREATE TEMP TABLE IF NOT EXISTS ${STAGE} (
    start_ms DOUBLE, end_ms DOUBLE, kwh DOUBLE, raw_value DOUBLE, raw_unit VARCHAR,
    supplier_cost DOUBLE, supplier_standing DOUBLE)`);
  await warehouse.run(`DELETE FROM ${STAGE}`);
  if (batch.readings.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
  const appender = await warehouse.connection.createAppender(STAGE, 'main', 'temp');
  try {
    for (const r of batch.readings) {
      appender.appendDouble(r.startMs);
      appender.appendDouble(r.endMs);
      appender.appendDouble(r.kwh);
      appender.appendDouble(r.rawValue);
      appender.appendVarchar(r.rawUnit);
      if (r.supplierCostIncVat == null) appender.appendNull();
      else appender.appendDouble(r.supplierCostIncVat);
      if (r.supplierStandingChargeIncVat == null) appender.appendNull();
      else appender.appendDouble(r.supplierStandingChargeIncVat);
      appender.endRow();
    }
  } finally {
    appender.closeSync();
  }
  const params = {
    meter: batch.meterPoint, serial: batch.serial, source: batch.source, run: batch.runId, now: batch.now.toISOString(),
  };
  // The staged rows as consumption rows; a reading repeated in one batch keeps its last value.
  const staged = `
    WITH s AS (
        SELECT make_timestamptz(CAST(start_ms * 1000 AS BIGINT)) AS interval_start,
               make_timestamptz(CAST(end_ms * 1000 AS BIGINT)) AS interval_end,
               kwh, raw_value, raw_unit, supplier_cost, supplier_standing
        FROM ${STAGE}
        QUALIFY row_number() OVER (PARTITION BY start_ms ORDER BY rowid DESC) = 1
    ), localised AS (
        SELECT *, london_local(interval_start) AS l FROM s
    )
    SELECT $meter AS meter_point, $serial AS serial, interval_start, interval_end,
           l.local_date, l.settlement_period,
           kwh, raw_value, raw_unit, $source AS source,
           supplier_cost AS supplier_cost_inc_vat, supplier_standing AS supplier_standing_charge_inc_vat,
           CAST($run AS BIGINT) AS run_id
    FROM localised`;
  // Materialised once: the three statements below join plain rows (joining the CTE with the
  // bound parameters directly made DuckDB pick a plan thousands of times slower).
  await warehouse.run(`CREATE OR REPLACE TEMP TABLE ${STAGE}_rows AS ${staged}`, params);
  return mergeConsumption(warehouse, `${STAGE}_rows`, batch.runId, batch.now);
}

/** Merges `rows` (a table or parenthesised query with consumption's columns, in its order, one row
 *  per meter, serial and half-hour) into consumption: changed readings into consumption_revisions
 *  first, then updated in place, then the new ones inserted. Joins, not a key's index, find the
 *  stored readings, so memory is bounded by DuckDB's memory_limit however many rows are stored
 *  (each join spills). In the caller's transaction. */
export async function mergeConsumption(warehouse: Warehouse, rows: string, runId: number, now: Date): Promise<ConsumptionCounts> {
  const sameReading = 'c.meter_point = n.meter_point AND c.serial = n.serial AND c.interval_start = n.interval_start';
  const counts = (await warehouse.one(`
    SELECT count(*) FILTER (WHERE c.meter_point IS NULL) AS inserted,
           count(*) FILTER (WHERE c.meter_point IS NOT NULL AND c.kwh IS DISTINCT FROM n.kwh) AS updated,
           count(*) FILTER (WHERE c.meter_point IS NOT NULL AND c.kwh IS NOT DISTINCT FROM n.kwh) AS unchanged
    FROM ${rows} AS n
    LEFT JOIN consumption AS c ON ${sameReading}`))!;
  if (Number(counts.updated) > 0) {
    await warehouse.run(`
      INSERT INTO consumption_revisions
      SELECT c.meter_point, c.serial, c.interval_start, c.kwh, n.kwh, c.source, n.source, c.run_id,
             CAST($run AS BIGINT), CAST($now AS TIMESTAMPTZ)
      FROM ${rows} AS n
      JOIN consumption AS c ON ${sameReading}
      WHERE c.kwh IS DISTINCT FROM n.kwh`, { run: runId, now: now.toISOString() });
  }
  // Unchanged readings keep their run_id and supplier estimate (an API re-read has none).
  if (Number(counts.updated) + Number(counts.unchanged) > 0) {
    await warehouse.run(`
      UPDATE consumption AS c SET
          interval_end = n.interval_end,
          kwh = n.kwh,
          raw_value = n.raw_value,
          raw_unit = n.raw_unit,
          source = n.source,
          supplier_cost_inc_vat = coalesce(n.supplier_cost_inc_vat, c.supplier_cost_inc_vat),
          supplier_standing_charge_inc_vat = coalesce(n.supplier_standing_charge_inc_vat, c.supplier_standing_charge_inc_vat),
          run_id = n.run_id
      FROM ${rows} AS n
      WHERE ${sameReading}
        AND (c.kwh IS DISTINCT FROM n.kwh
             OR c.supplier_cost_inc_vat IS DISTINCT FROM coalesce(n.supplier_cost_inc_vat, c.supplier_cost_inc_vat))`);
  }
  if (Number(counts.inserted) > 0) {
    await warehouse.run(`
      INSERT INTO consumption
      SELECT n.* FROM ${rows} AS n
      WHERE NOT EXISTS (SELECT 1 FROM consumption AS c WHERE ${sameReading})`);
  }
  return { inserted: Number(counts.inserted), updated: Number(counts.updated), unchanged: Number(counts.unchanged) };
}

export interface MeterPointRow {
  meterPoint: string;
  fuel: 'electricity' | 'gas';
  isExport: boolean;
  serials: string[];
  accountNumber: string | null;
}

/** Adds or refreshes a meter point (serials are merged, never dropped). */
export async function upsertMeterPoint(warehouse: Warehouse, row: MeterPointRow, now: Date): Promise<void> {
  await warehouse.run(`
    INSERT INTO meter_points VALUES ($mp, $fuel, $export, CAST($serials AS VARCHAR[]), $account, CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ))
    ON CONFLICT (meter_point) DO UPDATE SET
        fuel = excluded.fuel,
        is_export = excluded.is_export,
        serials = list_sort(list_distinct(list_concat(meter_points.serials, excluded.serials))),
        account_number = coalesce(excluded.account_number, meter_points.account_number),
        last_seen_at = excluded.last_seen_at`,
    {
      mp: row.meterPoint, fuel: row.fuel, export: row.isExport, serials: JSON.stringify(row.serials),
      account: row.accountNumber, now: now.toISOString(),
    });
}

export interface AgreementRow {
  meterPoint: string;
  tariffCode: string;
  validFrom: string;
  validTo: string | null;
  accountNumber: string | null;
}

/** Replaces a meter point's agreements with the account's current list (it is the source of truth). */
export async function replaceAgreements(warehouse: Warehouse, meterPoint: string, rows: readonly AgreementRow[], now: Date): Promise<void> {
  await warehouse.run('DELETE FROM agreements WHERE meter_point = $mp', { mp: meterPoint });
  for (const a of rows) {
    await warehouse.run(`INSERT INTO agreements VALUES ($mp, $tariff, CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ), $account, CAST($now AS TIMESTAMPTZ))`, {
      mp: a.meterPoint, tariff: a.tariffCode, from: a.validFrom, to: a.validTo, account: a.accountNumber, now: now.toISOString(),
    });
  }
}

/** Adds or refreshes every meter point of `rows` (its meter_point and serial columns) at once,
 *  with one fuel and direction, as upsertMeterPoint does for one. */
export async function upsertMeterPointsOf(
  warehouse: Warehouse, rows: string, fuel: 'electricity' | 'gas', isExport: boolean, now: Date,
): Promise<void> {
  await warehouse.run(`
    INSERT INTO meter_points
    SELECT meter_point, $fuel, $export, list(serial ORDER BY serial), CAST(NULL AS VARCHAR),
           CAST($now AS TIMESTAMPTZ), CAST($now AS TIMESTAMPTZ)
    FROM (SELECT DISTINCT meter_point, serial FROM ${rows}) -- not a list of every row's serial: a long file's meters hold millions
    GROUP BY meter_point
    ON CONFLICT (meter_point) DO UPDATE SET
        fuel = excluded.fuel,
        is_export = excluded.is_export,
        serials = list_sort(list_distinct(list_concat(meter_points.serials, excluded.serials))),
        last_seen_at = excluded.last_seen_at`,
  { fuel, export: isExport, now: now.toISOString() });
}
