// Analysts open the warehouse with other DuckDB clients (Python wheels, JDBC, DBeaver), often of
// an older DuckDB than tariffs' own 1.5.6: from 1.1 on, the file must open read-only and every
// view and macro must give the answers 1.5.6 gives. A warehouse with real data is built through
// tariffs' own code (sandbox prices, the sandbox account's meters, agreements and consumption, a
// supplier CSV, the event fixtures); then DuckDB 1.1, 1.2, 1.3, 1.4 and 1.5.6 (the aliased
// @duckdb/node-api releases of package.json) each open it in a process of their own
// (test/helpers/duckdbClientProbe.mjs), list the views and macros, count and read every view and
// call every macro with the argument sets of MACRO_CALLS, and the answers are compared, values
// normalised (numbers as numbers, instants as epoch microseconds, summation noise aside).
import { spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, openSync, readFileSync, readSync, closeSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/loadConfig.js';
import { loadEvents } from '../src/events/loadEvents.js';
import { importConsumptionFile } from '../src/ingest/importConsumptionFile.js';
import { runIngest } from '../src/ingest/ingest.js';
import { silentLogger } from '../src/log/createLogger.js';
import { sqlDir, warehouseTemplatePath } from '../src/paths.js';
import { readDefinitions } from '../src/store/sqlDefinitions.js';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY, SANDBOX_EV_ACCOUNT, startSandbox } from '../src/sandbox/startSandbox.js';
import { Warehouse } from '../src/store/Warehouse.js';

const PROBE = fileURLToPath(new URL('./helpers/duckdbClientProbe.mjs', import.meta.url));
const EVENT_FIXTURES = ['agreements.jsonl', 'sample.jsonl'].map((f) => fileURLToPath(new URL(`./fixtures/events/${f}`, import.meta.url)));

/** The client tariffs uses, whose answers are the reference. */
const CURRENT = { package: '@duckdb/node-api', version: 'v1.5.6' };
/** Older clients (devDependencies aliased to older @duckdb/node-api releases) and the DuckDB each bundles. */
const OLD_CLIENTS = [
  { package: 'duckdb-node-api-1-1', version: 'v1.1.3' },
  { package: 'duckdb-node-api-1-2', version: 'v1.2.2' },
  { package: 'duckdb-node-api-1-3', version: 'v1.3.2' },
  { package: 'duckdb-node-api-1-4', version: 'v1.4.4' },
];

const AGILE_J = 'E-1R-AGILE-18-02-21-J';
const AGILE_H = 'E-1R-AGILE-24-10-01-H'; // 2026-03-28 → 03-29: the clocks go forward
const AGILE_N = 'E-1R-AGILE-24-10-01-N'; // 2026-04-04, prices below zero
const DAY_NIGHT = 'E-2R-VAR-22-11-01-A'; // day and night rates, two payment methods
const EV = 'E-2R-EV-SANDBOX-24-01-01-L'; // long rates banded by the tariff's night hours
const FLEXIBLE = 'E-1R-VAR-17-01-11-A';
const OUTGOING = 'E-1R-AGILE-OUTGOING-19-05-13-C';
const EV_MP = '2000000000031'; // the sandbox's Intelligent Octopus Go household, on EV, with dispatches
const IMPORT_MP = '2000000000011'; // the sandbox account's import meter: Agile J, then Flexible from 2023-08-31 23:00Z
const IMPORT_SERIAL = '23J0000001';
const EXPORT_MP = '2000000000012'; // its export meter, on Agile Outgoing C
const at = (instant: string) => `TIMESTAMPTZ '${instant}+00'`;
const JUNE = `${at('2023-06-01 00:00:00')}, ${at('2023-07-01 00:00:00')}`;
const WEEK = `${at('2023-06-10 00:00:00')}, ${at('2023-06-17 00:00:00')}`;
const SWITCH = `${at('2023-08-25 00:00:00')}, ${at('2023-09-05 00:00:00')}`; // across the agreement switch
const TWO_MONTHS = `${at('2023-08-01 00:00:00')}, ${at('2023-10-01 00:00:00')}`;
const HALF_YEAR = `${at('2023-06-01 00:00:00')}, ${at('2023-12-01 00:00:00')}`; // across the switch and the autumn clock change
const from = (call: string) => `SELECT * FROM ${call}`;
/** The span of the long rates (the ingest starts there too): the consumption's year and the spring
 *  2024 clock change of the day/night tariff. */
const SPAN_START = at('2023-03-01 00:00:00');
const SPAN_END = at('2024-04-15 00:00:00');

/** The export's cost scope over the consumption's half year (cost_meters as the cost macros take it). */
const COMPARED = `'${AGILE_J}', '${FLEXIBLE}', '${OUTGOING}'`;
const COST_SCOPE = `(SELECT list(m) FROM cost_meters([${COMPARED}], ${HALF_YEAR}) AS m)`;
const COST_SCOPE_METERS = `(SELECT list(meter_point) FROM cost_meters([${COMPARED}], ${HALF_YEAR}))`;

/** Every macro of sql/public with the calls each client must answer alike: their options, the
 *  series kinds (Agile, day/night, banded long rates), clock changes, the agreement switch. A new
 *  macro fails the test until it has a line here. */
const MACRO_CALLS: Record<string, string[]> = {
  cheapest_slots: [
    from(`cheapest_slots('${AGILE_J}', 6, ${WEEK})`),
    from(`cheapest_slots('${AGILE_J}', 6, ${WEEK}, latest := true, highest := true, min_price := 5, max_price := 30, length_mode := 'at_least')`),
    from(`cheapest_slots('${DAY_NIGHT}', 4, ${at('2024-01-01 00:00:00')}, ${at('2024-01-03 00:00:00')}, length_mode := 'at_most')`),
    from(`cheapest_slots('${AGILE_N}', 8, NULL, NULL)`),
    from(`cheapest_slots('${AGILE_H}', 4, NULL, NULL, per := 'day', slot_weights := (SELECT list({slot_start: slot_start, weight: 1 + settlement_period % 4}) FROM rate_slots WHERE tariff_code = '${AGILE_H}'))`),
  ],
  cheapest_window: [
    from(`cheapest_window('${AGILE_J}', 4, ${JUNE})`),
    from(`cheapest_window('${AGILE_J}', 3, ${JUNE}, latest := true, max_price := 20, weights := [2, 1, 1])`),
    from(`cheapest_window('${AGILE_J}', 6, ${JUNE}, highest := true, min_price := 0)`),
    from(`cheapest_window('${EV}', 4, NULL, NULL)`),
  ],
  cheapest_window_per_day: [
    from(`cheapest_window_per_day('${AGILE_J}', 4, ${JUNE})`),
    from(`cheapest_window_per_day('${AGILE_J}', 3, ${JUNE}, latest := true, max_price := 25, highest := true, min_price := 1, weights := [3, 2, 1])`),
    from(`cheapest_window_per_day('${AGILE_H}', 4, NULL, NULL)`),
  ],
  cheapest_window_in_band: [
    from(`cheapest_window_in_band('${AGILE_J}', 4, 0, 420, ${JUNE})`),
    from(`cheapest_window_in_band('${AGILE_J}', 4, 1380, 420, ${JUNE}, latest := true, max_price := 30, weights := [2, 1])`),
    from(`cheapest_window_in_band('${AGILE_H}', 2, 1320, 360, NULL, NULL, highest := true, min_price := 0)`),
  ],
  eligible_slots: [
    from(`eligible_slots('${AGILE_J}', ${WEEK}, NULL, NULL)`),
    from(`eligible_slots('${DAY_NIGHT}', ${at('2024-01-01 00:00:00')}, ${at('2024-01-03 00:00:00')}, 0, 20)`),
  ],
  price_windows: [
    from(`price_windows('${AGILE_J}', 4, ${JUNE})`),
    from(`price_windows('${AGILE_J}', 4, ${JUNE}, per := 'day', length_mode := 'at_least', max_price := 15)`),
    from(`price_windows('${AGILE_J}', 12, ${JUNE}, per := 'band', band_start_minutes := 1320, band_end_minutes := 420, length_mode := 'at_most', max_price := 20)`),
    from(`price_windows('${AGILE_J}', NULL, ${JUNE}, per := 'day', weights := [2, 1, 1], latest := true, highest := true, min_price := 0)`),
    from(`price_windows('${AGILE_H}', 3, NULL, NULL, per := 'day', length_mode := 'at_most', max_price := 20, slot_weights := (SELECT list({slot_start: slot_start, weight: 1 + settlement_period % 4}) FROM rate_slots WHERE tariff_code = '${AGILE_H}'))`),
  ],
  selection_blocks: [
    from(`selection_blocks((SELECT list({payment_method: payment_method, rate_type: rate_type, slot_start: start, value_inc_vat: value_inc_vat, value_exc_vat: value_exc_vat}) FROM cheapest_slots('${AGILE_H}', 6, NULL, NULL, per := 'day')), ${at('2026-03-29 01:15:00')}, offset_minutes := -60)`),
    from(`selection_blocks((SELECT list({payment_method: payment_method, rate_type: rate_type, slot_start: start, value_inc_vat: value_inc_vat, value_exc_vat: value_exc_vat}) FROM cheapest_slots('${AGILE_N}', 9, NULL, NULL)), ${at('2026-04-04 12:00:00')})`),
  ],
  rate_slots_for: [
    from(`rate_slots_for(['${EV}', '${DAY_NIGHT}'], ${at('2024-03-30 00:00:00')}, ${at('2024-04-02 00:00:00')})`),
    from(`rate_slots_for(['${AGILE_J}', '${FLEXIBLE}'], ${JUNE})`),
    from(`rate_slots_for((SELECT list(DISTINCT tariff_code) FROM agreements), (SELECT min(interval_start) FROM consumption), ${at('2023-04-01 00:00:00')})`),
  ],
  range_coverage: [
    from(`range_coverage('${AGILE_J}', ${JUNE})`),
    from(`range_coverage('${AGILE_N}', NULL, NULL)`),
    from(`range_coverage('${DAY_NIGHT}', ${at('2024-03-30 00:00:00')}, ${at('2024-04-02 00:00:00')})`),
  ],
  region_comparison: [
    from(`region_comparison('AGILE-24-10-01', NULL, NULL)`),
    from(`region_comparison('AGILE-24-10-01', ${at('2026-03-20 00:00:00')}, ${at('2026-03-30 00:00:00')})`),
  ],
  consumption_pricing: [
    from(`consumption_pricing('${IMPORT_MP}', ['actual', '${AGILE_J}', '${FLEXIBLE}'], ${SWITCH})`),
    from(`consumption_pricing('${IMPORT_MP}:${IMPORT_SERIAL}', ['actual'], ${SWITCH}, payment := 'NON_DIRECT_DEBIT', whole_days := true)`),
    from(`consumption_pricing('${EXPORT_MP}', ['actual'], ${at('2024-02-28 00:00:00')}, NULL)`),
  ],
  half_hour_costs: [from(`half_hour_costs('${IMPORT_MP}', '${FLEXIBLE}', ${SWITCH}, payment := 'NON_DIRECT_DEBIT')`)],
  portfolio_pricing: [
    from(`portfolio_pricing(['actual', '${FLEXIBLE}'], ${SWITCH}, meters := ['${IMPORT_MP}:${IMPORT_SERIAL}', '${EXPORT_MP}'], mismatches := 'skip')`),
    from(`portfolio_pricing(['actual'], ${at('2024-02-27 00:00:00')}, NULL, whole_days := true, payment := 'NON_DIRECT_DEBIT')`),
  ],
  portfolio_daily_costs: [from(`portfolio_daily_costs(['actual', '${AGILE_J}'], ${SWITCH}, mismatches := 'skip')`)],
  portfolio_monthly_costs: [from(`portfolio_monthly_costs(['actual', '${FLEXIBLE}', '${OUTGOING}'], ${HALF_YEAR}, mismatches := 'skip')`)],
  portfolio_comparison: [
    from(`portfolio_comparison(['${AGILE_J}', '${FLEXIBLE}', '${OUTGOING}'], ${HALF_YEAR}, mismatches := 'skip')`),
    from(`portfolio_comparison(['${AGILE_J}'], ${SWITCH}, meters := ['${IMPORT_MP}'])`),
  ],
  daily_costs: [from(`daily_costs('${IMPORT_MP}', NULL, ${TWO_MONTHS})`)],
  meter_freshness_at: [
    from(`meter_freshness_at(${at('2023-10-30 12:00:00')})`), // the week across the autumn clock change
    from(`meter_freshness_at(${at('2024-03-31 12:00:00')})`), // the spring one, readings long stopped
  ],
  monthly_costs: [from(`monthly_costs('${IMPORT_MP}', NULL, ${HALF_YEAR})`)],
  scenario_daily_costs: [from(`scenario_daily_costs('${IMPORT_MP}', ['actual', '${FLEXIBLE}'], ${TWO_MONTHS})`)],
  scenario_monthly_costs: [from(`scenario_monthly_costs('${IMPORT_MP}', ['actual', '${AGILE_J}', '${FLEXIBLE}'], ${HALF_YEAR})`)],
  tariff_comparison: [
    from(`tariff_comparison('${IMPORT_MP}', ['${AGILE_J}', '${FLEXIBLE}'], ${HALF_YEAR})`),
    from(`tariff_comparison('${EXPORT_MP}', ['${OUTGOING}'], ${HALF_YEAR})`),
  ],
  net_costs: [from(`net_costs('${IMPORT_MP}', '${EXPORT_MP}', ${HALF_YEAR})`)],
  effective_rates_with: [
    `SELECT * FROM effective_rates_with('default') WHERE slot_start >= ${at('2024-03-29 00:00:00')} AND slot_start < ${at('2024-04-02 00:00:00')}`,
    `SELECT * FROM effective_rates_with('planned', meter := '${EV_MP}') WHERE slot_start < ${at('2024-04-02 00:00:00')}`,
    `SELECT * FROM effective_rates_with('none') WHERE local_date = DATE '2024-03-31'`,
  ],
  off_peak_periods_with: [from(`off_peak_periods_with('completed')`)],
  london_iso: [`SELECT slot_start, london_iso(slot_start) AS iso FROM rate_slots WHERE tariff_code = '${AGILE_H}'`],
  london_local: [`SELECT valid_from, l.local_date, l.local_start, l.utc_offset_minutes, l.settlement_period
    FROM (SELECT valid_from, london_local(valid_from) AS l FROM unit_rates WHERE tariff_code = '${AGILE_H}')`],
  london_wall: [`SELECT valid_from, london_wall(valid_from) AS wall FROM unit_rates WHERE tariff_code = '${AGILE_H}'`],
  london_offset_minutes: [`SELECT valid_from, london_offset_minutes(valid_from) AS offset FROM unit_rates WHERE tariff_code = '${AGILE_H}'`],
  tariff_fuel: [`SELECT tariff_code, tariff_fuel(tariff_code) AS fuel, tariff_fuel('G-1R-NOPE-99-A') AS gas, tariff_fuel('X') AS neither FROM tariffs`],
  tariff_direction: [`SELECT tariff_code, tariff_direction(tariff_code) AS direction, tariff_direction('E-1R-OUTGOING-NOPE-A') AS outgoing FROM tariffs`],
  tariff_mismatch: [`SELECT m.meter_point, t.tariff_code, tariff_mismatch(m.meter_point, t.tariff_code) AS why FROM meter_points AS m, tariffs AS t`],
  series_label: [`SELECT DISTINCT tariff_code, payment_method, rate_type, series_label(tariff_code, payment_method, rate_type) AS label
    FROM unit_rates ORDER BY ALL`],
  best_window_per_day: [
    from(`best_window_per_day(['${AGILE_J}', '${OUTGOING}'], 4, ${JUNE})`),
    from(`best_window_per_day(['${AGILE_H}', '${EV}'], 4, NULL, NULL)`),
  ],
  recent_day_prices: [
    from(`recent_day_prices(['${AGILE_J}', '${OUTGOING}'], 3, ${HALF_YEAR})`),
    from(`recent_day_prices(['${AGILE_H}', '${DAY_NIGHT}', '${EV}'], 2, NULL, NULL)`),
  ],
  household_costs: [
    from(`household_costs('${IMPORT_MP}', ['${AGILE_J}', '${FLEXIBLE}'], ${HALF_YEAR})`),
    from(`household_costs('${EXPORT_MP}', ['${OUTGOING}'], NULL, NULL)`),
  ],
  daily_use: [from(`daily_use('${IMPORT_MP}', ${TWO_MONTHS})`)],
  // the status facts and the export's reports
  tariffs_with_slots: [from(`tariffs_with_slots(${JUNE})`)],
  quiet_tariffs: [from(`quiet_tariffs(${at('2100-01-01 00:00:00')})`)],
  report_cheapest_per_day: [from(`report_cheapest_per_day(['${AGILE_J}', '${AGILE_H}'], 4, ${JUNE})`), from(`report_cheapest_per_day(['${AGILE_H}'], 2, NULL, NULL)`)],
  report_negative_slots: [from(`report_negative_slots(NULL, ${at('2026-04-01 00:00:00')}, ${at('2026-04-08 00:00:00')})`)],
  report_negative_runs: [from(`report_negative_runs(['${AGILE_N}'], ${at('2026-04-01 00:00:00')}, ${at('2026-04-08 00:00:00')})`)],
  report_half_hourly_prices: [from(`report_half_hourly_prices(['${AGILE_H}', '${EV}'], ${at('2024-03-30 00:00:00')}, ${at('2026-04-02 00:00:00')})`)],
  cost_meters: [from(`cost_meters(['${AGILE_J}', '${FLEXIBLE}', '${OUTGOING}'], NULL, NULL)`), from(`cost_meters(['${AGILE_J}'], ${HALF_YEAR})`)],
  scope_monthly_costs: [from(`scope_monthly_costs(${COST_SCOPE}, ['actual', ${COMPARED}], ${COST_SCOPE_METERS}, ${HALF_YEAR}, 'DIRECT_DEBIT')`)],
  scope_comparison: [from(`scope_comparison(${COST_SCOPE}, [${COMPARED}], ${COST_SCOPE_METERS}, ${HALF_YEAR}, 'NON_DIRECT_DEBIT')`)],
  report_monthly_costs: [from(`report_monthly_costs(${COST_SCOPE}, (SELECT list(c) FROM scope_monthly_costs(${COST_SCOPE}, ['actual', ${COMPARED}], ${COST_SCOPE_METERS}, ${HALF_YEAR}, 'DIRECT_DEBIT') AS c))`)],
  report_tariff_comparison: [from(`report_tariff_comparison(${COST_SCOPE}, (SELECT list(c) FROM scope_comparison(${COST_SCOPE}, [${COMPARED}], ${COST_SCOPE_METERS}, ${HALF_YEAR}, 'DIRECT_DEBIT') AS c))`)],
};

interface PlanItem {
  name: string;
  sql: string;
  /** SELECT count(*) over it too (the views). */
  count: boolean;
}

interface StatementAnswer {
  error?: string;
  columns?: { name: string; kind: string }[];
  count?: number;
  rows?: unknown[][];
  ms?: number;
}

interface ClientAnswer {
  package: string;
  version?: string;
  views?: string[];
  macros?: string[];
  results?: Record<string, StatementAnswer>;
  open_error?: string;
  /** The process failed (not an answer of DuckDB's). */
  failed?: string;
  seconds?: number;
}

let dir: string;
let db: string;
let plan: PlanItem[];
let definitions: { views: string[]; macros: string[] };
const answers = new Map<string, ClientAnswer>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tariffs-old-clients-'));
  db = join(dir, 'warehouse.duckdb');
  await buildWarehouse(db);
  definitions = {
    views: sqlNames('views'),
    macros: sqlNames('macros'),
  };
  plan = [
    ...definitions.views.map((v) => ({ name: v, sql: `SELECT * FROM ${v}`, count: true })),
    ...Object.entries(MACRO_CALLS).flatMap(([macro, calls]) => calls.map((sql, i) => ({ name: `${macro}#${i + 1}`, sql, count: false }))),
  ];
  const planFile = join(dir, 'plan.json');
  writeFileSync(planFile, JSON.stringify(plan));
  // Two at a time (two cores); each client in its own process, its native library alone there.
  const queue = [CURRENT, ...OLD_CLIENTS];
  const lane = async () => {
    for (let client = queue.shift(); client; client = queue.shift()) answers.set(client.package, await probe(client.package, planFile));
  };
  await Promise.all([lane(), lane()]);
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The warehouse analysts get: what `tariffs ingest` writes from the sandbox (Agile, day/night and
 *  banded tariffs, the account's meters, agreements and half-hourly consumption, the Intelligent
 *  Octopus Go household's too with its dispatches), a supplier CSV
 *  (`tariffs consumption import`), the event fixtures (`tariffs events load`), and two Agile
 *  half-hours deleted (a gap). The long rates rate_slots expands (long_unit_rates) are cut to
 *  SPAN_START → SPAN_END and the gas tariff's dropped (no call prices gas): rate_slots expands an
 *  open-ended rate up to now + 3 days, so the answers would depend on the day the test runs, and
 *  the ones from 2017 and 2020 would make every client read ~5 times as many half-hours. */
async function buildWarehouse(file: string): Promise<void> {
  const sandbox = await startSandbox({});
  try {
    const config = await loadConfig({ db: file, baseUrl: sandbox.baseUrl }, { TARIFFS_API_KEY: SANDBOX_API_KEY });
    const tariffs = [AGILE_J, AGILE_H, AGILE_N, 'E-1R-AGILE-24-10-01-G', 'E-1R-AGILE-24-10-01-M', DAY_NIGHT, EV, FLEXIBLE, OUTGOING];
    const summary = await runIngest(
      {
        tariffs, products: [{ code: 'EV-SANDBOX-24-01-01', regions: ['L'] }], accounts: [SANDBOX_ACCOUNT, SANDBOX_EV_ACCOUNT],
        from: new Date('2023-03-01T00:00:00Z'),
      },
      { config, logger: silentLogger(), now: () => new Date('2026-06-01T00:00:00Z') },
    );
    if (summary.status !== 'ok') throw new Error(`ingest from the sandbox: ${summary.status}: ${summary.errors.join('; ')}`);
  } finally {
    await sandbox.close();
  }
  const warehouse = await Warehouse.open(file);
  try {
    for (const fixture of EVENT_FIXTURES) await loadEvents(warehouse, createReadStream(fixture), { source: fixture });
    // the supplier's CSV for four days of the import meter, with its estimated costs (supplier_cost_check)
    const readings = await warehouse.all(`SELECT interval_start, interval_end, kwh FROM consumption
        WHERE meter_point = $mp AND serial = $serial AND interval_start >= ${at('2023-08-30 00:00:00')}
          AND interval_start < ${at('2023-09-03 00:00:00')} ORDER BY interval_start`, { mp: IMPORT_MP, serial: IMPORT_SERIAL });
    const lines = readings.map((r) => `${r.kwh}, ${(Number(r.kwh) * 21.5).toFixed(2)}, 1.20, ${r.interval_start}, ${r.interval_end}`);
    await importConsumptionFile(warehouse, {
      text: ['Consumption (kwh), Estimated Cost Inc. Tax (p), Standing Charge Inc. Tax (p), Start, End', ...lines].join('\n'),
      source: 'supplier.csv', meter: { meterPoint: IMPORT_MP, serial: IMPORT_SERIAL }, isExport: false, fuel: 'electricity',
      unit: 'kWh', calorificValue: 39.5,
    });
    await warehouse.run(`DELETE FROM unit_rates WHERE tariff_code = $tariff
        AND valid_from IN (${at('2023-06-15 13:00:00')}, ${at('2023-06-15 13:30:00')})`, { tariff: AGILE_J });
    await warehouse.run(`DELETE FROM long_unit_rates WHERE tariff_code LIKE 'G-%' OR valid_from >= ${SPAN_END} OR valid_to <= ${SPAN_START}`);
    await warehouse.run(`UPDATE long_unit_rates SET valid_from = greatest(valid_from, ${SPAN_START}),
        valid_to = least(coalesce(valid_to, ${SPAN_END}), ${SPAN_END})`);
    await warehouse.checkpoint();
  } finally {
    warehouse.close();
  }
}

function sqlNames(kind: 'views' | 'macros'): string[] {
  return readDefinitions(sqlDir()).filter((d) => d.kind === (kind === 'views' ? 'view' : 'macro')).map((d) => d.name);
}

/** One client's answers, from a process of its own. */
function probe(packageName: string, planFile: string): Promise<ClientAnswer> {
  const out = join(dir, `${packageName.replace(/\W/g, '_')}.json`);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [PROBE, packageName, db, planFile, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', (error) => resolve({ package: packageName, failed: error.message }));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) {
        resolve({ package: packageName, failed: `exit ${code ?? signal}: ${stderr.trim()}`, seconds });
        return;
      }
      resolve({ ...(JSON.parse(readFileSync(out, 'utf8')) as ClientAnswer), seconds });
    });
  });
}

/** Numbers alike to 1e-9 (relative): sums of doubles differ in their last bits between runs. */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  return a === b;
}

/** Rows in an order that summation noise cannot change (each answer sorted once). */
const sorted = new WeakMap<unknown[][], unknown[][]>();
function sortedRows(rows: unknown[][]): unknown[][] {
  if (!sorted.has(rows)) sorted.set(rows, sortRows(rows));
  return sorted.get(rows)!;
}

function sortRows(rows: unknown[][]): unknown[][] {
  const key = (row: unknown[]) => JSON.stringify(row.map((v) => (typeof v === 'number' ? Number(v.toPrecision(9)) : v)));
  return rows.map((row) => ({ row, key: key(row) })).sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0)).map((x) => x.row);
}

/** What differs between a client's answer to a statement and the reference, '' when nothing. */
function difference(answer: StatementAnswer | undefined, reference: StatementAnswer): string {
  if (!answer) return 'not run';
  if (answer.error) return `error: ${answer.error}`;
  if (JSON.stringify(answer.columns) !== JSON.stringify(reference.columns)) {
    return `columns ${JSON.stringify(answer.columns)}, 1.5.6: ${JSON.stringify(reference.columns)}`;
  }
  if (answer.count !== reference.count) return `count(*) ${answer.count}, 1.5.6: ${reference.count}`;
  if (answer.rows!.length !== reference.rows!.length) return `${answer.rows!.length} rows, 1.5.6: ${reference.rows!.length}`;
  const mine = sortedRows(answer.rows!);
  const theirs = sortedRows(reference.rows!);
  for (let i = 0; i < mine.length; i++) {
    const a = mine[i]!;
    const b = theirs[i]!;
    if (a.length !== b.length || a.some((v, j) => !sameValue(v, b[j]))) return `row ${JSON.stringify(a)}, 1.5.6: ${JSON.stringify(b)}`;
  }
  return '';
}

describe('the file and what is asked of it', () => {
  it('is made in a storage version DuckDB 1.1 reads (64), and keeps its primary-key lookups', async () => {
    const storageVersion = (file: string) => {
      const fd = openSync(file, 'r');
      try {
        const header = Buffer.alloc(20);
        readSync(fd, header, 0, 20, 0);
        expect(header.toString('latin1', 8, 12)).toBe('DUCK');
        return Number(header.readBigUInt64LE(12));
      } finally {
        closeSync(fd);
      }
    };
    const scratch = join(dir, 'scratch.duckdb');
    (await Warehouse.open(scratch, { template: false })).close();
    expect({ built: storageVersion(db), template: storageVersion(warehouseTemplatePath()), scratch: storageVersion(scratch) })
      .toEqual({ built: 64, template: 64, scratch: 64 });
    // A file made with storage_compatibility_version 'v1.1.0' by DuckDB 1.5.5 finds no row here
    // after its first write and checkpoint (src/store/storageCompatibility.ts).
    const warehouse = await Warehouse.open(db, { readOnly: true });
    try {
      expect(await warehouse.all(`SELECT local_date FROM london_days WHERE local_date = DATE '2023-06-01'`)).toHaveLength(1);
    } finally {
      warehouse.close();
    }
  });

  it('covers every view and macro, and 1.5.6 answers each call with rows', () => {
    const current = answers.get(CURRENT.package)!;
    expect(current.failed ?? current.open_error).toBeUndefined();
    expect(current.version).toBe(CURRENT.version);
    // what the file holds is what sql/ defines, and every macro has calls
    expect({ views: current.views, macros: current.macros }).toEqual(definitions);
    expect(Object.keys(MACRO_CALLS).sort(), 'MACRO_CALLS: one entry per macro of sql/public').toEqual(definitions.macros);
    const empty = plan.filter((p) => (current.results![p.name]?.rows?.length ?? 0) === 0).map((p) => p.name);
    const errors = plan.filter((p) => current.results![p.name]?.error).map((p) => `${p.name}: ${current.results![p.name]!.error}`);
    expect(errors).toEqual([]);
    expect(empty, 'statements without rows compare nothing').toEqual([]);
  });
});

describe.each(OLD_CLIENTS)('DuckDB $version ($package)', (client) => {
  it('opens the file read-only and answers every view and macro call as 1.5.6 does', () => {
    const answer = answers.get(client.package)!;
    const reference = answers.get(CURRENT.package)!;
    console.log(`${client.version}: ${answer.open_error ? 'did not open the file' : `${plan.length} statements`} in ${answer.seconds?.toFixed(1)} s`);
    expect(answer.failed).toBeUndefined();
    expect(answer.open_error).toBeUndefined();
    expect(answer.version).toBe(client.version);
    expect({ views: answer.views, macros: answer.macros }).toEqual({ views: reference.views, macros: reference.macros });
    const differences = plan
      .map((p) => ({ name: p.name, difference: difference(answer.results?.[p.name], reference.results![p.name]!) }))
      .filter((d) => d.difference !== '')
      .map((d) => `${d.name}: ${d.difference.slice(0, 400)}`);
    expect(differences).toEqual([]);
  });
});
