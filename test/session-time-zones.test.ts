// Every view and macro of sql/ answers the same whatever the DuckDB session's TimeZone (issue 25):
// analysts' clients run in their machine's zone, the CLI's connection in UTC. On the demo's
// warehouse (real prices with negatives and both clock changes, the household's consumption), a
// hole on a fall-back day, a supplier CSV, the event fixtures and the Intelligent Octopus Go
// household, connections in UTC, Europe/London, America/New_York and Australia/Sydney run every
// view, every macro (arguments in MACRO_CALLS) and every README SQL example; each must give the
// UTC answer. Instants compare as epoch microseconds, doubles to 1e-9 relative.
import { createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DuckDBConnection, DuckDBDateValue, DuckDBDecimalValue, DuckDBInstance, DuckDBIntervalValue, DuckDBListValue,
  DuckDBStructValue, DuckDBTimestampTZValue, DuckDBTimestampValue, type DuckDBValue,
} from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEvents } from '../src/events/loadEvents.js';
import { importConsumptionFile } from '../src/ingest/importConsumptionFile.js';
import { COMPLETED_DISPATCHES, EV_HOUSEHOLD, SANDBOX_EV_ACCOUNT, SANDBOX_EV_DEVICE } from '../src/sandbox/startSandbox.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { recordDispatchFetch, writeDispatches } from '../src/store/writeDispatches.js';
import { writeOptionalOutcomes } from '../src/store/optionalResources.js';
import { writeProductChanges } from '../src/store/writeProductChanges.js';
import { costScopeLiterals } from './helpers/costScope.js';
import { copyOfDemoWarehouse } from './helpers/demoWarehouse.js';
import { markdownFiles, REPO } from './helpers/markdownBlocks.js';
import { tempDir } from './helpers/warehouseTools.js';

const ZONES = ['UTC', 'Europe/London', 'America/New_York', 'Australia/Sydney'] as const;
const HH = 1_800_000;

// The demo's tariffs and the sandbox household's meters (data/sandbox/README.md).
const J = 'E-1R-AGILE-18-02-21-J';
const A = 'E-1R-AGILE-18-02-21-A';
const OUTGOING = 'E-1R-AGILE-OUTGOING-19-05-13-C';
const VAR = 'E-1R-VAR-17-01-11-A'; // long rates 2017-2020, the last open-ended
const DAY_NIGHT = 'E-2R-VAR-22-11-01-A'; // open-ended day and night rates, two payment methods
const EV = 'E-2R-EV-SANDBOX-24-01-01-L'; // four-rate EV: night band 23:30-05:30
const IMPORT = '2000000000011';
const IMPORT_SERIAL = '23J0000001';
const EXPORT = '2000000000012';
const GAS = '3000000001';

/** The real hole: Agile J's 01:30 BST and first 01:00 GMT of the fall-back day 2023-10-29. */
const HOLE = { tariff: J, date: '2023-10-29', from: '2023-10-29T00:30:00Z', to: '2023-10-29T01:30:00Z' };
/** The supplier's CSV covers these two weeks of the import meter (both clock changes). */
const SUPPLIER_WEEKS: [string, string][] = [['2023-03-20T00:00:00Z', '2023-04-03T00:00:00Z'], ['2023-10-22T00:00:00Z', '2023-11-05T00:00:00Z']];

// Ranges as an analyst writes them: instants with an explicit offset. Each spans a clock change:
// London's (last Sundays of March and October), New York's (second Sunday of March, first of
// November) or Sydney's (first Sundays of April and October).
const ts = (text: string) => `TIMESTAMPTZ '${text}'`;
const J_FALL = `${ts('2023-10-27 00:00:00+01')}, ${ts('2023-11-01 00:00:00+00')}`; // with the hole
const J_SPRING = `${ts('2024-03-29 00:00:00+00')}, ${ts('2024-04-02 00:00:00+01')}`;
const J_SYDNEY = `${ts('2023-03-31 00:00:00+01')}, ${ts('2023-04-04 00:00:00+01')}`; // Sydney 2023-04-02
const J_NEGATIVE = `${ts('2023-10-01 00:00:00+01')}, ${ts('2024-04-20 00:00:00+01')}`; // negative prices, both clock changes
const A_FALL = `${ts('2020-10-24 00:00:00+01')}, ${ts('2020-10-27 00:00:00+00')}`;
const VAR_MARCH = `${ts('2020-03-06 00:00:00+00')}, ${ts('2020-03-31 00:00:00+01')}`; // New York 03-08, London 03-29
const EV_FALL = `${ts('2024-10-25 00:00:00+01')}, ${ts('2024-10-29 00:00:00+00')}`;
const EV_SPRING = `${ts('2025-03-28 00:00:00+00')}, ${ts('2025-04-01 00:00:00+01')}`;
const DN_MARCH = `${ts('2024-03-08 00:00:00+00')}, ${ts('2024-04-02 00:00:00+01')}`; // New York 03-10, London 03-31
const COST_SPRING = `${ts('2023-03-20 00:00:00+00')}, ${ts('2023-04-05 00:00:00+01')}`; // London 03-26, Sydney 04-02
const COST_FALL = `${ts('2023-10-27 12:00:00+01')}, ${ts('2023-11-07 12:00:00+00')}`; // London 10-29, New York 11-05
const MONTHS_SPRING = `${ts('2023-03-01 00:00:00+00')}, ${ts('2023-05-01 00:00:00+01')}`;
const MONTHS_FALL = `${ts('2023-10-01 00:00:00+01')}, ${ts('2023-12-01 00:00:00+00')}`; // Sydney 10-01 too

/** Representative calls of every macro (a query naming it); the test fails for a macro not listed. */
/** The export's cost scope over the fall-back fortnight (cost_meters as the cost macros take it). */
/** The export's cost scope as the export binds it: a value, the list cost_meters gives on this
 *  warehouse (test/helpers/costScope.ts), put in before the calls run. */
const SCOPE_CALL = `cost_meters(['${J}'], ${COST_FALL})`;
const COST_SCOPE = '{cost scope}';
const COST_SCOPE_METERS = '{cost scope meters}';

const MACRO_CALLS: Record<string, string[]> = {
  cheapest_slots: [
    `SELECT * FROM cheapest_slots('${J}', 6, ${J_FALL})`,
    `SELECT * FROM cheapest_slots('${J}', 4, ${J_SPRING}, highest := true, latest := true)`,
    `SELECT * FROM cheapest_slots('${EV}', 3, ${EV_FALL}, length_mode := 'at_least')`,
    `SELECT * FROM cheapest_slots('${J}', 5, NULL, NULL, max_price := -10, length_mode := 'at_most')`,
    // per local day (50 half-hours on the fall-back day), weighted by instant (issue 28)
    `SELECT * FROM cheapest_slots('${J}', 6, ${J_FALL}, per := 'day', slot_weights := (SELECT list({slot_start: slot_start, weight: 1 + (settlement_period % 3)}) FROM rate_slots WHERE tariff_code = '${J}' AND local_date = DATE '2023-10-29'))`,
  ],
  cheapest_window: [
    `SELECT * FROM cheapest_window('${J}', 4, ${J_FALL})`,
    `SELECT * FROM cheapest_window('${J}', 3, ${J_SYDNEY}, weights := [2, 1, 1], latest := true)`,
    `SELECT * FROM cheapest_window('${A}', 48, ${A_FALL}, highest := true)`,
    `SELECT * FROM cheapest_window('${DAY_NIGHT}', 6, ${DN_MARCH}, max_price := 20)`,
  ],
  cheapest_window_per_day: [
    `SELECT * FROM cheapest_window_per_day('${J}', 3, ${J_FALL})`,
    `SELECT * FROM cheapest_window_per_day('${J}', 3, ${J_SPRING}, weights := [2, 1, 1], latest := true)`,
    `SELECT * FROM cheapest_window_per_day('${OUTGOING}', 4, ${COST_FALL}, highest := true)`,
    `SELECT * FROM cheapest_window_per_day('${EV}', 4, ${EV_SPRING})`,
    // flat prices, latest on ties: each day's last two half-hours, whose settlement periods
    // (47 and 48 on the day New York's clocks go forward) choose the window
    `SELECT * FROM cheapest_window_per_day('${VAR}', 2, ${VAR_MARCH}, latest := true)`,
    `SELECT * FROM cheapest_window_per_day('${DAY_NIGHT}', 2, ${DN_MARCH}, latest := true, min_price := 0)`,
  ],
  cheapest_window_in_band: [
    `SELECT * FROM cheapest_window_in_band('${J}', 4, 23 * 60, 7 * 60, ${J_FALL})`,
    `SELECT * FROM cheapest_window_in_band('${J}', 4, 23 * 60, 7 * 60, ${J_SPRING}, highest := true)`,
    `SELECT * FROM cheapest_window_in_band('${EV}', 2, 1380, 420, ${EV_FALL})`,
    `SELECT * FROM cheapest_window_in_band('${A}', 3, 16 * 60, 19 * 60, ${A_FALL}, weights := [3, 2, 1])`,
  ],
  eligible_slots: [
    `SELECT * FROM eligible_slots('${J}', ${J_FALL}, NULL, NULL)`,
    `SELECT * FROM eligible_slots('${DAY_NIGHT}', ${DN_MARCH}, 0, 20)`,
  ],
  price_windows: [
    `SELECT * FROM price_windows('${J}', 2, ${ts('2020-05-23 00:00:00Z')}, ${ts('2020-05-25 00:00:00Z')}, per := 'day', max_price := 0, length_mode := 'at_least')`,
    `SELECT * FROM price_windows('${J}', 4, ${J_FALL}, per := 'band', band_start_minutes := 1380, band_end_minutes := 420, max_price := 15, length_mode := 'at_most')`,
    `SELECT * FROM price_windows('${J}', NULL, ${J_SPRING}, weights := [2, 1, 1])`,
    `SELECT * FROM price_windows('${EV}', 3, ${EV_FALL}, per := 'day')`,
    `SELECT * FROM price_windows('${J}', 3, ${J_FALL}, per := 'day', weights := [2, 1], slot_weights := (SELECT list({slot_start: slot_start, weight: 1 + (settlement_period % 3)}) FROM rate_slots WHERE tariff_code = '${J}' AND local_date = DATE '2023-10-29'))`,
  ],
  selection_blocks: [
    // intermittent half-hours of each local day around the fall-back night, an hour early
    `SELECT * FROM selection_blocks((SELECT list({payment_method: payment_method, rate_type: rate_type, slot_start: start, value_inc_vat: value_inc_vat, value_exc_vat: value_exc_vat}) FROM cheapest_slots('${J}', 8, ${J_FALL}, per := 'day')), ${ts('2023-10-29 01:15:00+00')}, offset_minutes := -60)`,
    `SELECT * FROM selection_blocks((SELECT list({payment_method: w.payment_method, rate_type: w.rate_type, slot_start: s.slot_start, value_inc_vat: s.value_inc_vat, value_exc_vat: s.value_exc_vat}) FROM cheapest_window_per_day('${EV}', 4, ${EV_SPRING}) AS w JOIN rate_slots_for(['${EV}'], ${EV_SPRING}) AS s ON s.tariff_code = w.tariff_code AND s.slot_start >= w.start AND s.slot_start < w."end"), ${ts('2025-03-30 03:00:00+01')})`,
  ],
  rate_slots_for: [
    // banded long rates and day/night rates expanded over a London (and New York) clock change
    `SELECT * FROM rate_slots_for(['${EV}', '${DAY_NIGHT}'], ${DN_MARCH})`,
    `SELECT * FROM rate_slots_for(['${J}', '${VAR}'], ${COST_FALL})`,
    // the arguments as subqueries, as the cost macros pass them
    `SELECT * FROM rate_slots_for((SELECT list(DISTINCT tariff_code) FROM agreements), (SELECT min(interval_start) FROM consumption), ${ts('2023-04-05 00:00:00+01')})`,
  ],
  range_coverage: [
    `SELECT * FROM range_coverage('${J}', ${J_FALL})`,
    `SELECT * FROM range_coverage('${J}', NULL, NULL)`,
    `SELECT * FROM range_coverage('${J}', ${ts('2024-05-14 00:00:00+01')}, ${ts('2024-05-16 00:00:00+01')})`,
    `SELECT * FROM range_coverage('${VAR}', ${VAR_MARCH})`,
  ],
  region_comparison: [
    `SELECT * FROM region_comparison('AGILE-18-02-21', ${A_FALL})`,
    `SELECT * FROM region_comparison('AGILE-24-10-01', ${ts('2025-03-28 00:00:00+00')}, ${ts('2026-04-01 00:00:00+01')})`,
  ],
  // (each cost macro call takes seconds: one or two each)
  consumption_pricing: [
    `SELECT * FROM consumption_pricing('${IMPORT}', ['actual', '${J}', '${VAR}'], ${COST_FALL})`,
    `SELECT * FROM consumption_pricing('${IMPORT}:${IMPORT_SERIAL}', ['actual'], ${COST_SPRING}, whole_days := true)`,
  ],
  half_hour_costs: [`SELECT * FROM half_hour_costs('${IMPORT}', NULL, ${COST_SPRING})`],
  portfolio_pricing: [
    `SELECT * FROM portfolio_pricing(['actual', '${J}'], ${COST_FALL}, mismatches := 'skip')`,
    `SELECT * FROM portfolio_pricing(['actual'], ${COST_SPRING}, meters := ['${IMPORT}:${IMPORT_SERIAL}', '${GAS}'], whole_days := true)`,
  ],
  portfolio_daily_costs: [`SELECT * FROM portfolio_daily_costs(['actual', '${VAR}'], ${COST_FALL}, mismatches := 'skip')`],
  portfolio_monthly_costs: [`SELECT * FROM portfolio_monthly_costs(['actual', '${J}', '${OUTGOING}'], ${MONTHS_FALL}, mismatches := 'skip')`],
  portfolio_comparison: [`SELECT * FROM portfolio_comparison(['${J}', '${VAR}', '${OUTGOING}'], ${MONTHS_SPRING}, mismatches := 'skip')`],
  daily_costs: [`SELECT * FROM daily_costs('${GAS}', NULL, ${COST_FALL})`],
  // as of the fall-back and spring-forward days, in the morning and just before midnight
  meter_freshness_at: [
    `SELECT * FROM meter_freshness_at(TIMESTAMPTZ '2023-10-29 08:00:00+00')`,
    `SELECT * FROM meter_freshness_at(TIMESTAMPTZ '2024-03-31 22:59:00+00')`,
  ],
  monthly_costs: [`SELECT * FROM monthly_costs('${IMPORT}', '${J}', NULL, NULL, payment := 'NON_DIRECT_DEBIT')`],
  scenario_daily_costs: [
    `SELECT * FROM scenario_daily_costs('${IMPORT}', ['actual', '${J}', '${VAR}', '${DAY_NIGHT}'], ${COST_FALL})`,
  ],
  scenario_monthly_costs: [`SELECT * FROM scenario_monthly_costs('${IMPORT}', ['actual', '${J}'], ${MONTHS_FALL})`],
  tariff_comparison: [`SELECT * FROM tariff_comparison('${IMPORT}', ['${J}', '${VAR}'], ${MONTHS_SPRING})`],
  net_costs: [`SELECT * FROM net_costs('${IMPORT}', '${EXPORT}', ${MONTHS_SPRING})`],
  effective_rates_with: [
    `SELECT * FROM effective_rates_with('default') WHERE slot_start >= ${ts('2024-10-25 00:00:00+01')} AND slot_start < ${ts('2024-10-29 00:00:00+00')}`,
    `SELECT * FROM effective_rates_with('planned', meter := '${EV_HOUSEHOLD.mpan}') WHERE local_date BETWEEN DATE '2024-10-26' AND DATE '2024-10-27'`,
    `SELECT * FROM effective_rates_with('none') WHERE slot_start >= ${ts('2024-03-29 00:00:00+00')} AND slot_start < ${ts('2024-04-02 00:00:00+01')}`,
  ],
  off_peak_periods_with: [
    `SELECT * FROM off_peak_periods_with('completed') WHERE start >= ${ts('2024-03-29 00:00:00+00')} AND start < ${ts('2024-04-02 00:00:00+01')}`,
    `SELECT * FROM off_peak_periods_with('default') WHERE local_date BETWEEN DATE '2024-10-25' AND DATE '2024-10-28'`,
  ],
  london_iso: [
    `SELECT t, london_iso(t) FROM generate_series(${ts('2023-03-25 22:00:00+00')}, ${ts('2023-03-26 04:00:00+00')}, INTERVAL 30 MINUTE) AS g(t)`,
    `SELECT t, london_iso(t) FROM generate_series(${ts('2023-10-28 22:00:00+00')}, ${ts('2023-10-29 04:00:00+00')}, INTERVAL 30 MINUTE) AS g(t)`,
  ],
  london_local: [
    `SELECT t, london_local(t) AS l FROM generate_series(${ts('2023-03-25 22:00:00+00')}, ${ts('2023-03-26 04:00:00+00')}, INTERVAL 30 MINUTE) AS g(t)`,
    `SELECT t, london_local(t) AS l FROM generate_series(${ts('2023-10-28 22:00:00+00')}, ${ts('2023-10-29 04:00:00+00')}, INTERVAL 30 MINUTE) AS g(t)`,
    // Sydney's and New York's own changes: nothing happens in London
    `SELECT t, london_local(t) AS l FROM generate_series(${ts('2023-04-01 12:00:00+00')}, ${ts('2023-04-02 12:00:00+00')}, INTERVAL 30 MINUTE) AS g(t)`,
    `SELECT t, london_local(t) AS l FROM generate_series(${ts('2023-11-05 00:00:00+00')}, ${ts('2023-11-05 12:00:00+00')}, INTERVAL 30 MINUTE) AS g(t)`,
  ],
  london_wall: [
    `SELECT t, london_wall(t) FROM generate_series(${ts('2023-03-25 22:00:00+00')}, ${ts('2023-03-26 04:00:00+00')}, INTERVAL 30 MINUTE) AS g(t)`,
    `SELECT t, london_wall(t) FROM generate_series(${ts('2023-10-28 22:00:00+00')}, ${ts('2023-10-29 04:00:00+00')}, INTERVAL 30 MINUTE) AS g(t)`,
  ],
  london_offset_minutes: [
    `SELECT t, london_offset_minutes(t) FROM generate_series(${ts('2023-03-25 22:00:00+00')}, ${ts('2023-03-26 04:00:00+00')}, INTERVAL 30 MINUTE) AS g(t)`,
    `SELECT t, london_offset_minutes(t) FROM generate_series(${ts('2023-10-28 22:00:00+00')}, ${ts('2023-10-29 04:00:00+00')}, INTERVAL 30 MINUTE) AS g(t)`,
  ],
  tariff_fuel: [`SELECT tariff_code, tariff_fuel(tariff_code) AS fuel, tariff_fuel('G-1R-NOPE-99-A') AS gas, tariff_fuel('X') AS neither FROM tariffs`],
  tariff_direction: [`SELECT tariff_code, tariff_direction(tariff_code) AS direction, tariff_direction('E-1R-OUTGOING-NOPE-A') AS outgoing FROM tariffs`],
  tariff_mismatch: [`SELECT m.meter_point, t.tariff_code, tariff_mismatch(m.meter_point, t.tariff_code) AS why FROM meter_points AS m, tariffs AS t`],
  // the page's, the status facts', the export reports' and issue 55's macros, and the rounding
  round_price: [`SELECT tariff_code, valid_from, round_price(value_inc_vat / 3) AS third FROM unit_rates WHERE tariff_code = '${J}' ORDER BY ALL LIMIT 500`],
  round_gbp: [`SELECT interval_start, round_gbp(kwh * 24.5) AS pounds FROM consumption WHERE meter_point = '${IMPORT}' ORDER BY ALL LIMIT 500`],
  series_label: [`SELECT DISTINCT tariff_code, payment_method, rate_type, series_label(tariff_code, payment_method, rate_type) AS label FROM unit_rates ORDER BY ALL`],
  best_window_per_day: [`SELECT * FROM best_window_per_day(['${J}', '${EV}'], 4, ${J_FALL})`, `SELECT * FROM best_window_per_day(['${EV}'], 4, ${EV_SPRING})`],
  recent_day_prices: [`SELECT * FROM recent_day_prices(['${J}'], 3, ${J_FALL})`],
  household_costs: [`SELECT * FROM household_costs('${IMPORT}', ['${J}', '${VAR}'], ${COST_FALL})`],
  daily_use: [`SELECT * FROM daily_use('${IMPORT}', ${COST_FALL})`],
  tariffs_with_slots: [`SELECT * FROM tariffs_with_slots(${J_FALL})`],
  quiet_tariffs: [`SELECT * FROM quiet_tariffs(${ts('2100-01-01 00:00:00+00')})`],
  report_cheapest_per_day: [`SELECT * FROM report_cheapest_per_day(['${J}'], 4, ${J_FALL})`],
  report_negative_slots: [`SELECT * FROM report_negative_slots(['${J}'], ${J_NEGATIVE})`, `SELECT * FROM report_negative_slots(NULL, ${A_FALL})`],
  report_negative_runs: [`SELECT * FROM report_negative_runs(['${J}'], ${J_NEGATIVE})`],
  report_half_hourly_prices: [`SELECT * FROM report_half_hourly_prices(['${J}', '${EV}'], ${J_FALL})`],
  cost_meters: [`SELECT * FROM cost_meters(['${J}', '${VAR}'], ${COST_FALL})`],
  scope_monthly_costs: [`SELECT * FROM scope_monthly_costs(${COST_SCOPE}, ['actual', '${J}'], ${COST_SCOPE_METERS}, ${COST_FALL}, 'DIRECT_DEBIT')`],
  scope_comparison: [`SELECT * FROM scope_comparison(${COST_SCOPE}, ['${J}'], ${COST_SCOPE_METERS}, ${COST_FALL}, 'DIRECT_DEBIT')`],
  // the costs computed once, as the export's temp tables hold them
  report_monthly_costs: [`WITH costs AS MATERIALIZED (SELECT list(c) AS costs FROM scope_monthly_costs(${COST_SCOPE}, ['actual', '${J}'], ${COST_SCOPE_METERS}, ${COST_FALL}, 'DIRECT_DEBIT') AS c)
    SELECT * FROM report_monthly_costs(${COST_SCOPE}, (SELECT costs FROM costs))`],
  report_tariff_comparison: [`WITH costs AS MATERIALIZED (SELECT list(c) AS costs FROM scope_comparison(${COST_SCOPE}, ['${J}'], ${COST_SCOPE_METERS}, ${COST_FALL}, 'DIRECT_DEBIT') AS c)
    SELECT * FROM report_tariff_comparison(${COST_SCOPE}, (SELECT costs FROM costs))`],
  expected_use: [`SELECT * FROM expected_use('${IMPORT}', ${ts('2023-10-28 17:00:00+01')})`, `SELECT * FROM expected_use('${IMPORT}', ${ts('2024-03-30 17:00:00+00')})`],
  tariffs_on_sale: [`SELECT * FROM tariffs_on_sale('${IMPORT}', ${ts('2023-10-28 17:00:00+01')})`, `SELECT * FROM tariffs_on_sale('${EXPORT}', ${ts('2023-10-28 17:00:00+01')}, region := 'C')`],
  compare_ahead: [`SELECT * FROM compare_ahead('${IMPORT}', ${ts('2023-10-28 17:00:00+01')}, 'tomorrow', tariffs := ['${J}', '${VAR}'])`],
  seasonal_scale: [`SELECT * FROM seasonal_scale('${IMPORT}', ${ts('2024-02-28 17:00:00+00')})`],
};

/** Results longer than this are compared by a digest computed in DuckDB (rate_slots: ~780k rows):
 *  exact, so for stored values only (a sum of doubles varies in its last bits from run to run). */

// ---- answers as plain values --------------------------------------------------------------------
/** A value with instants as epoch microseconds (never rendered in the session's zone). */
function plain(value: DuckDBValue): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return `${value}`;
  if (value instanceof DuckDBTimestampTZValue) return `instant_us:${value.micros}`;
  if (value instanceof DuckDBTimestampValue) return `wall_us:${value.micros}`;
  if (value instanceof DuckDBDateValue) return `date:${value.days}`;
  if (value instanceof DuckDBIntervalValue) return `interval:${value.months}/${value.days}/${value.micros}`;
  if (value instanceof DuckDBDecimalValue) return value.toString();
  if (value instanceof DuckDBListValue) return value.items.map(plain);
  if (value instanceof DuckDBStructValue) return Object.fromEntries(Object.entries(value.entries).map(([k, v]) => [k, plain(v)]));
  return String(value);
}

interface Answer {
  columns: string[];
  types: string[];
  rows?: unknown[][];
  /** The row count, and per column the sum of its values' hashes (an instant hashes as itself). */
  digest?: Record<string, string>;
}

async function answer(connection: DuckDBConnection, sql: string, digest: boolean): Promise<Answer> {
  if (digest) {
    const reader = await connection.runAndReadAll(`SELECT * FROM (${sql}) LIMIT 0`);
    const columns = reader.columnNames();
    // doubles to 9 significant digits: a mean's last bits depend on how DuckDB's threads combined it
    const types = reader.columnTypes().map(String);
    const sums = (await connection.runAndReadAll(`SELECT count(*), ${
      columns.map((c, i) => `sum(CAST(hash(${/^(DOUBLE|FLOAT)$/.test(types[i]!) ? `CAST(CAST("${c}" AS DECIMAL(38, 9)) AS VARCHAR)` : `"${c}"`}) AS HUGEINT))`).join(', ')} FROM (${sql})`)).getRows()[0]!;
    return {
      columns, types: reader.columnTypes().map(String),
      digest: Object.fromEntries(['(rows)', ...columns].map((c, i) => [c, String(sums[i])])),
    };
  }
  const reader = await connection.runAndReadAll(`SELECT * FROM (${sql}) ORDER BY ALL`);
  return { columns: reader.columnNames(), types: reader.columnTypes().map(String), rows: reader.getRows().map((r) => r.map(plain)) };
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

/** What differs from the UTC answer, or undefined. */
function difference(utc: Answer, other: Answer): string | undefined {
  if (!same(utc.columns, other.columns) || !same(utc.types, other.types)) return `columns ${other.columns} ${other.types}`;
  if (utc.digest) {
    const differing = Object.keys(utc.digest).filter((k) => utc.digest![k] !== other.digest![k]);
    return differing.length === 0 ? undefined
      : `${other.digest!['(rows)']} rows vs ${utc.digest['(rows)']} in UTC; the values differ in ${differing.join(', ')}`;
  }
  const a = utc.rows!;
  const b = other.rows!;
  const i = a.findIndex((row, k) => !same(row, b[k]));
  if (i < 0 && a.length === b.length) return undefined;
  const at = i < 0 ? Math.min(a.length, b.length) : i;
  return `${b.length} rows vs ${a.length} in UTC; row ${at}: ${JSON.stringify(b[at])} vs UTC ${JSON.stringify(a[at])}`;
}

// ---- the warehouse and the sessions -------------------------------------------------------------
const tmp = tempDir('tariffs-session-tz-');
const db = tmp.file('demo.duckdb');
let instance: DuckDBInstance;
let scope: { scope: string; meters: string };
const sessions = new Map<string, DuckDBConnection>();
const utc = () => sessions.get('UTC')!;

/** The supplier's CSV of the import meter's own readings: estimates at the agreement's price. */
async function supplierCsv(warehouse: Warehouse): Promise<string> {
  const lines = ['Consumption (kwh), Estimated Cost Inc. Tax (p), Standing Charge Inc. Tax (p), Start, End'];
  for (const [from, to] of SUPPLIER_WEEKS) {
    const rows = await warehouse.all(`
      SELECT c.interval_start, c.kwh, r.value_inc_vat AS price, d.slots AS day_slots
      FROM consumption AS c
      JOIN agreements AS a ON a.meter_point = c.meter_point AND c.interval_start >= a.valid_from
                          AND c.interval_start < coalesce(a.valid_to, TIMESTAMPTZ 'infinity')
      JOIN unit_rates AS r ON r.tariff_code = a.tariff_code AND r.rate_type = 'standard'
                          AND r.valid_from <= c.interval_start AND (r.valid_to IS NULL OR r.valid_to > c.interval_start)
      JOIN london_days AS d ON d.local_date = c.local_date
      WHERE c.meter_point = $mp AND c.serial = $serial
        AND c.interval_start >= CAST($from AS TIMESTAMPTZ) AND c.interval_start < CAST($to AS TIMESTAMPTZ)
      ORDER BY c.interval_start`, { mp: IMPORT, serial: IMPORT_SERIAL, from, to });
    for (const row of rows) {
      const start = Date.parse(String(row.interval_start));
      const kwh = Number(row.kwh);
      // a 55 p/day standing charge, shared over the day's half-hours as the dashboard shows it
      lines.push([kwh, (kwh * Number(row.price)).toFixed(2), (55 / Number(row.day_slots)).toFixed(2),
        new Date(start).toISOString(), new Date(start + HH).toISOString()].join(', '));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The sandbox's Intelligent Octopus Go household as `ingest --account` stores it: its meter point
 *  and EV agreement, its completed dispatches (fetched 2024-11-01) and one plan of 2024-10-27. */
async function addIogHousehold(warehouse: Warehouse): Promise<void> {
  const seen = '2024-11-01T00:00:00Z';
  await warehouse.run(`INSERT INTO meter_points VALUES ($mp, 'electricity', false, [$serial], $account, CAST($seen AS TIMESTAMPTZ), CAST($seen AS TIMESTAMPTZ))`,
    { mp: EV_HOUSEHOLD.mpan, serial: EV_HOUSEHOLD.serial, account: SANDBOX_EV_ACCOUNT, seen });
  await warehouse.run(`INSERT INTO agreements VALUES ($mp, $tariff, CAST($from AS TIMESTAMPTZ), NULL, $account, CAST($seen AS TIMESTAMPTZ))`,
    { mp: EV_HOUSEHOLD.mpan, tariff: EV_HOUSEHOLD.tariff, from: EV_HOUSEHOLD.agreementFrom, account: SANDBOX_EV_ACCOUNT, seen });
  const span = (start: string, end: string) => ({ start: Date.parse(start), end: Date.parse(end), deltaKwh: -3, type: 'SMART', source: null, location: null });
  await writeDispatches(warehouse, 'planned', SANDBOX_EV_ACCOUNT, SANDBOX_EV_DEVICE,
    [span('2024-10-27T13:00:00Z', '2024-10-27T14:00:00Z'), span('2024-10-27T16:00:00Z', '2024-10-27T17:30:00Z')], new Date('2024-10-27T12:00:00Z'), 1);
  await writeDispatches(warehouse, 'completed', SANDBOX_EV_ACCOUNT, '',
    COMPLETED_DISPATCHES.map((d) => ({ ...span(d.start, d.end), type: null })), new Date(seen), 1);
  await recordDispatchFetch(warehouse, { accountNumber: SANDBOX_EV_ACCOUNT, kind: 'completed', outcome: 'ok', listed: COMPLETED_DISPATCHES.length }, new Date(seen), 1);
}

beforeAll(async () => {
  await copyOfDemoWarehouse(db);
  const warehouse = await Warehouse.open(db);
  try {
    await warehouse.run(`DELETE FROM unit_rates WHERE tariff_code = $tariff
      AND valid_from >= CAST($from AS TIMESTAMPTZ) AND valid_from < CAST($to AS TIMESTAMPTZ)`, HOLE);
    await importConsumptionFile(warehouse, {
      text: await supplierCsv(warehouse), source: 'supplier.csv', meter: { meterPoint: IMPORT, serial: IMPORT_SERIAL },
      isExport: false, fuel: 'electricity', unit: 'kWh', calorificValue: 39.5,
    });
    for (const name of ['agreements.jsonl', 'sample.jsonl']) {
      const file = fileURLToPath(new URL(`./fixtures/events/${name}`, import.meta.url));
      await loadEvents(warehouse, createReadStream(file), { source: file });
    }
    await addIogHousehold(warehouse);
    // what a products refresh and an ingest record when a product leaves the list and a
    // tariff's standing charges answer 404 (withdrawn_tariffs, missing_optional_resources)
    await writeProductChanges(warehouse, [{ code: 'VAR-22-11-01', change: 'withdrawn' }], new Date('2024-11-01T00:00:00Z'));
    await writeOptionalOutcomes(warehouse, 1, new Date('2024-11-01T00:00:00Z'),
      [[EV, 'standing_charges', 'missing', 404, 'HTTP_STATUS', 'http://127.0.0.1/standing-charges/']]);
    await warehouse.checkpoint();
  } finally {
    warehouse.close();
  }
  scope = await costScopeLiterals(db, SCOPE_CALL);
  // An analyst's client: DuckDB itself, read-only, in the machine's time zone.
  instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
  for (const zone of ZONES) {
    const connection = await instance.connect();
    await connection.run(`SET TimeZone = '${zone}'`);
    sessions.set(zone, connection);
  }
}, 300_000);

afterAll(() => {
  for (const connection of sessions.values()) connection.closeSync();
  instance?.closeSync();
  tmp.remove();
});

async function rowsOf(sql: string): Promise<Record<string, unknown>[]> {
  const reader = await utc().runAndReadAll(sql);
  const names = reader.columnNames();
  return reader.getRows().map((r) => Object.fromEntries(r.map((v, i) => [names[i], plain(v)])));
}

/** Each query in every zone against its UTC answer: the list of differences (empty = all equal).
 *  digested: compare by digest (the views, some of hundreds of thousands of rows; macro calls and
 *  the README's examples are short, compared row by row). */
async function compareAcrossZones(queries: { label: string; sql: string }[], digested = false): Promise<{ differences: string[]; utcRows: Map<string, number> }> {
  const differences: string[] = [];
  const utcRows = new Map<string, number>();
  const seconds: [string, number][] = [];
  for (const { label, sql } of queries) {
    const started = performance.now();
    const base = await answer(utc(), sql, digested);
    utcRows.set(label, base.rows?.length ?? Number(base.digest!['(rows)']));
    // the other zones' sessions at once: many statements are short, and wait more than they compute
    const others = await Promise.all(ZONES.slice(1).map(async (zone) => [zone, await answer(sessions.get(zone)!, sql, digested)] as const));
    for (const [zone, other] of others) {
      const diff = difference(base, other);
      if (diff) differences.push(`${zone}: ${label}: ${diff.slice(0, 600)}`);
    }
    seconds.push([label, (performance.now() - started) / 1000]);
  }
  // where the time went: the slowest statements, in the four zones together
  console.log(`slowest: ${seconds.sort((a, b) => b[1] - a[1]).slice(0, 8).map(([l, s]) => `${l} ${s.toFixed(1)} s`).join(', ')}`);
  return { differences, utcRows };
}

// ---- the tests ----------------------------------------------------------------------------------
describe('the warehouse holds what the sessions must agree on', () => {
  it('clock-change days in half-hourly and expanded long rates, negative prices, consumption, the hole', async () => {
    const days = await rowsOf(`SELECT tariff_code, local_date, count(*) AS n FROM rate_slots
      WHERE (tariff_code = '${J}' AND local_date IN ('2023-03-26', '2023-10-29'))
         OR (tariff_code = '${VAR}' AND local_date IN ('2020-03-29', '2020-10-25'))
      GROUP BY ALL ORDER BY ALL`);
    expect(days.map((d) => [d.tariff_code, Number(d.n)])).toEqual([[J, 46], [J, 48], [VAR, 46], [VAR, 50]]); // J: 50 less the hole
    const negatives = await rowsOf(`SELECT count(*) AS n FROM rate_slots WHERE value_inc_vat < 0`);
    expect(Number(negatives[0]!.n)).toBeGreaterThan(100);
    const readings = await rowsOf(`SELECT local_date, count(*) AS n, count(supplier_cost_inc_vat) AS supplier FROM consumption
      WHERE meter_point = '${IMPORT}' AND local_date IN ('2023-03-26', '2023-10-29') GROUP BY ALL ORDER BY ALL`);
    expect(readings.map((r) => [r.n, r.supplier])).toEqual([['46', '46'], ['50', '50']]);
  });
});

describe('every view answers as in a UTC session', () => {
  it('in Europe/London, America/New_York and Australia/Sydney sessions', async () => {
    const views = (await rowsOf(`SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY 1`)).map((r) => String(r.view_name));
    expect(views).toContain('gaps');
    expect(views).toContain('rate_slots');
    const { differences, utcRows } = await compareAcrossZones(views.map((v) => ({ label: v, sql: `SELECT * FROM ${v}` })), true);
    expect(differences).toEqual([]);
    // none is trivially equal for being empty
    expect([...utcRows].filter(([, n]) => n === 0).map(([v]) => v)).toEqual([]);
  }, 300_000);
});

describe('every macro answers as in a UTC session', () => {
  it('each has representative arguments, clock-change days among them', async () => {
    const macros = (await rowsOf(`SELECT DISTINCT function_name FROM duckdb_functions()
      WHERE NOT internal AND function_type IN ('macro', 'table_macro') ORDER BY 1`)).map((r) => String(r.function_name));
    expect(macros.filter((m) => !MACRO_CALLS[m]?.length), 'macros without arguments in MACRO_CALLS').toEqual([]);
    expect(Object.keys(MACRO_CALLS).filter((m) => !macros.includes(m)), 'MACRO_CALLS names no such macro').toEqual([]);
    for (const [name, calls] of Object.entries(MACRO_CALLS)) for (const sql of calls) expect(sql).toContain(`${name}(`);
  });

  it('in Europe/London, America/New_York and Australia/Sydney sessions', async () => {
    const bound = (sql: string) => sql.replaceAll(COST_SCOPE_METERS, scope.meters).replaceAll(COST_SCOPE, scope.scope);
    const queries = Object.entries(MACRO_CALLS).flatMap(([name, calls]) => calls.map((sql, i) => ({ label: `${name}#${i + 1}`, sql: bound(sql) })));
    const { differences, utcRows } = await compareAcrossZones(queries);
    expect(differences).toEqual([]);
    // every macro answers something in at least one of its calls
    const answered = new Set([...utcRows].filter(([, n]) => n > 0).map(([label]) => label.split('#')[0]));
    expect(Object.keys(MACRO_CALLS).filter((m) => !answered.has(m))).toEqual([]);
  }, 600_000);
});

/** The README's SQL over the warehouse: the ```sql blocks' statements and every `tariffs sql "…"`. */
function readmeStatements(): string[] {
  // README.md and docs/, each page's hand-written part (docs/sql.md's generated reference holds the
  // contracts' examples, which the MACRO_CALLS above cover)
  const text = markdownFiles().map((file) => readFileSync(join(REPO, file), 'utf8').split('<!-- reference: generated')[0]!).join('\n');
  const statements: string[] = [];
  for (const block of text.matchAll(/```sql\n([\s\S]*?)```/g)) {
    const body = block[1]!.split('\n').filter((line) => !line.trim().startsWith('--')).join('\n');
    statements.push(...body.split(';').map((s) => s.trim()).filter(Boolean));
  }
  for (const command of text.matchAll(/tariffs sql (?:--\S+ \S+ )*"([^"]+)"/g)) statements.push(command[1]!.trim());
  // placeholders aside, and the examples reading an export's files rather than the warehouse
  return statements.filter((s) => !s.includes('...') && !s.includes('…') && !/read_(csv|parquet)\(/.test(s));
}

describe('every SQL example of the README answers as in a UTC session', () => {
  it('in Europe/London, America/New_York and Australia/Sydney sessions', async () => {
    const statements = readmeStatements();
    expect(statements.length).toBeGreaterThan(20);
    expect(statements.some((s) => s.includes('monthly_costs('))).toBe(true);
    // A LIMIT after ORDER BY picks among ties at will: the whole ordered answer is compared, and
    // the example as written must run and give as many rows.
    const queries = statements.map((sql, i) => ({ label: `README#${i + 1} ${sql.replace(/\s+/g, ' ').slice(0, 80)}`, sql: sql.replace(/\s+LIMIT\s+\d+\s*$/i, '') }));
    const { differences, utcRows } = await compareAcrossZones(queries);
    expect(differences).toEqual([]);
    for (const sql of statements.filter((s) => /\sLIMIT\s+\d+\s*$/i.test(s))) {
      const counts = await Promise.all(ZONES.map(async (z) => (await sessions.get(z)!.runAndReadAll(sql)).getRows().length));
      expect(new Set(counts).size, sql).toBe(1);
    }
    // the household's months from the README are there to compare
    expect(utcRows.get(queries.find((q) => q.sql.includes('monthly_costs('))!.label)).toBe(12);
  }, 300_000);
});

describe('gaps reports the real hole on the fall-back day in every session', () => {
  const londonDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
  const dateOf = (ms: number) => londonDate.format(new Date(ms));

  it('as many half-hours missing as a brute force over UTC epochs counts', async () => {
    // Brute force: the local day's half-hours enumerated from UTC instants around it, and the
    // stored half-hourly rates of the tariff, each put on its London date in JS.
    const dayMs = Date.parse(`${HOLE.date}T00:00:00Z`);
    let dayHalfHours = 0;
    for (let ms = dayMs - 3 * 3_600_000; ms < dayMs + 27 * 3_600_000; ms += HH) if (dateOf(ms) === HOLE.date) dayHalfHours++;
    const stored = await rowsOf(`SELECT epoch_ms(valid_from) AS ms FROM unit_rates
      WHERE tariff_code = '${J}' AND duration_us = 1800000000
        AND valid_from >= TIMESTAMPTZ '2023-10-28 00:00:00+00' AND valid_from < TIMESTAMPTZ '2023-10-31 00:00:00+00'`);
    const storedOfDay = stored.filter((r) => dateOf(Number(r.ms)) === HOLE.date).length;
    expect(dayHalfHours).toBe(50);
    expect(dayHalfHours - storedOfDay).toBe((Date.parse(HOLE.to) - Date.parse(HOLE.from)) / HH);

    for (const zone of ZONES) {
      const reader = await sessions.get(zone)!.runAndReadAll(`SELECT tariff_code, CAST(local_date AS VARCHAR), day_slots,
        expected_slots, slots, missing_slots FROM gaps ORDER BY ALL`);
      // the hole is the warehouse's only gap (the demo's series are whole)
      expect(reader.getRows().map((r) => r.map(plain)), zone).toEqual([
        [J, HOLE.date, dayHalfHours, dayHalfHours, storedOfDay, dayHalfHours - storedOfDay],
      ]);
    }
  });
});
