// Analytics benchmarks: cheapest_window_per_day (price_windows per local day) against the best
// hand-written DuckDB SQL for the same answer (checked equal) and a plain TypeScript sliding
// window; daily statistics and negative slots likewise; and the macro's time at three sizes for
// its growth exponent.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { sandboxDataDir } from '../src/paths.js';
import { exportReports } from '../src/report/exportReports.js';
import { Warehouse, type OpenOptions } from '../src/store/Warehouse.js';
import { growthExponent, round } from './ingestBench.js';

const SERIES_ROWS = 76_604;
const SLOTS = 4; // a 2-hour window

/** Tariffs a statement writes in buildWarehouse, so a large warehouse is written without one
 *  sort of all its rows (same rows, in the same order). */
const COPIES_PER_INSERT = 100;

/** unit_rates with `copies` tariffs, each the real J series, clustered by tariff as ingest writes them. */
export async function buildWarehouse(file: string, copies: number, options: OpenOptions = {}): Promise<Warehouse> {
  // the rates are inserted, not merged: built over an earlier file, every price would be there twice
  if (existsSync(file)) throw new Error(`${file}: exists; the bench builds its warehouse in a new file`);
  const w = await Warehouse.open(file, options);
  const csv = join(sandboxDataDir(), 'wyvernp-agile_predictor', 'csv_agile_J_South_Eastern_England.csv');
  await w.run(`CREATE TEMP TABLE series AS
    WITH prices AS (
        SELECT CAST(timestamp AS TIMESTAMPTZ) AS valid_from, price AS value_inc_vat
        FROM read_csv($csv, header = true, columns = {'timestamp': 'VARCHAR', 'price': 'DOUBLE'}))
    SELECT valid_from, value_inc_vat, london_local(valid_from) AS l FROM prices`, { csv });
  for (let first = 0; first < copies; first += COPIES_PER_INSERT) {
    await w.run(`INSERT INTO unit_rates
      SELECT printf('E-1R-BENCH-%03d-A', k), 'standard', valid_from, valid_from + INTERVAL 30 MINUTE,
             round(value_inc_vat / 1.05, 4), value_inc_vat, NULL, l.local_date, 1, l.local_start,
             l.utc_offset_minutes, l.settlement_period, 1800000000
      FROM series CROSS JOIN range(CAST($first AS BIGINT), CAST($last AS BIGINT)) AS r(k)
      ORDER BY k, valid_from`, { first, last: Math.min(copies, first + COPIES_PER_INSERT) });
  }
  await w.checkpoint();
  return w;
}

const tariffsOf = async (w: Warehouse) =>
  (await w.all('SELECT DISTINCT tariff_code FROM unit_rates ORDER BY 1')).map((r) => r.tariff_code as string);

const RANGE = { range_from: '2000-01-01T00:00:00Z', range_to: '2100-01-01T00:00:00Z' };

/** The best hand-written SQL for the same answer as the macro — the cheapest 2-hour window of
 *  each local day (ties: earliest) with its means inc and exc VAT and its local start and end —
 *  written by someone who knows the data is half-hourly and reads unit_rates directly. */
const LOCAL_ISO = (ts: string) => `strftime(timezone('Europe/London', ${ts}), '%Y-%m-%dT%H:%M:%S')
    || CASE WHEN epoch(timezone('Europe/London', ${ts})) - epoch(${ts}) = 3600 THEN '+01:00' ELSE '+00:00' END`;
export const HANDWRITTEN_CHEAPEST = `
  WITH w AS (
    SELECT local_date, valid_from,
           sum(value_inc_vat) OVER win AS s,
           sum(value_exc_vat) OVER win AS se,
           lag(valid_from, ${SLOTS - 1}) OVER win AS first_start
    FROM unit_rates
    WHERE tariff_code = $tariff AND rate_type = 'standard'
    WINDOW win AS (PARTITION BY local_date ORDER BY valid_from ROWS ${SLOTS - 1} PRECEDING)),
  best AS (
    SELECT local_date, arg_min({start: first_start, s: s, se: se}, (round(s, 9), first_start)) AS b
    FROM w WHERE first_start = valid_from - INTERVAL ${(SLOTS - 1) * 30} MINUTE
    GROUP BY local_date)
  SELECT local_date, b.start AS start, ${LOCAL_ISO('b.start')} AS local_start,
         ${LOCAL_ISO(`b.start + INTERVAL ${SLOTS * 30} MINUTE`)} AS local_end,
         b.s / ${SLOTS} AS mean_inc_vat, b.se / ${SLOTS} AS mean_exc_vat
  FROM best ORDER BY local_date`;

export const MACRO_CHEAPEST = `
  SELECT local_date, start, local_start, local_end, mean_inc_vat, mean_exc_vat
  FROM cheapest_window_per_day($tariff, ${SLOTS}, CAST($range_from AS TIMESTAMPTZ), CAST($range_to AS TIMESTAMPTZ))
  ORDER BY local_date`;

/** The highest-priced 2-hour window of each local day (export, peaks): the same hand-written
 *  SQL ranked the other way; ties still go to the earliest start. */
const HANDWRITTEN_HIGHEST = HANDWRITTEN_CHEAPEST.replace('(round(s, 9), first_start)', '(round(-s, 9), first_start)');
const MACRO_HIGHEST = MACRO_CHEAPEST.replace('CAST($range_to AS TIMESTAMPTZ))', 'CAST($range_to AS TIMESTAMPTZ), highest := true)');

/** Weights 2,1,1,1 (an appliance drawing double in its first half-hour): score Σ price × weight =
 *  the window's sum plus its first price, as an expert would write it for these weights. */
const HANDWRITTEN_WEIGHTED = `
  WITH w AS (
    SELECT local_date, valid_from,
           sum(value_inc_vat) OVER win AS s,
           sum(value_exc_vat) OVER win AS se,
           lag(value_inc_vat, ${SLOTS - 1}) OVER win AS first_price,
           lag(valid_from, ${SLOTS - 1}) OVER win AS first_start
    FROM unit_rates
    WHERE tariff_code = $tariff AND rate_type = 'standard'
    WINDOW win AS (PARTITION BY local_date ORDER BY valid_from ROWS ${SLOTS - 1} PRECEDING)),
  best AS (
    SELECT local_date, arg_min({start: first_start, s: s, se: se}, (round(s + first_price, 9), first_start)) AS b
    FROM w WHERE first_start = valid_from - INTERVAL ${(SLOTS - 1) * 30} MINUTE
    GROUP BY local_date)
  SELECT local_date, b.start AS start, ${LOCAL_ISO('b.start')} AS local_start,
         ${LOCAL_ISO(`b.start + INTERVAL ${SLOTS * 30} MINUTE`)} AS local_end,
         b.s / ${SLOTS} AS mean_inc_vat, b.se / ${SLOTS} AS mean_exc_vat
  FROM best ORDER BY local_date`;
const MACRO_WEIGHTED = MACRO_CHEAPEST.replace('CAST($range_to AS TIMESTAMPTZ))', 'CAST($range_to AS TIMESTAMPTZ), weights := [2.0, 1, 1, 1])');

/**
 * The highest-price and weighted variants of cheapest_window_per_day against their best
 * hand-written SQL (answers checked equal), each timed twice, the best of two kept.
 */
export async function variantsBench(w: Warehouse, tariffs: string[], details: Record<string, unknown>, log: (line: string) => void): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const variants = { highest: [MACRO_HIGHEST, HANDWRITTEN_HIGHEST], weighted: [MACRO_WEIGHTED, HANDWRITTEN_WEIGHTED] } as const;
  for (const [name, [macroSql, handSql]] of Object.entries(variants)) {
    const macro = await timeAll(w, tariffs, macroSql);
    const hand = await timeAll(w, tariffs, handSql);
    if (!sameAnswers(macro.rows, hand.rows)) throw new Error(`${name}: the macro and the hand-written SQL disagree`);
    const macroBest = Math.min(macro.seconds, (await timeAll(w, tariffs, macroSql)).seconds);
    const handBest = Math.min(hand.seconds, (await timeAll(w, tariffs, handSql)).seconds);
    out[`${name}_vs_handwritten_ratio`] = round(macroBest / handBest);
    details[name] = { tariffs: tariffs.length, macro_seconds: round(macroBest), handwritten_seconds: round(handBest), answers_equal: true };
    log(`${name} 2h window per day: macro ${macroBest.toFixed(2)} s vs hand-written ${handBest.toFixed(2)} s`);
  }
  return out;
}

async function timeAll(w: Warehouse, tariffs: string[], sql: string): Promise<{ seconds: number; rows: Record<string, unknown>[][] }> {
  const started = performance.now();
  const rows: Record<string, unknown>[][] = [];
  for (const tariff of tariffs) rows.push(await w.all(sql, { tariff, ...RANGE }));
  return { seconds: (performance.now() - started) / 1000, rows };
}

function sameAnswers(a: Record<string, unknown>[][], b: Record<string, unknown>[][]): boolean {
  if (a.length !== b.length) return false;
  return a.every((rows, i) => rows.length === b[i]!.length && rows.every((r, j) => {
    const o = b[i]![j]!;
    return r.local_date === o.local_date && r.start === o.start && r.local_start === o.local_start
      && r.local_end === o.local_end && Math.abs((r.mean_inc_vat as number) - (o.mean_inc_vat as number)) < 1e-9
      && Math.abs((r.mean_exc_vat as number) - (o.mean_exc_vat as number)) < 1e-9;
  }));
}

/** The same question in plain TypeScript over rows read from DuckDB. */
async function typescriptCheapest(w: Warehouse, tariffs: string[]): Promise<number> {
  const started = performance.now();
  for (const tariff of tariffs) {
    const reader = await w.reader(`SELECT epoch_ms(valid_from) AS t, local_date, value_inc_vat FROM unit_rates
      WHERE tariff_code = $tariff ORDER BY valid_from`, { tariff });
    const cols = reader.getColumnsJS() as [number[], Date[], number[]];
    const [t, day, price] = cols;
    let best = new Map<number, { start: number; sum: number }>();
    for (let i = SLOTS - 1; i < t.length; i++) {
      const first = i - SLOTS + 1;
      if (t[i]! - t[first]! !== (SLOTS - 1) * 1_800_000 || day[i]!.getTime() !== day[first]!.getTime()) continue;
      let sum = 0;
      for (let k = first; k <= i; k++) sum += price[k]!;
      const key = day[i]!.getTime();
      const current = best.get(key);
      if (!current || sum < current.sum - 1e-9) best.set(key, { start: t[first]!, sum });
    }
    best = new Map();
  }
  return (performance.now() - started) / 1000;
}

export async function analyticsBench(quick: boolean, log: (line: string) => void): Promise<{ results: Record<string, number>; details: Record<string, unknown> }> {
  const dir = mkdtempSync(join(tmpdir(), 'tariffs-bench-analytics-'));
  const results: Record<string, number> = {};
  const details: Record<string, unknown> = {};
  try {
    const sizes = quick ? [3, 7, 13] : [13, 44, 131]; // × 76,604 half-hours: ~1M / ~10M at the top
    const growth: { rows: number; seconds: number }[] = [];
    for (const copies of sizes) {
      const w = await buildWarehouse(join(dir, `a-${copies}.duckdb`), copies);
      try {
        const tariffs = await tariffsOf(w);
        const rows = copies * SERIES_ROWS;
        await timeAll(w, tariffs.slice(0, 1), MACRO_CHEAPEST); // warm the file cache
        const macro = await timeAll(w, tariffs, MACRO_CHEAPEST);
        growth.push({ rows, seconds: macro.seconds });
        log(`cheapest 2h window per day, ${rows} half-hours: macro ${macro.seconds.toFixed(2)} s`);
        if (copies !== sizes.at(-1)) continue;
        const hand = await timeAll(w, tariffs, HANDWRITTEN_CHEAPEST);
        const macroAgain = await timeAll(w, tariffs, MACRO_CHEAPEST);
        const handAgain = await timeAll(w, tariffs, HANDWRITTEN_CHEAPEST);
        if (!sameAnswers(macro.rows, hand.rows)) throw new Error('the macro and the hand-written SQL disagree');
        const macroBest = Math.min(macro.seconds, macroAgain.seconds);
        const handBest = Math.min(hand.seconds, handAgain.seconds);
        results.cheapest_vs_handwritten_ratio = round(macroBest / handBest);
        const ts = await typescriptCheapest(w, tariffs);
        details.cheapest = {
          rows, tariffs: tariffs.length, macro_seconds: round(macroBest), handwritten_seconds: round(handBest),
          typescript_seconds: round(ts), answers_equal: true, days: macro.rows.reduce((s, r) => s + r.length, 0),
        };
        log(`macro ${macroBest.toFixed(2)} s vs hand-written ${handBest.toFixed(2)} s vs TypeScript ${ts.toFixed(2)} s`);
        Object.assign(results, await variantsBench(w, tariffs, details, log));
        Object.assign(results, await statsBench(w, tariffs, details, log));
        w.close();
        Object.assign(results, await exportBench(join(dir, `a-${copies}.duckdb`), rows, join(dir, 'reports'), details, log));
      } finally {
        if (w.connection) closeQuietly(w);
      }
    }
    results.cheapest_growth_exponent = round(growthExponent(growth));
    details.cheapest_growth = growth;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { results, details };
}

function closeQuietly(w: Warehouse): void {
  try {
    w.close();
  } catch {
    // already closed
  }
}

/** exportReports of every tariff as CSV, then as Parquet: half-hours exported per second. */
async function exportBench(db: string, halfHours: number, outDir: string, details: Record<string, unknown>, log: (line: string) => void): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const files: Record<string, unknown> = {};
  for (const format of ['csv', 'parquet'] as const) {
    const started = performance.now();
    const result = await exportReports({ db, outDir: join(outDir, format), formats: [format] });
    const seconds = (performance.now() - started) / 1000;
    out[`export_${format}_rows_per_s`] = Math.round(halfHours / seconds);
    files[format] = { seconds: round(seconds), files: result.files.map((f) => ({ file: basename(f.path), rows: f.rows })) };
    log(`export ${format}: ${halfHours} half-hours in ${seconds.toFixed(2)} s (${result.files.reduce((n, f) => n + f.rows, 0)} report rows)`);
  }
  details.export = { half_hours: halfHours, rows_per_s: 'half-hours of rate_slots turned into the reports per second', ...files };
  return out;
}

/** daily_stats and negative_slots views against hand-written SQL over the whole table: each
 *  answer computed whole (every column, into a temporary table) and checked equal. Timing
 *  `count(*)` over them instead, as this bench once did, let DuckDB drop every column the count
 *  does not need, so it timed a different question: whether a row is half-hourly, read from two
 *  columns by the view. */
async function statsBench(w: Warehouse, tariffs: string[], details: Record<string, unknown>, log: (line: string) => void): Promise<Record<string, number>> {
  const time = async (sql: string, into: string) => {
    let best = Infinity;
    for (let k = 0; k < 3; k++) {
      const started = performance.now();
      await w.run(`CREATE OR REPLACE TEMP TABLE ${into} AS ${sql}`);
      best = Math.min(best, (performance.now() - started) / 1000);
    }
    return { seconds: best, rows: Number((await w.one(`SELECT count(*) AS n FROM ${into}`))!.n) };
  };
  // The hand-written forms answer the same questions (same columns, in order) straight from
  // unit_rates, as an expert who knows the data is half-hourly would.
  const daily = await time(`SELECT * FROM daily_stats`, 'bench_view');
  const dailyHand = await time(`SELECT tariff_code, payment_method, rate_type, local_date, slots, expected_slots, mn, mx, mean,
      q[1], q[2], q[3], negative, peak, off_peak, mean_exc
    FROM (SELECT u.tariff_code, u.payment_method, u.rate_type, u.local_date, CAST(count(*) AS INTEGER) AS slots,
            any_value(l.slots) AS expected_slots, min(value_inc_vat) AS mn, max(value_inc_vat) AS mx, avg(value_inc_vat) AS mean,
            quantile_cont(value_inc_vat, [0.5, 0.1, 0.9]) AS q, CAST(count(*) FILTER (WHERE value_inc_vat < 0) AS INTEGER) AS negative,
            avg(value_inc_vat) FILTER (WHERE hour(local_start) BETWEEN 16 AND 18) AS peak,
            avg(value_inc_vat) FILTER (WHERE hour(local_start) NOT BETWEEN 16 AND 18) AS off_peak, avg(value_exc_vat) AS mean_exc
          FROM unit_rates AS u JOIN london_days AS l USING (local_date) GROUP BY ALL)`, 'bench_hand');
  const dailyEqual = await sameTables(w, 'bench_view', 'bench_hand');
  const negative = await time(`SELECT * FROM negative_slots`, 'bench_view');
  const negativeHand = await time(`SELECT tariff_code, valid_from, valid_from + INTERVAL 30 MINUTE, local_date, local_start,
      utc_offset_minutes, settlement_period, value_exc_vat, value_inc_vat, payment_method, rate_type
    FROM unit_rates WHERE value_inc_vat < 0`, 'bench_hand');
  const negativeEqual = await sameTables(w, 'bench_view', 'bench_hand');
  if (!dailyEqual || !negativeEqual) throw new Error(`the views and the hand-written SQL disagree (daily_stats ${dailyEqual}, negative_slots ${negativeEqual})`);
  await w.run('DROP TABLE bench_view; DROP TABLE bench_hand');
  details.stats = {
    tariffs: tariffs.length, daily, daily_handwritten: dailyHand, negative, negative_handwritten: negativeHand, answers_equal: true,
  };
  log(`daily_stats ${daily.seconds.toFixed(2)} s (hand-written ${dailyHand.seconds.toFixed(2)} s); negative_slots ${negative.seconds.toFixed(2)} s (hand-written ${negativeHand.seconds.toFixed(2)} s)`);
  return {
    daily_stats_vs_handwritten_ratio: round(daily.seconds / dailyHand.seconds),
    negative_slots_vs_handwritten_ratio: round(negative.seconds / negativeHand.seconds),
  };
}

/** Two tables of the same shape (columns by position) hold the same rows: rows pair up by their
 *  other columns, and their doubles agree to 1e-9 relative. A mean's last bits depend on the order
 *  DuckDB's threads combine partial sums in, from one run to the next; rounded to 9 places, as
 *  this once compared them, a value on a rounding boundary failed a run now and then. */
async function sameTables(w: Warehouse, a: string, b: string): Promise<boolean> {
  const columns = await w.all(`SELECT column_name AS name, data_type AS type FROM information_schema.columns
    WHERE table_name = $a ORDER BY ordinal_position`, { a });
  const positions = await w.all(`SELECT column_name AS name FROM information_schema.columns WHERE table_name = $b ORDER BY ordinal_position`, { b });
  if (columns.length !== positions.length) return false;
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const names = columns.map((c) => quoted(c.name as string));
  // b's columns under a's names, by position
  const right = `SELECT ${positions.map((p, i) => `${quoted(p.name as string)} AS ${names[i]}`).join(', ')} FROM ${b}`;
  const keys = names.filter((_, i) => columns[i]!.type !== 'DOUBLE');
  const doubles = names.filter((_, i) => columns[i]!.type === 'DOUBLE');
  const on = keys.map((k) => `x.${k} IS NOT DISTINCT FROM y.${k}`).join(' AND ') || 'true';
  const close = doubles.map((d) => `(x.${d} IS NOT DISTINCT FROM y.${d} OR abs(x.${d} - y.${d}) <= 1e-9 * greatest(1, abs(x.${d}), abs(y.${d})))`)
    .join(' AND ') || 'true';
  const row = await w.one(`SELECT (SELECT count(*) FROM ${a}) AS na, (SELECT count(*) FROM ${b}) AS nb,
      (SELECT count(*) FROM ${a} AS x JOIN (${right}) AS y ON ${on} WHERE ${close}) AS matched`);
  return Number(row!.na) === Number(row!.nb) && Number(row!.matched) === Number(row!.na);
}
