// Analysts open the warehouse with other DuckDB clients (Python wheels, JDBC, DBeaver), often of
// an older DuckDB than tariffs' own 1.5.6: from 1.1 on, the file must open read-only and every
// view and macro must give the answers 1.5.6 gives. The warehouse is made the way users make it:
// the built CLI as child processes (test/helpers/runCli.ts) against the sandbox (its long rates
// served over a fixed SPAN, Agile J with a HOLE), one command after another (chain(): an ingest
// of one tariff, an incremental ingest of everything a cron setup tracks (one product has left the
// list since), a day from a server whose standing charges answer 404, a supplier CSV, a long
// file of many meters, agreements, the event fixtures, then `migrate --vacuum`), each through the
// job's working file, its checkpoints and the publish. `--db` (and the working file, when its
// bytes differ) is kept as each command left it; then DuckDB 1.1, 1.2, 1.3, 1.4 and 1.5.6 (the
// aliased @duckdb/node-api releases of package.json) each open them all in a process of their own
// (test/helpers/duckdbClientProbe.mjs). Every file must open and read as 1.5.6 reads it (every
// table counted, every column read); on the file after the chain and the file after the vacuum
// every view is counted and read and every macro called with the argument sets of MACRO_CALLS,
// the answers compared, values normalised (numbers as numbers, instants as epoch microseconds,
// summation noise aside). Why old clients could not open the CLI's files before:
// docs/decisions/storage-compatibility.md.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlDir, warehouseTemplatePath } from '../src/paths.js';
import { householdReading } from '../src/sandbox/householdProfile.js';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY, SANDBOX_EV_ACCOUNT, startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { readDefinitions } from '../src/store/sqlDefinitions.js';
import { jobPaths } from '../src/store/WriteSession.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { costScopeLiterals } from './helpers/costScope.js';
import { runCli, type CliResult } from './helpers/runCli.js';

const PROBE = fileURLToPath(new URL('./helpers/duckdbClientProbe.mjs', import.meta.url));
const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const EVENT_FIXTURES = fileURLToPath(new URL('./fixtures/events/', import.meta.url));

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
/** A tariff whose product leaves the supplier's list after the first ingest. */
const GONE = { product: 'GONE-23-03-01', tariff: 'E-1R-GONE-23-03-01-A' };
const EV_MP = '2000000000031'; // the sandbox's Intelligent Octopus Go household, on EV, with dispatches
const IMPORT_MP = '2000000000011'; // the sandbox account's import meter: Agile J, then Flexible from 2023-08-31 23:00Z
const IMPORT_SERIAL = '23J0000001';
const EXPORT_MP = '2000000000012'; // its export meter, on Agile Outgoing C
/** Two meters of a long consumption file (`consumption import` without --meter) and `agreements import`. */
const LONG_MPS = ['1900000000001', '1900000000002'];
const at = (instant: string) => `TIMESTAMPTZ '${instant}+00'`;
const JUNE = `${at('2023-06-01 00:00:00')}, ${at('2023-07-01 00:00:00')}`;
const WEEK = `${at('2023-06-10 00:00:00')}, ${at('2023-06-17 00:00:00')}`;
const SWITCH = `${at('2023-08-25 00:00:00')}, ${at('2023-09-05 00:00:00')}`; // across the agreement switch
const TWO_MONTHS = `${at('2023-08-01 00:00:00')}, ${at('2023-10-01 00:00:00')}`;
const HALF_YEAR = `${at('2023-06-01 00:00:00')}, ${at('2023-12-01 00:00:00')}`; // across the switch and the autumn clock change
const from = (call: string) => `SELECT * FROM ${call}`;
/** The span the long rates are served over (the household's year, the spring 2024 clock change of
 *  the day/night tariff): the sandbox's open-ended ones run from 2017 or 2020 on, and rate_slots
 *  expands an open-ended rate up to three days past today, so every answer would depend on the day
 *  the test runs and each client would read 600,000 half-hours and more. */
const SPAN = { from: '2023-03-01T00:00:00Z', to: '2024-04-15T00:00:00Z' };
/** Agile J is served but for these two half-hours (the API's series has a hole: the `gaps` view and
 *  the windows' edges have one to find). */
const HOLE = ['2023-06-15T13:00:00Z', '2023-06-15T13:30:00Z'];

/** The export's cost scope over the consumption's half year, as the export binds it: a value, the
 *  list cost_meters gives on the chain's file (test/helpers/costScope.ts), put in after the chain. */
const COMPARED = `'${AGILE_J}', '${FLEXIBLE}', '${OUTGOING}'`;
const SCOPE_CALL = `cost_meters([${COMPARED}], ${HALF_YEAR})`;
const COST_SCOPE = '{cost scope}';
const COST_SCOPE_METERS = '{cost scope meters}';

/** Every macro of sql/ (public/ and internal/) with the calls each client must answer alike: their
 *  options, the series kinds (Agile, day/night, banded long rates), clock changes, the agreement
 *  switch. A new macro fails the test until it has an entry here: its name, then one statement per
 *  argument set worth comparing (each must return rows in 1.5.6). */
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
  // the costs computed once, as the export's temp tables hold them
  report_monthly_costs: [`WITH costs AS MATERIALIZED (SELECT list(c) AS costs FROM scope_monthly_costs(${COST_SCOPE}, ['actual', ${COMPARED}], ${COST_SCOPE_METERS}, ${HALF_YEAR}, 'DIRECT_DEBIT') AS c)
    ${from(`report_monthly_costs(${COST_SCOPE}, (SELECT costs FROM costs))`)}`],
  report_tariff_comparison: [`WITH costs AS MATERIALIZED (SELECT list(c) AS costs FROM scope_comparison(${COST_SCOPE}, [${COMPARED}], ${COST_SCOPE_METERS}, ${HALF_YEAR}, 'DIRECT_DEBIT') AS c)
    ${from(`report_tariff_comparison(${COST_SCOPE}, (SELECT costs FROM costs))`)}`],
  // the rounding every printed and exported figure goes through (DuckDB 1.1 truncates in a
  // DECIMAL cast: these macros round in every release)
  round_price: [`SELECT tariff_code, valid_from, round_price(value_inc_vat / 3) AS third FROM unit_rates ORDER BY ALL LIMIT 500`],
  round_gbp: [`SELECT meter_point, interval_start, round_gbp(kwh * 24.5) AS pounds FROM consumption ORDER BY ALL LIMIT 500`],
  // which tariff from here (issue 55): the profile, what is on sale, the forward costs
  expected_use: [from(`expected_use('${IMPORT_MP}', ${at('2023-10-28 17:00:00')})`), from(`expected_use('${IMPORT_MP}', ${at('2023-03-27 17:00:00')})`)],
  tariffs_on_sale: [from(`tariffs_on_sale('${IMPORT_MP}', ${at('2023-10-28 17:00:00')})`), from(`tariffs_on_sale('${EXPORT_MP}', ${at('2023-10-28 17:00:00')}, region := 'C')`)],
  compare_ahead: [from(`compare_ahead('${IMPORT_MP}', ${at('2023-10-28 17:00:00')}, 'tomorrow', tariffs := ['${AGILE_J}', '${FLEXIBLE}'])`)],
  seasonal_scale: [from(`seasonal_scale('${IMPORT_MP}', ${at('2024-02-28 17:00:00')})`)],
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

interface FileAnswer {
  views?: string[];
  macros?: string[];
  /** Per table: [rows, then the values of each column that are not NULL], or the error. */
  tables?: Record<string, unknown[] | { error: string }>;
  results?: Record<string, StatementAnswer>;
  open_error?: string;
  ms?: number;
}

interface ClientAnswer {
  package: string;
  version?: string;
  files?: Record<string, FileAnswer>;
  /** The process failed (not an answer of DuckDB's). */
  failed?: string;
  seconds?: number;
}

/** One command of the chain, as a user or cron runs it. */
interface Step {
  name: string;
  args: string[];
  /** Its exit status (events load: 1, the fixture has bad lines on purpose). */
  code?: number;
  /** What changes at the supplier before it runs. */
  before?: () => void;
}

/** A file as a step left it (copied aside): the published `--db`, or the job's working file when
 *  it differs. */
interface Snapshot {
  name: string;
  step: string;
  path: string;
  /** The files after the chain and after the vacuum: every view and macro is asked of them. */
  full: boolean;
}

let dir: string;
let db: string;
let plan: PlanItem[];
let definitions: { views: string[]; macros: string[] };
let steps: Step[] = [];
const ran: { step: Step; result: CliResult; seconds: number }[] = [];
const snapshots: Snapshot[] = [];
/** Per step, whether the job's working file had other bytes than `--db` (then it is read apart). */
const workingFiles: Record<string, string> = {};
const answers = new Map<string, ClientAnswer>();
/** Where the time went (printed by the first test; the aim is about two minutes on CI's two cores). */
const timings: Record<string, number> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tariffs-old-clients-'));
  db = join(dir, 'warehouse.duckdb');
  definitions = { views: names('view'), macros: names('macro') };
  let started = performance.now();
  const sandbox = await startSandbox({});
  // the documented interface only: its standing charges answer 404 (missing_optional_resources)
  const specSandbox = await startSandbox({ profile: 'spec' });
  try {
    sandbox.addTariff({ tariffCode: GONE.tariff, productCode: GONE.product, rates: [{ value_exc_vat: 20, value_inc_vat: 21, valid_from: SPAN.from, valid_to: SPAN.to }] });
    await reshape(sandbox, { product: 'AGILE-18-02-21', tariff: AGILE_J, kinds: ['standard'] }, (rates) => {
      const hole = new Set(HOLE.map((t) => Date.parse(t)));
      return rates.filter((r) => !hole.has(Date.parse(r.valid_from)));
    });
    for (const long of LONG_RATES) await reshape(sandbox, long, withinSpan);
    steps = chain(sandbox, specSandbox.baseUrl);
    for (const step of steps) {
      const stepStarted = performance.now();
      step.before?.();
      const result = await runCli(step.args, { env: { TARIFFS_API_KEY: SANDBOX_API_KEY }, cwd: dir, timeoutMs: 180_000 });
      ran.push({ step, result, seconds: (performance.now() - stepStarted) / 1000 });
      if (result.code !== (step.code ?? 0)) {
        throw new Error(`${step.name}: \`tariffs ${step.args.join(' ')}\` exited ${result.code ?? result.signal}: ${result.stderr.trim().slice(-2000)}`);
      }
      keep(step.name, step.name === LAST_OF_CHAIN || step.name === VACUUM);
    }
  } finally {
    await sandbox.close();
    await specSandbox.close();
  }
  timings.chain = (performance.now() - started) / 1000;
  const scope = await costScopeLiterals(snapshots.find((s) => s.step === LAST_OF_CHAIN)!.path, SCOPE_CALL);
  const bound = (sql: string) => sql.replaceAll(COST_SCOPE_METERS, scope.meters).replaceAll(COST_SCOPE, scope.scope);
  plan = [
    ...definitions.views.map((v) => ({ name: v, sql: `SELECT * FROM ${v}`, count: true })),
    ...Object.entries(MACRO_CALLS).flatMap(([macro, calls]) => calls.map((sql, i) => ({ name: `${macro}#${i + 1}`, sql: bound(sql), count: false }))),
  ];
  started = performance.now();
  const job = join(dir, 'job.json');
  writeFileSync(job, JSON.stringify({ files: snapshots.map((s) => ({ name: s.name, db: s.path, plan: s.full ? plan : [] })) }));
  // Two at a time (two cores); each client in its own process, its native library alone there.
  const queue = [CURRENT, ...OLD_CLIENTS];
  const lane = async () => {
    for (let client = queue.shift(); client; client = queue.shift()) answers.set(client.package, await probe(client.package, job));
  };
  await Promise.all([lane(), lane()]);
  timings.probes = (performance.now() - started) / 1000;
}, 900_000); // the chain, then five clients on every file: minutes on 2 busy cores

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const LAST_OF_CHAIN = 'events load sample.jsonl';
const VACUUM = 'migrate --vacuum';

/** The commands, in order: what a user's warehouse goes through. */
function chain(sandbox: Sandbox, specUrl: string): Step[] {
  const baseUrl = sandbox.baseUrl;
  const config = join(dir, 'tariffs.json');
  // What a cron setup tracks (the sandbox's tariffs: Agile, day/night, banded EV, Flexible,
  // Outgoing; its two accounts with their meters, agreements, consumption and dispatches).
  writeFileSync(config, JSON.stringify({
    db, base_url: baseUrl, default_from: '2023-03-01',
    tariffs: [AGILE_J, AGILE_H, AGILE_N, 'E-1R-AGILE-24-10-01-G', 'E-1R-AGILE-24-10-01-M', DAY_NIGHT, FLEXIBLE, OUTGOING, GONE.tariff],
    products: [{ code: 'EV-SANDBOX-24-01-01', regions: ['L'] }],
    accounts: [SANDBOX_ACCOUNT, SANDBOX_EV_ACCOUNT],
  }));
  const file = (name: string, lines: string[]) => {
    writeFileSync(join(dir, name), `${lines.join('\n')}\n`);
    return join(dir, name);
  };
  return [
    // a new warehouse's first command, as issue 56 found it: one tariff over a window (a file that
    // DuckDB 1.1-1.3 could not open when checkpoints re-used table metadata)
    { name: `ingest --tariff ${AGILE_J}`, args: ['ingest', '--db', db, '--base-url', baseUrl, '--tariff', AGILE_J, '--from', '2023-03-01', '--to', '2023-10-01'] },
    // then what a cron setup runs: Agile J goes on from where it stopped, the other tariffs and
    // the accounts' meters start at default_from
    // (its product has left the supplier's list since: withdrawn_tariffs)
    { name: 'ingest --config (incremental)', args: ['ingest', '--config', config], before: () => sandbox.setListed(GONE.product, false) },
    // a day of Agile J again, from a server of the documented interface only, whose standing
    // charges answer 404 (missing_optional_resources)
    { name: 'ingest --tariff (standing charges 404)', args: ['ingest', '--db', db, '--base-url', specUrl, '--tariff', AGILE_J, '--from', '2023-10-01', '--to', '2023-10-02'] },
    { name: 'consumption import (supplier CSV)', args: ['consumption', 'import', file('supplier.csv', supplierCsv()), '--meter', `${IMPORT_MP}:${IMPORT_SERIAL}`, '--db', db] },
    { name: 'consumption import (long CSV)', args: ['consumption', 'import', file('long.csv', longCsv()), '--db', db] },
    { name: 'agreements import', args: ['agreements', 'import', file('agreements.csv', agreementsCsv()), '--db', db] },
    { name: 'events load agreements.jsonl', args: ['events', 'load', join(EVENT_FIXTURES, 'agreements.jsonl'), '--db', db, '--format', 'json'] },
    { name: LAST_OF_CHAIN, args: ['events', 'load', join(EVENT_FIXTURES, 'sample.jsonl'), '--db', db, '--format', 'json'], code: 1 },
    { name: VACUUM, args: ['migrate', '--vacuum', '--db', db] },
  ];
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const HALF_HOUR = 1_800_000;

/** The supplier's export for four days of the import meter (its readings as the API serves them,
 *  one corrected, with the supplier's estimated costs: supplier_cost_check, consumption_revisions). */
function supplierCsv(): string[] {
  const lines = ['Consumption (kwh), Estimated Cost Inc. Tax (p), Standing Charge Inc. Tax (p), Start, End'];
  for (let ms = Date.parse('2023-08-30T00:00:00Z'); ms < Date.parse('2023-09-03T00:00:00Z'); ms += HALF_HOUR) {
    const kwh = householdReading('import', ms) + (lines.length === 1 ? 0.1 : 0);
    lines.push(`${kwh.toFixed(3)}, ${(kwh * 21.5).toFixed(2)}, 1.20, ${iso(ms)}, ${iso(ms + HALF_HOUR)}`);
  }
  return lines;
}

/** A week of two meters the account does not have (one without a serial), across the autumn clock change. */
function longCsv(): string[] {
  const lines = ['meter_point,serial,interval_start,kwh'];
  LONG_MPS.forEach((mp, m) => {
    for (let i = 0, ms = Date.parse('2023-10-26T00:00:00Z'); ms < Date.parse('2023-11-02T00:00:00Z'); i++, ms += HALF_HOUR) {
      lines.push(`${mp},${m === 0 ? 'L0000001' : ''},${iso(ms)},${(0.1 + m * 0.2 + (i % 11) * 0.03).toFixed(3)}`);
    }
  });
  return lines;
}

/** Their agreements: one meter switches from Agile J to Flexible, the other stays on Agile J. */
function agreementsCsv(): string[] {
  return [
    'meter_point,tariff_code,valid_from,valid_to',
    `${LONG_MPS[0]},${AGILE_J},2023-10-01T00:00:00+01:00,2023-10-30T00:00:00Z`,
    `${LONG_MPS[0]},${FLEXIBLE},2023-10-30T00:00:00Z,`,
    `${LONG_MPS[1]},${AGILE_J},2023-10-20T00:00:00+01:00,`,
  ];
}

/** The tariffs with long rates (a rate holds for months, rate_slots expands it to half-hours), served
 *  over SPAN only. */
const LONG_RATES: Served[] = [
  { product: 'VAR-17-01-11', tariff: FLEXIBLE, kinds: ['standard'] },
  { product: 'VAR-17-01-11', tariff: 'G-1R-VAR-17-01-11-A', kinds: ['standard'] },
  { product: 'VAR-22-11-01', tariff: DAY_NIGHT, kinds: ['day', 'night'] },
  { product: 'EV-SANDBOX-24-01-01', tariff: EV, kinds: ['day', 'night'] },
];

interface Served {
  product: string;
  tariff: string;
  kinds: ('standard' | 'day' | 'night')[];
}

interface ServedRate {
  value_exc_vat: number;
  value_inc_vat: number;
  valid_from: string;
  valid_to: string | null;
  payment_method?: string | null;
}

/** The rates within SPAN, cut to it. */
function withinSpan(rates: ServedRate[]): ServedRate[] {
  const [from, to] = [Date.parse(SPAN.from), Date.parse(SPAN.to)];
  return rates
    .filter((r) => Date.parse(r.valid_from) < to && (r.valid_to === null || Date.parse(r.valid_to) > from))
    .map((r) => ({
      ...r,
      valid_from: iso(Math.max(Date.parse(r.valid_from), from)),
      valid_to: iso(Math.min(r.valid_to === null ? to : Date.parse(r.valid_to), to)),
    }));
}

/** The sandbox serves `served`'s rates of each kind as `change` makes them from what it served. */
async function reshape(sandbox: Sandbox, served: Served, change: (rates: ServedRate[]) => ServedRate[]): Promise<void> {
  const fuel = served.tariff.startsWith('G-') ? 'gas' : 'electricity';
  const rates: Partial<Record<'rates' | 'dayRates' | 'nightRates', ServedRate[]>> = {};
  for (const kind of served.kinds) {
    const got: ServedRate[] = [];
    let url: string | null = `${sandbox.baseUrl}products/${served.product}/${fuel}-tariffs/${served.tariff}/${kind}-unit-rates/?page_size=1500`;
    while (url) {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      const page = (await response.json()) as { next: string | null; results: ServedRate[] };
      got.push(...page.results);
      url = page.next;
    }
    const changed = change(got);
    if (changed.length === 0 || changed.length === got.length && JSON.stringify(changed) === JSON.stringify(got)) {
      throw new Error(`${served.tariff} ${kind}: nothing served, or nothing changed (the sandbox's data moved?)`);
    }
    rates[kind === 'standard' ? 'rates' : kind === 'day' ? 'dayRates' : 'nightRates'] = changed;
  }
  sandbox.addTariff({ tariffCode: served.tariff, productCode: served.product, ...rates });
}

/** Copies `--db` as `step` left it (checkpointed: no WAL), and the job's working file when it
 *  holds other bytes (the publish copies it whole, so it is the same file after every step). */
function keep(step: string, full: boolean): void {
  const paths = jobPaths(db);
  const bytes: Record<string, string> = {};
  for (const [kind, path] of [['published', paths.db], ['working', paths.work]] as const) {
    if (!existsSync(path)) throw new Error(`${step}: no ${kind} file ${path}`);
    if (existsSync(`${path}.wal`)) throw new Error(`${step}: the ${kind} file ${path} has a WAL left`);
    bytes[kind] = createHash('sha256').update(readFileSync(path)).digest('hex');
    if (kind === 'working' && bytes.working === bytes.published) {
      workingFiles[step] = 'same bytes as published';
      continue;
    }
    if (kind === 'working') workingFiles[step] = 'read apart';
    const copy = join(dir, `step${snapshots.length}-${kind}.duckdb`);
    copyFileSync(path, copy);
    snapshots.push({ name: `${step}: ${kind}`, step, path: copy, full });
  }
}

function names(kind: 'view' | 'macro'): string[] {
  return readDefinitions(sqlDir()).filter((d) => d.kind === kind).map((d) => d.name);
}

/** One client's answers, from a process of its own. */
function probe(packageName: string, job: string): Promise<ClientAnswer> {
  const out = join(dir, `${packageName.replace(/\W/g, '_')}.json`);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [PROBE, packageName, job, out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', (error) => resolve({ package: packageName, failed: error.message }));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) {
        resolve({ package: packageName, failed: `exit ${code ?? signal} after ${seconds.toFixed(0)} s; its last lines: ${stderr.trim().split('\n').slice(-20).join('\n')}`, seconds });
        return;
      }
      resolve({ ...(JSON.parse(readFileSync(out, 'utf8')) as ClientAnswer), seconds });
    });
  });
}

function storageVersion(file: string): number {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(20);
    readSync(fd, header, 0, 20, 0);
    expect(header.toString('latin1', 8, 12)).toBe('DUCK');
    return Number(header.readBigUInt64LE(12));
  } finally {
    closeSync(fd);
  }
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
  const sameRow = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((v, j) => sameValue(v, b[j]));
  // in the same order more often than not (rate_slots' 120,000 rows are): then nothing to sort
  if (answer.rows!.every((row, i) => sameRow(row, reference.rows![i]!))) return '';
  const mine = sortedRows(answer.rows!);
  const theirs = sortedRows(reference.rows!);
  for (let i = 0; i < mine.length; i++) {
    if (!sameRow(mine[i]!, theirs[i]!)) return `row ${JSON.stringify(mine[i])}, 1.5.6: ${JSON.stringify(theirs[i])}`;
  }
  return '';
}

const fullFiles = () => snapshots.filter((s) => s.full);

describe('the files and what is asked of them', () => {
  it('each command of the chain ran as a user runs it, leaving a checkpointed --db and working file', () => {
    console.log(`chain ${timings.chain?.toFixed(1)} s (${ran.map((r) => `${r.step.name} ${r.seconds.toFixed(1)} s`).join(', ')}); probes ${timings.probes?.toFixed(1)} s`);
    expect(ran.map((r) => [r.step.name, r.result.code])).toEqual(steps.map((s) => [s.name, s.code ?? 0]));
    expect(snapshots.filter((s) => s.name.endsWith(': published')).map((s) => s.step)).toEqual(steps.map((s) => s.name));
    expect(Object.keys(workingFiles), 'each step leaves a working file, read apart or the same bytes as --db').toEqual(steps.map((s) => s.name));
  });

  it('are made by DuckDB instances that all get storageCompatibilityConfig()', () => {
    // one place creates DuckDB instances in src/, and it passes the settings (a file that creates
    // its own would write what 1.1-1.3 cannot read)
    const sources = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const creating = sources.filter((f) => /DuckDBInstance\.create\(/.test(readFileSync(join(SRC, f), 'utf8')));
    expect(creating.length).toBeGreaterThan(0);
    for (const f of creating) expect(readFileSync(join(SRC, f), 'utf8'), f).toMatch(/storageCompatibilityConfig\(\)/);
  });

  it('are made in a storage version DuckDB 1.1 reads (64), and keep their primary-key lookups', async () => {
    const scratch = join(dir, 'scratch.duckdb');
    (await Warehouse.open(scratch, { template: false })).close();
    const versions = Object.fromEntries([...snapshots.map((s) => [s.name, storageVersion(s.path)]),
      ['template', storageVersion(warehouseTemplatePath())], ['scratch', storageVersion(scratch)]]);
    expect(versions).toEqual(Object.fromEntries(Object.keys(versions).map((name) => [name, 64])));
    // A file made with storage_compatibility_version 'v1.1.0' by DuckDB 1.5.5 finds no row here
    // after its first write and checkpoint (src/store/storageCompatibility.ts).
    for (const file of fullFiles()) {
      const warehouse = await Warehouse.open(file.path, { readOnly: true });
      try {
        expect(await warehouse.all(`SELECT local_date FROM london_days WHERE local_date = DATE '2023-06-01'`), file.name).toHaveLength(1);
      } finally {
        warehouse.close();
      }
    }
  });

  it('covers every view and macro, and 1.5.6 answers each call with rows', () => {
    const current = answers.get(CURRENT.package)!;
    expect(current.failed).toBeUndefined();
    expect(current.version).toBe(CURRENT.version);
    // every macro of sql/ has its calls (a new macro: add its line to MACRO_CALLS)
    expect(Object.keys(MACRO_CALLS).sort(), 'MACRO_CALLS: one entry per macro of sql/public and sql/internal').toEqual(definitions.macros);
    for (const file of fullFiles()) {
      const answer = current.files![file.name]!;
      expect(answer.open_error, file.name).toBeUndefined();
      // what the file holds is what sql/ defines
      expect({ views: answer.views, macros: answer.macros }, file.name).toEqual(definitions);
      const empty = plan.filter((p) => (answer.results![p.name]?.rows?.length ?? 0) === 0).map((p) => p.name);
      const errors = plan.filter((p) => answer.results![p.name]?.error).map((p) => `${p.name}: ${answer.results![p.name]!.error}`);
      expect(errors, file.name).toEqual([]);
      expect(empty, `${file.name}: statements without rows compare nothing`).toEqual([]);
    }
  });
});

describe.each(OLD_CLIENTS)('DuckDB $version ($package)', (client) => {
  it('opens the file of every step (and its working file) read-only, and reads every table as 1.5.6 does', () => {
    const answer = answers.get(client.package)!;
    const reference = answers.get(CURRENT.package)!;
    console.log(`${client.version}: ${snapshots.length} files, ${plan.length} statements on ${fullFiles().length} of them, in ${answer.seconds?.toFixed(1)} s`);
    expect(answer.failed).toBeUndefined();
    expect(answer.version).toBe(client.version);
    const differences = snapshots.flatMap((s) => {
      const mine = answer.files![s.name]!;
      const theirs = reference.files![s.name]!;
      if (mine.open_error) return [`${s.name}: does not open: ${mine.open_error}`];
      if (theirs.open_error) return [`${s.name}: 1.5.6 does not open it: ${theirs.open_error}`];
      return JSON.stringify({ views: mine.views, macros: mine.macros, tables: mine.tables })
        === JSON.stringify({ views: theirs.views, macros: theirs.macros, tables: theirs.tables })
        ? [] : [`${s.name}: ${JSON.stringify({ views: mine.views, macros: mine.macros, tables: mine.tables }).slice(0, 600)}`];
    });
    expect(differences).toEqual([]);
  });

  it('answers every view and macro call as 1.5.6 does, after the chain and after migrate --vacuum', () => {
    const answer = answers.get(client.package)!;
    const reference = answers.get(CURRENT.package)!;
    const differences = fullFiles().flatMap((file) => plan
      .map((p) => ({ name: p.name, difference: difference(answer.files?.[file.name]?.results?.[p.name], reference.files![file.name]!.results![p.name]!) }))
      .filter((d) => d.difference !== '')
      .map((d) => `${file.name}: ${d.name}: ${d.difference.slice(0, 400)}`));
    expect(differences).toEqual([]);
  });
});
