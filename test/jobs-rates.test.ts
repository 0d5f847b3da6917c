// The rates job against the sandbox with an injected clock: the day-ahead watch fetches while
// tomorrow (2026-03-29, the 46-slot spring-forward day) is incomplete and stops once it is
// complete; extra ticks are harmless; the 30-minute tick always fetches. Real recorded prices:
// E-1R-AGILE-24-10-01-H covers 2026-03-28 20:00Z … 2026-03-29 23:30Z.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideDayAhead, job as ratesJob, run as runRates } from '../src/jobs/rates.js';
import { silentLogger } from '../src/log/createLogger.js';
import type { JobContext } from '../src/schedule/Job.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { query, tempDir, testConfig } from './helpers/warehouseTools.js';

const HALF_HOURLY = 'E-1R-AGILE-24-10-01-H';
const VARIABLE = 'E-1R-VAR-17-01-11-A';
/** Saturday 28 March 2026, 16:05 GMT: the watch is on, tomorrow is the spring-forward day. */
const NOW = new Date('2026-03-28T16:05:00Z');

describe('rates job: the day-ahead watch (sandbox, injected now)', () => {
  let sandbox: Sandbox;
  const tmp = tempDir('tariffs-watch-');
  const db = tmp.file('watch.duckdb');

  beforeAll(async () => {
    sandbox = await startSandbox({ visibleUntil: new Date('2026-03-29T00:00:00Z') });
  });
  afterAll(async () => {
    await sandbox.close();
    tmp.remove();
  });

  const ctx = async (triggers: string[]): Promise<JobContext> => ({
    config: await testConfig(db, sandbox.baseUrl, { tariffs: [HALF_HOURLY, VARIABLE], defaultFrom: '2026-03-28T00:00:00Z' }),
    logger: silentLogger(), now: () => NOW, signal: new AbortController().signal, triggers, busyTimeoutMs: 5_000,
  });
  const rateRequests = () => sandbox.requests.filter((r) => r.path.includes('-unit-rates')).length;
  const runsRecorded = async () => ((await query(db, "SELECT count(*) AS n FROM ingest_runs WHERE job = 'rates'"))[0]!.n as number);
  const storedHalfHours = async () => ((await query(db, `SELECT count(*) AS n FROM unit_rates WHERE tariff_code = '${HALF_HOURLY}'`))[0]!.n as number);
  const tomorrowSlots = async () => ((await query(db, `SELECT count(DISTINCT slot_start) AS n FROM rate_slots
      WHERE tariff_code = '${HALF_HOURLY}' AND local_date = DATE '2026-03-29'`))[0]!.n as number);

  it('fetches when there is no database yet', async () => {
    const result = await runRates(await ctx(['day_ahead']));
    expect(result.status).toBe('ok');
    expect(await storedHalfHours()).toBe(8); // 20:00Z…23:30Z of the 28th
    expect(result.ratesChanged).toBeGreaterThanOrEqual(8);
    expect(rateRequests()).toBeGreaterThan(0);
    expect(ratesJob.followUps!(result)).toEqual(['reports']);
  });

  it('keeps fetching while tomorrow has none or some of its 46 half-hours', async () => {
    let decision = await decideDayAhead(await ctx(['day_ahead']));
    expect(decision.fetch).toBe(true);
    expect(decision.tariffs.find((t) => t.tariffCode === HALF_HOURLY)).toMatchObject({ state: 'incomplete', stored: 0, expected: 46 });
    expect(decision.tariffs.find((t) => t.tariffCode === VARIABLE)?.state).toBe('not-half-hourly');

    let before = rateRequests();
    let result = await runRates(await ctx(['day_ahead']));
    expect(result.status).toBe('ok');
    expect(rateRequests()).toBeGreaterThan(before);
    expect(await storedHalfHours()).toBe(8); // nothing new published yet

    sandbox.setVisibleUntil(new Date('2026-03-29T12:00:00Z')); // partial: tomorrow's first 24 half-hours
    before = rateRequests();
    result = await runRates(await ctx(['day_ahead']));
    expect(rateRequests()).toBeGreaterThan(before);
    expect(result.ratesChanged).toBe(24);
    expect(await storedHalfHours()).toBe(8 + 24);
    expect(await tomorrowSlots()).toBe(24);
    decision = await decideDayAhead(await ctx(['day_ahead']));
    expect(decision.fetch).toBe(true);
    expect(decision.reason).toContain(`${HALF_HOURLY} 24/46`);
  });

  it('stops fetching once tomorrow is complete; missed or extra ticks change nothing', async () => {
    sandbox.setVisibleUntil(undefined); // the rest of the 29th is published
    const result = await runRates(await ctx(['day_ahead']));
    expect(result.ratesChanged).toBe(22 + 2); // the 29th's last 22 half-hours, and the 30th's first two
    expect(await tomorrowSlots()).toBe(46);
    const complete = await decideDayAhead(await ctx(['day_ahead']));
    expect(complete.fetch).toBe(false);
    expect(complete.tariffs.map((t) => [t.tariffCode, t.state])).toEqual([[HALF_HOURLY, 'complete'], [VARIABLE, 'not-half-hourly']]);

    const requests = rateRequests();
    const runs = await runsRecorded();
    for (let tick = 0; tick < 3; tick++) {
      const skipped = await runRates(await ctx(['day_ahead']));
      expect(skipped.status).toBe('skipped');
      expect(skipped.message).toMatch(/tomorrow \(2026-03-29\) complete/);
    }
    expect(rateRequests()).toBe(requests);
    expect(await runsRecorded()).toBe(runs);
  });

  it('the 30-minute tick (or one merged with it) fetches even when tomorrow is complete', async () => {
    const before = rateRequests();
    const runs = await runsRecorded();
    const result = await runRates(await ctx(['rates', 'day_ahead']));
    expect(result.status).toBe('ok');
    expect(result.ratesChanged).toBe(0);
    expect(ratesJob.followUps!(result)).toEqual([]);
    expect(rateRequests()).toBeGreaterThan(before);
    expect(await runsRecorded()).toBe(runs + 1);
  });

  it('the stored data has no duplicate slots and no open ingest run', async () => {
    expect(await query(db, `SELECT tariff_code, rate_type, valid_from, payment_method, count(*) AS n FROM unit_rates
        GROUP BY ALL HAVING count(*) > 1`)).toEqual([]);
    expect(await query(db, "SELECT run_id FROM ingest_runs WHERE status <> 'ok' OR finished_at IS NULL")).toEqual([]);
  });
});
