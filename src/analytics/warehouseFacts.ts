// The facts `tariffs status` reads of the warehouse (src/schedule/warehouseStatus.ts): each a
// relation of sql/public (latest_slots, tariffs_with_slots, missing_optional_resources,
// withdrawn_tariffs, job_status, meter_freshness_at, quiet_tariffs), read as it stands.
import type { JsRow } from '../store/rowsToJs.js';
import type { Warehouse } from '../store/Warehouse.js';

/** A meter with readings, as the macro meter_freshness_at answers as of the status's instant. */
export interface MeterStatus {
  meter_point: string;
  serial: string;
  fuel: string | null;
  is_export: boolean | null;
  /** null: a meter known only from an imported file. */
  account_number: string | null;
  /** End of its newest half-hour. */
  latest_reading: string;
  latest_local_date: string;
  /** London days from the newest reading's day to today's (1: yesterday's readings are in). */
  age_days: number;
  /** Half-hours without a reading in the 7 London days before today. */
  holes_7d: number;
}

/** Per tariff its newest stored slot: the view latest_slots. */
export async function latestSlots(warehouse: Warehouse): Promise<JsRow[]> {
  return warehouse.all('SELECT * FROM latest_slots');
}

/** The tariffs with a half-hour stored in [from, to): the macro tariffs_with_slots. */
export async function tariffsWithSlots(warehouse: Warehouse, from: Date, to: Date): Promise<JsRow[]> {
  return warehouse.all('SELECT * FROM tariffs_with_slots(CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ))',
    { from: from.toISOString(), to: to.toISOString() });
}

/** The optional resources the latest attempts could not get, by tariff and resource: the view missing_optional_resources. */
export async function missingOptionalResources(warehouse: Warehouse): Promise<JsRow[]> {
  return warehouse.all('SELECT * FROM missing_optional_resources ORDER BY tariff_code, resource');
}

/** Tariffs whose product a products refresh saw leave the list: the view withdrawn_tariffs. */
export async function withdrawnTariffs(warehouse: Warehouse): Promise<JsRow[]> {
  return warehouse.all('SELECT * FROM withdrawn_tariffs');
}

/** Per job its last recorded run and the busy attempts since: the view job_status. */
export async function jobStatus(warehouse: Warehouse): Promise<JsRow[]> {
  return warehouse.all('SELECT * FROM job_status');
}

/** Each meter with readings, as fresh as they are at `now`: the macro meter_freshness_at. */
export async function meterFreshnessAt(warehouse: Warehouse, now: Date): Promise<MeterStatus[]> {
  return warehouse.all<MeterStatus>('SELECT * FROM meter_freshness_at(CAST($now AS TIMESTAMPTZ))', { now: now.toISOString() });
}

/** Tariffs whose every unit rate ended by `todayStart` although a fetch of their rates succeeded
 *  after that end: the macro quiet_tariffs (tariff_code, ended). */
export async function quietTariffs(warehouse: Warehouse, todayStart: Date): Promise<JsRow[]> {
  return warehouse.all('SELECT * FROM quiet_tariffs(CAST($today AS TIMESTAMPTZ))', { today: todayStart.toISOString() });
}
