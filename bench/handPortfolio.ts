// `node dist/bench/handPortfolio.js DB OUT.csv FROM TO TARIFF...`: the floor `tariffs compare
// --all-meters` is held to (growthBench.ts): a bare script that opens the warehouse read-only with
// @duckdb/node-api and writes, as CSV, every meter's year priced under its agreements and each
// tariff, in the best hand-written set-wise SQL for the same rows.
import { DuckDBInstance } from '@duckdb/node-api';

/** Per meter and scenario ('actual' = the agreement in force, and each tariff): days, kWh, energy,
 *  one standing charge per local day (the day-start tariff's, direct debit), totals inc and exc
 *  VAT, half-hours missing a reading or a price. Written by someone who knows the readings are
 *  half-hours on the grid, one serial a meter, and each tariff has one standing charge at a time:
 *  readings joined to rates on the half-hour, grouped by meter, scenario and day, then by meter
 *  and scenario; missing readings are the local day's half-hours less those read. */
export const HANDWRITTEN_PORTFOLIO = `
  WITH scen AS (
    SELECT meter_point, 'actual' AS scenario, tariff_code, valid_from, valid_to FROM agreements
    UNION ALL
    SELECT m.meter_point, t.code, t.code, TIMESTAMPTZ '-infinity', NULL
    FROM meter_points AS m, (SELECT unnest(CAST($tariffs AS VARCHAR[])) AS code) AS t),
  per_day AS (
    SELECT c.meter_point, s.scenario, c.local_date, min(c.interval_start) AS day_start,
           arg_min(s.tariff_code, c.interval_start) AS day_tariff, count(*) AS readings, sum(c.kwh) AS kwh,
           sum(c.kwh * u.value_inc_vat) AS e_inc, sum(c.kwh * u.value_exc_vat) AS e_exc,
           count(*) FILTER (WHERE u.value_inc_vat IS NULL) AS missing_prices
    FROM consumption AS c
    JOIN scen AS s ON s.meter_point = c.meter_point AND c.interval_start >= s.valid_from
     AND (s.valid_to IS NULL OR c.interval_start < s.valid_to)
    LEFT JOIN unit_rates AS u ON u.tariff_code = s.tariff_code AND u.rate_type = 'standard' AND u.valid_from = c.interval_start
    WHERE c.interval_start >= CAST($from AS TIMESTAMPTZ) AND c.interval_start < CAST($to AS TIMESTAMPTZ)
    GROUP BY ALL),
  charged AS (
    SELECT d.*, l.slots - d.readings AS missing_readings, sc.value_inc_vat AS sc_inc, sc.value_exc_vat AS sc_exc
    FROM per_day AS d
    JOIN london_days AS l USING (local_date)
    LEFT JOIN standing_charges AS sc ON sc.tariff_code = d.day_tariff AND sc.payment_method = 'DIRECT_DEBIT'
     AND sc.valid_from <= d.day_start AND (sc.valid_to IS NULL OR d.day_start < sc.valid_to))
  SELECT meter_point, scenario, count(*) AS days, round(sum(kwh), 4) AS kwh, round(sum(e_inc), 4) AS energy_cost_inc_vat,
         round(sum(sc_inc), 4) AS standing_charge_inc_vat, round(sum(e_inc + sc_inc), 4) AS total_inc_vat,
         round(sum(e_exc + sc_exc), 4) AS total_exc_vat, sum(missing_prices) AS missing_prices,
         sum(missing_readings) AS missing_readings, sum(missing_prices + missing_readings) AS missing_half_hours,
         bool_and(missing_prices + missing_readings = 0 AND sc_inc IS NOT NULL) AS complete
  FROM charged GROUP BY meter_point, scenario
  ORDER BY meter_point, scenario <> 'actual', scenario`;

if (process.argv[1]?.endsWith('handPortfolio.js')) {
  const [db, out, from, to, ...tariffs] = process.argv.slice(2) as [string, string, string, string, ...string[]];
  const instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  // COPY takes no parameters: the values go in as literals
  const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;
  const sql = HANDWRITTEN_PORTFOLIO.replace('$tariffs', `[${tariffs.map(literal).join(', ')}]`)
    .replace('$from', literal(from)).replace('$to', literal(to));
  await connection.run(`COPY (${sql}) TO ${literal(out)} (HEADER)`);
  connection.closeSync();
  instance.closeSync();
}
