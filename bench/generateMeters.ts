// Meters for the growth bench, generated inside DuckDB: `meters` electricity import meters on the
// first tariff, each with a year of half-hourly readings (17,568 from 2023-03-01), written meter
// after meter as a year's import per meter writes them. Nothing is stored in the repository.
import type { Warehouse } from '../src/store/Warehouse.js';
import { FROM, TO } from './costBench.js';

/** Meters a statement writes: a bounded transaction, so memory does not grow with the run. */
const METERS_PER_INSERT = 500;
export const HALF_HOURS_A_YEAR = (Date.parse(TO) - Date.parse(FROM)) / 1_800_000;

/** MPAN of the k-th meter: distributor 19, 8 digits spread over their range (so that each meter's
 *  first 8 characters differ: DuckDB keeps a row group's min/max of a string to 8 bytes), check 001. */
export const MPAN_SQL = (k: string) => `'19' || lpad(CAST(10000000 + ${k} * 8999 AS VARCHAR), 8, '0') || '001'`;

/** The MPAN of meter k, as MPAN_SQL writes it. */
export const mpanOf = (k: number): string => `19${String(10_000_000 + k * 8999).padStart(8, '0')}001`;

export async function generateMeters(w: Warehouse, meters: number, tariff: string): Promise<{ readings: number }> {
  await w.run(`CREATE OR REPLACE TEMP TABLE year_slots AS
    SELECT i, s AS interval_start, s + INTERVAL 30 MINUTE AS interval_end, london_local(s) AS l
    FROM (SELECT i, make_timestamptz(epoch_us(CAST($from AS TIMESTAMPTZ)) + i * 1800000000) AS s
          FROM range(CAST($n AS BIGINT)) AS r(i))`, { from: FROM, n: HALF_HOURS_A_YEAR });
  await w.run(`INSERT INTO meter_points
    SELECT ${MPAN_SQL('k')}, 'electricity', false, ['GROWTH' || CAST(k AS VARCHAR)], NULL, now(), now()
    FROM range(CAST($meters AS BIGINT)) AS r(k)`, { meters });
  await w.run(`INSERT INTO agreements
    SELECT ${MPAN_SQL('k')}, $tariff, CAST($from AS TIMESTAMPTZ), NULL, NULL, now()
    FROM range(CAST($meters AS BIGINT)) AS r(k)`, { meters, tariff, from: FROM });
  for (let first = 0; first < meters; first += METERS_PER_INSERT) {
    // a household's half-hour: 0.08-0.58 kWh, 2.5 times that in the 16:00-20:00 local evening
    await w.run(`INSERT INTO consumption
      WITH readings AS (
          SELECT k, i, interval_start, interval_end, l,
                 round((0.08 + 0.5 * (hash(k, i) % 1000) / 1000.0)
                       * CASE WHEN hour(l.local_start) BETWEEN 16 AND 19 THEN 2.5 ELSE 1 END, 3) AS kwh
          FROM range(CAST($first AS BIGINT), CAST($last AS BIGINT)) AS r(k) CROSS JOIN year_slots)
      SELECT ${MPAN_SQL('k')}, 'GROWTH' || CAST(k AS VARCHAR), interval_start, interval_end, l.local_date, l.settlement_period,
             kwh, kwh, 'kWh', 'file', NULL, NULL, 1
      FROM readings
      ORDER BY k, i`, { first, last: Math.min(meters, first + METERS_PER_INSERT) });
  }
  await w.checkpoint();
  return { readings: meters * HALF_HOURS_A_YEAR };
}
