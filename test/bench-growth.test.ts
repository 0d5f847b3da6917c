// The growth bench (bench/growthBench.ts): the meters it generates are a year of readings whose
// local days have the half-hours the Europe/London calendar gives them (46 and 50 on the clock
// changes), priced whole by tariff_comparison; its steps run as real processes (the built
// dist/bench/growthStep.js) and report what they did; estimates are marked and follow the fit.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPricedWarehouse } from '../bench/costBench.js';
import { generateMeters, HALF_HOURS_A_YEAR, mpanOf } from '../bench/generateMeters.js';
import { formatGrowthTable, withEstimates, type GrowthStep } from '../bench/growthBench.js';
import { tariffComparison } from '../src/analytics/index.js';
import { packageRoot } from '../src/paths.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tariffs-bench-growth-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('generated meters', () => {
  it('each has a year of readings, every local day whole (46 / 48 / 50), priced under every tariff', { timeout: 120_000 }, async () => {
    const { warehouse: w, tariffs } = await buildPricedWarehouse(join(dir, 'meters.duckdb'), 3);
    try {
      expect(await generateMeters(w, 3, tariffs[0]!)).toEqual({ readings: 3 * HALF_HOURS_A_YEAR });
      expect(HALF_HOURS_A_YEAR).toBe(17_568);
      const meters = await w.all('SELECT meter_point, count(*) AS n FROM consumption GROUP BY 1 ORDER BY 1');
      expect(meters).toEqual([0, 1, 2].map((k) => ({ meter_point: mpanOf(k), n: HALF_HOURS_A_YEAR })));
      expect(mpanOf(9_999)).toMatch(/^19\d{11}$/);
      // days whose count of readings is not the calendar's: none (2023-03-26 has 46, 2023-10-29 has 50)
      const wrongDays = await w.all(`
        SELECT c.meter_point, c.local_date, count(*) AS n, any_value(d.slots) AS slots
        FROM consumption AS c JOIN london_days AS d USING (local_date)
        GROUP BY ALL HAVING count(*) <> any_value(d.slots)
           OR max(c.settlement_period) <> any_value(d.slots) OR count(DISTINCT c.settlement_period) <> count(*)`);
      expect(wrongDays).toEqual([]);
      const changes = await w.all(`SELECT local_date, count(*) AS n FROM consumption WHERE meter_point = $m
        AND local_date IN (DATE '2023-03-26', DATE '2023-10-29') GROUP BY 1 ORDER BY 1`, { m: mpanOf(1) });
      expect(changes.map((r) => r.n)).toEqual([46, 50]);

      const rows = await tariffComparison(w, {
        meter: mpanOf(2), tariffs, payment: 'DIRECT_DEBIT', from: new Date('2023-03-01T00:00:00Z'), to: new Date('2024-03-01T00:00:00Z'),
      });
      expect(rows.map((r) => r.scenario)).toEqual(['actual', ...tariffs]);
      for (const r of rows) {
        expect(r).toMatchObject({ days: 366, missing_readings: 0, standing_charge_missing_days: 0 });
        expect(Number(r.kwh)).toBeGreaterThan(1000);
      }
      expect(rows[0]!.total_inc_vat).toBeCloseTo(Number(rows[1]!.total_inc_vat), 6); // the agreement is the first tariff
    } finally {
      w.close();
    }
  });
});

describe('growth steps as processes', () => {
  const stepScript = join(packageRoot(), 'dist', 'bench', 'growthStep.js');
  const run = (...args: string[]) => {
    const child = spawnSync(process.execPath, [stepScript, ...args], { encoding: 'utf8', timeout: 110_000 });
    expect(child.status, child.stderr).toBe(0);
    return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
  };

  it('build, then compare every meter one by one: times, peak RSS, counts (every meter at once: the CLI, bench/portfolioGrowth.ts)', { timeout: 120_000 }, () => {
    const db = join(dir, 'cost-2.duckdb');
    const built = run('cost-build', db, '2');
    expect(built).toMatchObject({ readings: 2 * HALF_HOURS_A_YEAR });
    expect(built.seconds).toBeGreaterThan(0);
    expect(built.maxRssMb).toBeGreaterThan(30);
    const priced = run('cost-query', db, '2', '100');
    expect(priced).toMatchObject({ pricedMeters: 2 });
    expect(priced.seconds).toBeLessThanOrEqual(priced.processSeconds!);
  });

  it('analytics questions over a built warehouse answer every day of every tariff', { timeout: 120_000 }, () => {
    const db = join(dir, 'analytics-2.duckdb');
    expect(run('analytics-build', db, '2')).toMatchObject({ rows: 2 * 76_604 });
    const daily = run('analytics-query', db, 'daily');
    const all = run('analytics-query', db, 'cheapest-all');
    const one = run('analytics-query', db, 'cheapest-one');
    expect(daily).toMatchObject({ tariffs: 2 });
    expect(daily.answerRows).toBeGreaterThan(1500 * 2);
    // a window per day with 4 contiguous half-hours (a partial last day may have none)
    expect(all.answerRows).toBeLessThanOrEqual(daily.answerRows!);
    expect(all.answerRows).toBeGreaterThan(daily.answerRows! - 3);
    expect(one.answerRows! * 2).toBe(all.answerRows);
  });
});

describe('growth table', () => {
  const measured = (size: number, seconds: number): GrowthStep => ({
    phase: 'analytics: q', size, unit: 'half-hours', rows: size, seconds, maxRssMb: 100, fileMb: size / 1e5,
  });

  it('estimates the sizes not run from the last two, at their exponent, and marks them', () => {
    const full = { tariffs: [1], halfHours: [1e6, 1e7, 1e8], meters: [1] };
    const linear = withEstimates([measured(1e6, 1), measured(1e7, 10)], full);
    expect(linear.at(-1)).toMatchObject({ size: 1e8, seconds: 100, fileMb: 1000, maxRssMb: null, estimated: true });
    const quadratic = withEstimates([measured(1e6, 1), measured(1e7, 100)], full);
    expect(quadratic.at(-1)!.seconds).toBeCloseTo(10_000, 6);
    const table = formatGrowthTable(quadratic);
    expect(table).toMatch(/100M half-hours\s+100M\s+~10000\s+~1000\s+extrapolated: time ∝ size\^2\.00/);
    expect(table.split('\n')).toHaveLength(2 + 3);
  });

  it('estimates nothing for a phase limited by memory rather than time', () => {
    const steps = [measured(1e6, 1), measured(1e7, 10)].map((s) => ({ ...s, noEstimate: true }));
    expect(withEstimates(steps, { tariffs: [1], halfHours: [1e6, 1e7, 1e8], meters: [1] })).toHaveLength(2);
  });

  it('keeps a failed step as a failure, and estimates nothing from it', () => {
    const failed: GrowthStep = { ...measured(1e7, 0), seconds: null, maxRssMb: null, fileMb: null, error: 'Out of Memory Error' };
    const steps = withEstimates([measured(1e6, 1), failed], { tariffs: [1], halfHours: [1e6, 1e7, 1e8], meters: [1] });
    expect(steps).toHaveLength(2);
    expect(formatGrowthTable(steps)).toMatch(/failed\s+Out of Memory Error/);
  });
});
