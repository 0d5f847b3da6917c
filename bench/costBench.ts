// Cost benchmarks: a year of half-hourly consumption of one meter priced under its agreement and
// under 10 tariffs (the tariff_comparison macro) against the best hand-written DuckDB SQL for the
// same totals (checked equal), and the throughput of `tariffs consumption import` on the
// supplier's CSV layout (quick: the same, a shorter file).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tariffComparison } from '../src/analytics/costs.js';
import { importConsumptionFile } from '../src/ingest/importConsumptionFile.js';
import { householdReading } from '../src/sandbox/householdProfile.js';
import type { OpenOptions, Warehouse } from '../src/store/Warehouse.js';
import { HALF_HOUR_MS } from '../src/time/index.js';
import { buildWarehouse } from './analyticsBench.js';
import { round } from './ingestBench.js';

const METER = '2100000000001';
const SERIAL = 'BENCH0001';
/** A year of half-hours: 2023-03-01 … 2024-03-01, local midnights (GMT) both. */
export const FROM = '2023-03-01T00:00:00Z';
export const TO = '2024-03-01T00:00:00Z';
const TARIFFS = 10;

/** The same answer as tariff_comparison — per scenario ('actual' = the agreement in force, and
 *  each tariff): the local days, kWh, energy cost and one standing charge per local day (the
 *  day-start charge, direct debit) inc and exc VAT, totals, and the half-hours missing a reading
 *  or a price — written by someone who knows every rate and reading is a half-hour and each
 *  tariff has one standing charge at a time (so: unit_rates directly, no de-duplication). */
export const HANDWRITTEN_COMPARISON = `
  WITH days AS (
    SELECT local_date, day_start, slots FROM london_days
    WHERE day_start >= CAST($from AS TIMESTAMPTZ) AND day_start < CAST($to AS TIMESTAMPTZ)),
  slots AS (
    SELECT local_date, day_start, day_start + to_minutes(30 * i) AS slot_start
    FROM (SELECT local_date, day_start, unnest(range(slots)) AS i FROM days)),
  scen AS (
    SELECT 'actual' AS scenario, a.tariff_code, a.valid_from, a.valid_to FROM agreements AS a WHERE a.meter_point = $meter
    UNION ALL
    SELECT code, code, TIMESTAMPTZ '-infinity', NULL FROM (SELECT unnest(CAST($tariffs AS VARCHAR[])) AS code)),
  priced AS (
    SELECT s.scenario, t.local_date, t.day_start, t.slot_start, s.tariff_code, c.kwh, u.value_inc_vat, u.value_exc_vat
    FROM slots AS t
    JOIN scen AS s ON t.slot_start >= s.valid_from AND (s.valid_to IS NULL OR t.slot_start < s.valid_to)
    LEFT JOIN consumption AS c ON c.meter_point = $meter AND c.interval_start = t.slot_start
    LEFT JOIN unit_rates AS u ON u.tariff_code = s.tariff_code AND u.rate_type = 'standard' AND u.valid_from = t.slot_start),
  per_day AS (
    SELECT scenario, local_date, any_value(day_start) AS day_start, arg_min(tariff_code, slot_start) AS day_tariff,
           sum(kwh) AS kwh, sum(kwh * value_inc_vat) AS e_inc, sum(kwh * value_exc_vat) AS e_exc,
           count(*) FILTER (WHERE value_inc_vat IS NULL) AS missing_prices,
           count(*) FILTER (WHERE kwh IS NULL) AS missing_readings,
           count(*) FILTER (WHERE value_inc_vat IS NULL OR kwh IS NULL) AS missing_half_hours
    FROM priced GROUP BY scenario, local_date),
  charged AS (
    SELECT d.*, sc.value_inc_vat AS sc_inc, sc.value_exc_vat AS sc_exc
    FROM per_day AS d
    LEFT JOIN standing_charges AS sc ON sc.tariff_code = d.day_tariff AND sc.payment_method = 'DIRECT_DEBIT'
     AND sc.valid_from <= d.day_start AND (sc.valid_to IS NULL OR d.day_start < sc.valid_to))
  SELECT scenario, min(local_date) AS first_date, max(local_date) AS last_date, count(*) AS days, sum(kwh) AS kwh,
         sum(e_inc) AS energy, sum(sc_inc) AS standing,
         sum(coalesce(e_inc, 0) + coalesce(sc_inc, 0)) AS total, sum(coalesce(e_exc, 0) + coalesce(sc_exc, 0)) AS total_exc,
         sum(missing_prices) AS missing_prices, sum(missing_readings) AS missing_readings, sum(missing_half_hours) AS missing_half_hours,
         count(*) FILTER (WHERE sc_inc IS NULL) AS standing_missing_days,
         bool_and(missing_half_hours = 0 AND sc_inc IS NOT NULL) AS complete
  FROM charged GROUP BY scenario
  ORDER BY scenario <> 'actual', scenario`;

/** `count` tariffs of real half-hourly prices (the J series, buildWarehouse), each with a
 *  standing charge (direct debit) from 2020: what a cost question prices consumption against. */
export async function buildPricedWarehouse(file: string, count: number, options: OpenOptions = {}):
  Promise<{ warehouse: Warehouse; tariffs: string[] }> {
  const warehouse = await buildWarehouse(file, count, options);
  const tariffs = (await warehouse.all('SELECT DISTINCT tariff_code FROM unit_rates ORDER BY 1')).map((r) => r.tariff_code as string);
  await warehouse.run(`INSERT INTO standing_charges (tariff_code, valid_from, valid_to, value_exc_vat, value_inc_vat, payment_method, local_date, run_id)
    SELECT code, TIMESTAMPTZ '2020-01-01 00:00:00+00', NULL, 40 + i, round((40 + i) * 1.05, 4), 'DIRECT_DEBIT', DATE '2020-01-01', 1
    FROM (SELECT unnest(CAST($codes AS VARCHAR[])) AS code, generate_subscripts(CAST($codes AS VARCHAR[]), 1) AS i)`,
  { codes: JSON.stringify(tariffs) });
  return { warehouse, tariffs };
}

/** The supplier dashboard's CSV of `days` local days of the household's import from FROM. */
export function supplierCsv(from: number, halfHours: number): string {
  const lines = ['Consumption (kwh), Estimated Cost Inc. Tax (p), Standing Charge Inc. Tax (p), Start, End'];
  for (let i = 0; i < halfHours; i++) {
    const start = from + i * HALF_HOUR_MS;
    const kwh = householdReading('import', start);
    lines.push(`${kwh}, ${(kwh * 24.5).toFixed(2)}, 1.01, ${new Date(start).toISOString().replace('.000Z', '+00:00')}, ${new Date(start + HALF_HOUR_MS).toISOString().replace('.000Z', '+00:00')}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function costBench(quick: boolean, log: (line: string) => void):
  Promise<{ results: Record<string, number>; details: Record<string, unknown> }> {
  const dir = mkdtempSync(join(tmpdir(), 'tariffs-bench-cost-'));
  const results: Record<string, number> = {};
  const details: Record<string, unknown> = {};
  try {
    const { warehouse, tariffs } = await buildPricedWarehouse(join(dir, 'cost.duckdb'), TARIFFS);
    try {
      await warehouse.run(`INSERT INTO agreements VALUES ($meter, $tariff, CAST($from AS TIMESTAMPTZ), NULL, NULL, now())`,
        { meter: METER, tariff: tariffs[0]!, from: FROM });

      // import throughput: the supplier's CSV layout, one transaction per file
      const from = Date.parse(FROM);
      const halfHours = (Date.parse(TO) - from) / HALF_HOUR_MS;
      const text = supplierCsv(from, quick ? halfHours : halfHours);
      const started = performance.now();
      const imported = await importConsumptionFile(warehouse, {
        text, source: 'bench.csv', meter: { meterPoint: METER, serial: SERIAL }, isExport: false, fuel: 'electricity',
        unit: 'kWh', calorificValue: 39.5,
      });
      const importSeconds = (performance.now() - started) / 1000;
      results.consumption_import_rows_per_second = Math.round(imported.inserted / importSeconds);
      details.import = { rows: imported.inserted, seconds: round(importSeconds), bytes: text.length };
      log(`consumption import: ${imported.inserted} rows in ${importSeconds.toFixed(2)} s`);

      // a year against 10 tariffs: the macro vs the hand-written SQL, best of several runs each
      const request = { meter: METER, tariffs, payment: 'DIRECT_DEBIT' as const, from: new Date(FROM), to: new Date(TO) };
      const params = { meter: METER, tariffs: JSON.stringify(tariffs), from: FROM, to: TO };
      const runs = quick ? 9 : 21; // best of: each run is short, so noise is large
      let macroBest = Infinity;
      let handBest = Infinity;
      let macroRows: Record<string, unknown>[] = [];
      let handRows: Record<string, unknown>[] = [];
      for (let i = 0; i < runs; i++) {
        let t = performance.now();
        macroRows = await tariffComparison(warehouse, request);
        macroBest = Math.min(macroBest, (performance.now() - t) / 1000);
        t = performance.now();
        handRows = await warehouse.all(HANDWRITTEN_COMPARISON, params);
        handBest = Math.min(handBest, (performance.now() - t) / 1000);
      }
      assertSameTotals(macroRows, handRows);
      results.cost_comparison_vs_handwritten_ratio = round(macroBest / handBest);
      details.comparison = {
        half_hours: imported.inserted, tariffs: tariffs.length, scenarios: macroRows.length,
        macro_seconds: round(macroBest), handwritten_seconds: round(handBest), answers_equal: true,
      };
      log(`cost of a year against ${tariffs.length} tariffs: macro ${macroBest.toFixed(3)} s, hand-written ${handBest.toFixed(3)} s`);
    } finally {
      warehouse.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { results, details };
}

function assertSameTotals(macro: Record<string, unknown>[], hand: Record<string, unknown>[]): void {
  const close = (a: unknown, b: unknown) => Math.abs(Number(a) - Number(b)) <= 1e-6 * Math.max(1, Math.abs(Number(b)));
  const same = macro.length === hand.length && macro.every((m, i) => {
    const h = hand[i]!;
    return m.scenario === h.scenario && m.complete === h.complete && m.days === Number(h.days)
      && String(m.first_date) === String(h.first_date) && String(m.last_date) === String(h.last_date)
      && close(m.kwh, h.kwh) && close(m.energy_cost_inc_vat, h.energy) && close(m.standing_charge_inc_vat, h.standing)
      && close(m.total_inc_vat, h.total) && close(m.total_exc_vat, h.total_exc)
      && m.missing_prices === Number(h.missing_prices) && m.missing_readings === Number(h.missing_readings)
      && m.missing_half_hours === Number(h.missing_half_hours) && m.standing_charge_missing_days === Number(h.standing_missing_days);
  });
  if (!same) throw new Error(`cost bench: the macro and the hand-written SQL disagree:\n${JSON.stringify({ macro, hand }, null, 1).slice(0, 3000)}`);
}
