// What the day-ahead watch asks of stored data: per tariff its newest unit rate (and whether that
// is a half-hour) and how many half-hours of tomorrow's Europe/London day it has; and how many
// the day has (46, 48 or 50).
import type { JsRow } from '../store/rowsToJs.js';
import type { Warehouse } from '../store/Warehouse.js';
import { localDayBounds } from '../time/index.js';

/** Per tariff with unit rates: tariff_code, latest_from, half_hourly, stored. `tomorrow` is a local
 *  date. Its half-hours are asked for by their instants, [day start, day end), of rate_slots_for,
 *  which narrows the long rates to them before expanding: rate_slots filtered on local_date had
 *  every open-ended rate expanded since 2017 to count one day. */
export async function dayAheadFacts(warehouse: Warehouse, tomorrow: string): Promise<JsRow[]> {
  const day = localDayBounds(tomorrow);
  return warehouse.all(`
    WITH latest AS (
        SELECT tariff_code,
               max(valid_from) AS latest_from,
               arg_max(coalesce(valid_to = valid_from + INTERVAL 30 MINUTE, false), valid_from) AS half_hourly
        FROM unit_rates
        GROUP BY tariff_code
    ), tomorrow AS (
        SELECT tariff_code, count(DISTINCT slot_start) AS stored
        FROM rate_slots_for(NULL, CAST($from AS TIMESTAMPTZ), CAST($to AS TIMESTAMPTZ))
        GROUP BY tariff_code
    )
    SELECT l.tariff_code, l.latest_from, l.half_hourly, coalesce(t.stored, 0) AS stored
    FROM latest AS l LEFT JOIN tomorrow AS t USING (tariff_code)`, { from: day.start.toISOString(), to: day.end.toISOString() });
}

/** The half-hours of the local day (london_days.slots), if the calendar holds it. */
export async function slotsOfDay(warehouse: Warehouse, localDate: string): Promise<number | undefined> {
  const day = await warehouse.one('SELECT slots FROM london_days WHERE local_date = CAST($tomorrow AS DATE)', { tomorrow: localDate });
  return day?.slots as number | undefined;
}
