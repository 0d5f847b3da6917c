// One step of the growth bench in its own process, so that its peak RSS
// (process.resourceUsage().maxRSS) is that step's alone. Prints one JSON line: {seconds (the
// work: building, or answering after the file is open), processSeconds, maxRssMb, ...counts}. Steps:
//   analytics-build DB COPIES        unit_rates of COPIES tariffs × 76,604 half-hours (buildWarehouse)
//   analytics-query DB QUESTION      daily | cheapest-all | cheapest-one, read-only, as the CLI and export ask
//   cost-build DB METERS             3 priced tariffs, METERS meters × a year of readings
//   cost-query DB METERS SAMPLE      tariff_comparison (`tariffs compare`) of SAMPLE of the meters, evenly spread
// (every meter at once is `tariffs compare --all-meters`, run as a command: portfolioGrowth.ts)
import { cheapestWindows, tariffComparison } from '../src/analytics/index.js';
import { resolveScope, scopeParams } from '../src/report/exportScope.js';
import { REPORTS } from '../src/report/reports.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { buildWarehouse } from './analyticsBench.js';
import { buildPricedWarehouse, FROM, TO } from './costBench.js';
import { generateMeters, HALF_HOURS_A_YEAR, mpanOf } from './generateMeters.js';

const COST_TARIFFS = 3;
/** DuckDB's memory_limit in every step: the machine is shared, and DuckDB's default (80% of RAM)
 *  would let one step take what other processes need. A step that needs more fails, and says so. */
const OPEN = { memoryLimit: '10GB' };

const [step, db, ...args] = process.argv.slice(2);
if (!step || !db) throw new Error('usage: growthStep.js STEP DB ...');
const started = performance.now();
const out: Record<string, unknown> = {};
/** Times the step's work (the question, not opening the file). */
async function timed<T>(work: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const result = await work();
  out.seconds = (performance.now() - t) / 1000;
  return result;
}

if (step === 'analytics-build') {
  const w = await timed(() => buildWarehouse(db, Number(args[0]), OPEN));
  out.rows = Number((await w.one('SELECT count(*) AS n FROM unit_rates'))!.n);
  w.close();
} else if (step === 'analytics-query') {
  const w = await Warehouse.open(db, { ...OPEN, readOnly: true });
  try {
    const question = args[0];
    if (question === 'cheapest-one') {
      // `tariffs cheapest --tariff T --slots 4 --per-day`: one tariff's answer in a warehouse of many
      const tariff = String((await w.one('SELECT min(tariff_code) AS t FROM unit_rates'))!.t);
      out.answerRows = (await timed(() => cheapestWindows(w, { tariff, slots: 4, perDay: true, rounded: true }))).length;
    } else {
      // what `tariffs export` computes for daily_stats.csv / cheapest_2h_per_day.csv, every tariff
      const name = question === 'daily' ? 'daily_stats' : question === 'cheapest-all' ? 'cheapest_2h_per_day' : undefined;
      const report = REPORTS.find((r) => r.name === name);
      if (!report) throw new Error(`analytics-query: no question ${question}`);
      const scope = await timed(async () => {
        const found = await resolveScope(w, {});
        await w.run(`CREATE TEMP TABLE growth_answer AS ${report.query}`, scopeParams(found));
        return found;
      });
      out.answerRows = Number((await w.one('SELECT count(*) AS n FROM growth_answer'))!.n);
      out.tariffs = scope.tariffs.length;
    }
  } finally {
    w.close();
  }
} else if (step === 'cost-build') {
  const { warehouse, tariffs } = await buildPricedWarehouse(db, COST_TARIFFS, OPEN);
  out.pricesSeconds = (performance.now() - started) / 1000;
  try {
    // the step's work: the readings (the prices of 3 tariffs are the same at every size)
    out.readings = (await timed(() => generateMeters(warehouse, Number(args[0]), tariffs[0]!))).readings;
  } finally {
    warehouse.close();
  }
} else if (step === 'cost-query') {
  const meters = Number(args[0]);
  const sample = Math.min(meters, Number(args[1]));
  const w = await Warehouse.open(db, { ...OPEN, readOnly: true });
  try {
    const tariffs = (await w.all('SELECT DISTINCT tariff_code FROM unit_rates ORDER BY 1')).map((r) => String(r.tariff_code));
    const request = { tariffs, payment: 'DIRECT_DEBIT' as const, from: new Date(FROM), to: new Date(TO), rounded: true };
    await timed(async () => {
      for (let j = 0; j < sample; j++) {
        const meter = mpanOf(Math.floor((j * meters) / sample));
        const rows = await tariffComparison(w, { ...request, meter });
        // a degenerate answer would time nothing: every scenario, every day, every reading priced
        const wrong = rows.length !== tariffs.length + 1
          || rows.some((r) => Number(r.missing_readings) !== 0 || Number(r.days) !== HALF_HOURS_A_YEAR / 48 || !(Number(r.kwh) > 0));
        if (wrong) throw new Error(`cost-query: meter ${meter}: ${JSON.stringify(rows)}`);
        out.missingPrices = Number(rows[0]!.missing_prices);
      }
    });
    out.pricedMeters = sample;
  } finally {
    w.close();
  }
} else {
  throw new Error(`growthStep: unknown step ${step}`);
}

out.processSeconds = (performance.now() - started) / 1000;
out.maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(`${JSON.stringify(out)}\n`);
