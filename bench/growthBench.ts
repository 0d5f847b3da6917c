// How cost grows with the work: ingest of 1, 4 and 14 tariffs (the sandbox on loopback);
// analytics over 1M, 10M (and, with --growth-full, 100M) half-hours generated inside DuckDB;
// 1,000 and 10,000 meters × a year of half-hourly readings priced under 3 tariffs by
// `tariffs compare --all-meters` (and, at 1,000, by the hand-written set-wise SQL, alternated).
// Each step runs in its own process: its time, its peak RSS and the file it leaves.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_FROM } from './benchTariffs.js';
import { HALF_HOURS_A_YEAR } from './generateMeters.js';
import { backfill, growthExponent, round } from './ingestBench.js';
import { benchTariffs, compareAllMeters, compareAnswers, handwrittenPortfolio } from './portfolioGrowth.js';
import { runJson, startBenchSandbox, type Measured } from './processes.js';

const SERIES_ROWS = 76_604; // half-hours of the real J series each generated tariff copies
/** Meters priced one by one (`tariffs compare --meter`) at each size, evenly spread; the time scaled to all. */
const PRICED_METERS = 10;
/** The time a portfolio command may take (issue 41's target for 10,000 meters): past it, it is stopped. */
const PORTFOLIO_LIMIT_SECONDS = 600;
/** The size at which `compare --all-meters` and the hand-written SQL alternate, and their runs each. */
const RATIO_METERS = 1000;
const RATIO_RUNS = 3;
const COST_TARIFFS = 3;

export interface GrowthSizes {
  tariffs: number[];
  halfHours: number[];
  meters: number[];
}

const SIZES: Record<'quick' | 'standard' | 'full', GrowthSizes> = {
  quick: { tariffs: [1, 2, 4], halfHours: [100_000, 300_000, 1_000_000], meters: [10, 100] },
  standard: { tariffs: [1, 4, 14], halfHours: [1_000_000, 10_000_000], meters: [1_000, 10_000] },
  full: { tariffs: [1, 4, 14], halfHours: [1_000_000, 10_000_000, 100_000_000], meters: [1_000, 10_000] },
};

/** One row of the growth table. */
export interface GrowthStep {
  phase: string;
  /** The size of the work, in `unit`s. */
  size: number;
  unit: string;
  /** Rows the step wrote, or the rows its question is over (rates, half-hours, readings). */
  rows: number;
  /** Rows of the answer (questions only). */
  answerRows?: number;
  seconds: number | null;
  maxRssMb: number | null;
  /** The DuckDB file after the step (building steps only). */
  fileMb: number | null;
  /** Not run at this size: time (and file size) extrapolated from the measured sizes. */
  estimated?: boolean;
  /** The step ran but failed (out of memory, …): the first line of its error. */
  error?: string;
  /** Not to be extrapolated past its sizes (what limits it is not time). */
  noEstimate?: boolean;
  note?: string;
}

interface StepOutput {
  seconds: number;
  processSeconds: number;
  maxRssMb: number;
  rows?: number;
  answerRows?: number;
  readings?: number;
  pricedMeters?: number;
  tariffs?: number;
}

const fileMb = (db: string) => round(((statSync(db).size + (existsSync(`${db}.wal`) ? statSync(`${db}.wal`).size : 0)) / 2 ** 20), 1);
const step = (args: string[]) => runJson<StepOutput>('./growthStep.js', args);

/** options.meters (`--growth-meters=1000,…`): the cost steps alone, at these sizes. */
export async function growthBench(quick: boolean, log: (line: string) => void, options: { full?: boolean; meters?: number[] } = {}):
  Promise<{ results: Record<string, number>; details: Record<string, unknown> }> {
  const preset = SIZES[quick ? 'quick' : options.full ? 'full' : 'standard'];
  const sizes = options.meters ? { tariffs: [], halfHours: [], meters: options.meters } : preset;
  const results: Record<string, number> = {};
  const portfolio: Record<string, unknown> = {};
  const dir = mkdtempSync(join(tmpdir(), 'tariffs-bench-growth-'));
  const loadBefore = loadavg().map((l) => round(l, 2));
  const started = performance.now();
  const steps: GrowthStep[] = [];
  const add = (s: GrowthStep) => {
    steps.push(s);
    log(`growth: ${s.phase}, ${s.size} ${s.unit}: ${s.error ? `failed (${s.error})` : `${s.seconds?.toFixed(2)} s, peak RSS ${s.maxRssMb} MB${s.fileMb === null ? '' : `, file ${s.fileMb} MB`}`}`);
  };
  try {
    if (sizes.tariffs.length > 0) await ingestSteps(dir, sizes.tariffs, add);
    if (sizes.halfHours.length > 0) await analyticsSteps(dir, sizes.halfHours, add);
    await costSteps(dir, sizes.meters, add, { results, portfolio, log });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const table = withEstimates(steps, quick ? sizes : SIZES.full); // grouped by phase; --quick estimates nothing
  process.stdout.write(`${formatGrowthTable(table)}\n`);
  return {
    results,
    details: {
      sizes, portfolio, load_before: loadBefore, load_after: loadavg().map((l) => round(l, 2)),
      seconds: round((performance.now() - started) / 1000, 1), steps: table, exponents: exponents(steps),
    },
  };
}

async function ingestSteps(dir: string, sizes: number[], add: (s: GrowthStep) => void): Promise<void> {
  const server = await startBenchSandbox(Math.max(...sizes));
  try {
    for (const n of sizes) {
      const db = join(dir, `ingest-${n}.duckdb`);
      const run = await backfill(db, server.baseUrl, server.tariffs.slice(0, n), BENCH_FROM);
      if (run.status !== 'ok' || run.inserted !== n * SERIES_ROWS) throw new Error(`growth: backfill of ${n} tariffs: ${JSON.stringify(run)}`);
      add({ phase: 'ingest (backfill from the API)', size: n, unit: n === 1 ? 'tariff' : 'tariffs', rows: run.inserted,
        seconds: round(run.seconds), maxRssMb: run.maxRssMb, fileMb: fileMb(db) });
      rmSync(db, { force: true });
    }
  } finally {
    await server.stop();
  }
}

const ANALYTICS: [question: string, phase: string][] = [
  ['daily', 'daily_stats, every tariff (export)'],
  ['cheapest-all', 'cheapest 2h per day, every tariff (export)'],
  ['cheapest-one', 'cheapest 2h per day, one tariff (CLI)'],
];

async function analyticsSteps(dir: string, sizes: number[], add: (s: GrowthStep) => void): Promise<void> {
  for (const halfHours of sizes) {
    const copies = Math.max(1, Math.round(halfHours / SERIES_ROWS));
    const db = join(dir, `analytics-${copies}.duckdb`);
    try {
      const built = await attempt(() => step(['analytics-build', db, String(copies)]));
      add(row('analytics: write unit_rates', halfHours, 'half-hours', built, copies * SERIES_ROWS, () => fileMb(db)));
      if ('error' in built) continue;
      for (const [question, phase] of ANALYTICS) {
        const answered = await attempt(() => step(['analytics-query', db, question]));
        add(row(`analytics: ${phase}`, halfHours, 'half-hours', answered, copies * SERIES_ROWS));
      }
    } finally {
      rmSync(db, { force: true });
      rmSync(`${db}.wal`, { force: true });
    }
  }
}

interface CostContext {
  results: Record<string, number>;
  portfolio: Record<string, unknown>;
  log: (line: string) => void;
}

async function costSteps(dir: string, sizes: number[], add: (s: GrowthStep) => void, context: CostContext): Promise<void> {
  const ratioAt = Math.max(...sizes.filter((n) => n <= RATIO_METERS));
  for (const meters of sizes) {
    const db = join(dir, `cost-${meters}.duckdb`);
    const readings = meters * HALF_HOURS_A_YEAR;
    const unit = meters === 1 ? 'meter' : 'meters';
    try {
      const built = await attempt(() => step(['cost-build', db, String(meters)]));
      add(row('cost: write a year of readings', meters, unit, built, readings, () => fileMb(db)));
      if ('error' in built) continue;
      const priced = await attempt(() => step(['cost-query', db, String(meters), String(PRICED_METERS)]));
      const compare = row('cost: compare under 3 tariffs, meter by meter (CLI)', meters, unit, priced, readings);
      if (!('error' in priced) && priced.pricedMeters! < meters) {
        // the meters priced, evenly spread, stand for all of them
        compare.seconds = round(priced.seconds * (meters / priced.pricedMeters!));
        compare.estimated = true;
        compare.note = `${priced.pricedMeters} of ${meters} meters priced (${priced.seconds.toFixed(1)} s), the time scaled to all`;
      }
      add(compare);
      await portfolioSteps(dir, db, meters, meters === ratioAt, add, context);
    } finally {
      rmSync(db, { force: true });
      rmSync(`${db}.wal`, { force: true });
    }
  }
}

/** `tariffs compare --all-meters` of every meter (one command); at `ratio`, alternated with the
 *  hand-written SQL, RATIO_RUNS each, the answers checked equal and the best of each kept. */
async function portfolioSteps(dir: string, db: string, meters: number, ratio: boolean, add: (s: GrowthStep) => void, context: CostContext): Promise<void> {
  const tariffs = benchTariffs(COST_TARIFFS);
  const readings = meters * HALF_HOURS_A_YEAR;
  const cliCsv = join(dir, `compare-${meters}.csv`);
  const handCsv = join(dir, `hand-${meters}.csv`);
  const cliRuns: Measured[] = [];
  const handRuns: Measured[] = [];
  const failed = (m: Measured) => m.timedOut || m.code !== 0;
  for (let i = 0; i < (ratio ? RATIO_RUNS : 1); i++) {
    const c = await compareAllMeters(db, tariffs, cliCsv, PORTFOLIO_LIMIT_SECONDS);
    cliRuns.push(c);
    context.log(`growth: compare --all-meters, ${meters} meters: ${failed(c) ? 'stopped or failed' : 'done'} in ${c.seconds.toFixed(1)} s, peak RSS ${c.maxRssMb} MB`);
    if (failed(c) || !ratio) break;
    const h = await handwrittenPortfolio(db, tariffs, handCsv, PORTFOLIO_LIMIT_SECONDS);
    handRuns.push(h);
    context.log(`growth: hand-written SQL, ${meters} meters: ${failed(h) ? 'stopped or failed' : 'done'} in ${h.seconds.toFixed(1)} s, peak RSS ${h.maxRssMb} MB`);
    if (failed(h)) break;
  }
  const unit = 'meters';
  const measuredRow = (phase: string, runs: Measured[]): GrowthStep => {
    const best = runs.filter((m) => !failed(m)).sort((a, b) => a.seconds - b.seconds)[0];
    const last = runs[runs.length - 1]!;
    const why = last.timedOut ? `not finished in ${PORTFOLIO_LIMIT_SECONDS} s (stopped)` : `exit ${last.code}: ${last.stderr.trim().split('\n').pop()}`;
    return best
      ? { phase, size: meters, unit, rows: readings, seconds: round(best.seconds), maxRssMb: Math.max(...runs.map((m) => m.maxRssMb ?? 0)), fileMb: null, noEstimate: true,
        ...(runs.length > 1 ? { note: `best of ${runs.length} (${runs.map((m) => m.seconds.toFixed(1)).join(', ')} s), alternated` } : {}) }
      : { phase, size: meters, unit, rows: readings, seconds: null, maxRssMb: last.maxRssMb, fileMb: null, noEstimate: true, error: why.slice(0, 200) };
  };
  const cliRow = measuredRow('cost: compare --all-meters under 3 tariffs, one command (CLI)', cliRuns);
  add(cliRow);
  const details: Record<string, unknown> = { cli_runs: cliRuns.map(summary) };
  if (ratio && handRuns.length > 0) {
    const handRow = measuredRow('cost: the same rows, hand-written set-wise SQL (bare script)', handRuns);
    add(handRow);
    details.handwritten_runs = handRuns.map(summary);
    if (cliRow.seconds !== null && handRow.seconds !== null) {
      const check = await compareAnswers(cliCsv, handCsv);
      if (check.different > 0 || check.rows !== meters * (COST_TARIFFS + 1)) {
        throw new Error(`growth: compare --all-meters and the hand-written SQL disagree at ${meters} meters: ${JSON.stringify(check)}`);
      }
      details.answers = { ...check, equal: true };
      context.results.portfolio_vs_handwritten_ratio = round(cliRow.seconds / handRow.seconds);
      context.results.portfolio_peak_rss_mb = cliRow.maxRssMb!;
    }
  }
  context.portfolio[String(meters)] = details;
}

const summary = (m: Measured) => ({
  seconds: round(m.seconds), max_rss_mb: m.maxRssMb, cpu_seconds: m.cpuSeconds === null ? null : round(m.cpuSeconds, 1),
  exit: m.code, timed_out: m.timedOut,
});

/** A step's output, or its failure (a step that runs out of memory is a finding, not a crash). */
async function attempt(work: () => Promise<StepOutput>): Promise<StepOutput | { error: string }> {
  try {
    return await work();
  } catch (error) {
    return { error: String((error as Error).message).split('\n')[0]!.slice(0, 200) };
  }
}

function row(phase: string, size: number, unit: string, out: StepOutput | { error: string }, rows: number, file?: () => number): GrowthStep {
  if ('error' in out) return { phase, size, unit, rows, seconds: null, maxRssMb: null, fileMb: null, error: out.error };
  const written = out.rows ?? out.readings;
  if (written !== undefined && written !== rows) throw new Error(`growth: ${phase}, ${size} ${unit}: wrote ${written} rows, not ${rows}`);
  return {
    phase, size, unit, rows, ...(out.answerRows === undefined ? {} : { answerRows: out.answerRows }),
    seconds: round(out.seconds), maxRssMb: out.maxRssMb, fileMb: file ? file() : null,
  };
}

/** Each phase's time = a · rows^b over its measured sizes. */
function exponents(steps: GrowthStep[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [phase, measured] of byPhase(steps)) {
    const points = measured.filter((s) => s.seconds !== null && !s.estimated && s.seconds > 0).map((s) => ({ rows: s.rows, seconds: s.seconds! }));
    if (points.length >= 2) out[phase] = round(growthExponent(points), 2);
  }
  return out;
}

function byPhase(steps: GrowthStep[]): Map<string, GrowthStep[]> {
  const phases = new Map<string, GrowthStep[]>();
  for (const s of steps) phases.set(s.phase, [...(phases.get(s.phase) ?? []), s]);
  return phases;
}

/** The measured steps, and for each phase the full sizes it did not run, estimated from its last
 *  two measured sizes (time at the exponent of those two, file size in proportion; memory not). */
export function withEstimates(steps: GrowthStep[], full: GrowthSizes): GrowthStep[] {
  const out: GrowthStep[] = [];
  for (const [phase, measured] of byPhase(steps)) {
    out.push(...measured);
    const ok = measured.filter((s) => s.seconds !== null && s.seconds > 0);
    const [a, b] = ok.slice(-2);
    const unit = measured[0]!.unit;
    const fullSizes = phase.startsWith('ingest') ? full.tariffs : phase.startsWith('analytics') ? full.halfHours : full.meters;
    for (const size of fullSizes.filter((n) => n > Math.max(...measured.map((s) => s.size)))) {
      if (!a || !b || measured.some((s) => s.noEstimate)) continue;
      const exponent = growthExponent([{ rows: a.rows, seconds: a.seconds! }, { rows: b.rows, seconds: b.seconds! }]);
      const rows = Math.round(b.rows * (size / b.size));
      out.push({
        phase, size, unit: unit === 'meter' ? 'meters' : unit, rows,
        seconds: round(b.seconds! * (rows / b.rows) ** exponent), maxRssMb: null,
        fileMb: b.fileMb === null ? null : round(b.fileMb * (rows / b.rows), 1),
        estimated: true, note: `extrapolated: time ∝ size^${exponent.toFixed(2)} from ${a.size} and ${b.size}`,
      });
    }
  }
  return out;
}

const count = (n: number) => (n >= 1e6 ? `${round(n / 1e6, 1)}M` : n.toLocaleString('en-GB'));

export function formatGrowthTable(steps: GrowthStep[]): string {
  const rows = steps.map((s) => [
    s.phase,
    `${count(s.size)} ${s.unit}`,
    count(s.rows),
    s.error ? 'failed' : `${s.estimated ? '~' : ''}${s.seconds! >= 100 ? Math.round(s.seconds!) : s.seconds!.toFixed(2)}`,
    s.maxRssMb === null ? '' : String(s.maxRssMb),
    s.fileMb === null ? '' : `${s.estimated ? '~' : ''}${s.fileMb}`,
    s.error ?? s.note ?? '',
  ]);
  const head = ['step', 'size', 'rows', 'time s', 'peak RSS MB', 'file MB', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 && i <= 5 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [
    'growth: time of the work, peak RSS of the process doing it, the DuckDB file after it (~ = estimated, not run)',
    line(head), ...rows.map(line),
  ].join('\n');
}
