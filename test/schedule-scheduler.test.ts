// The real Scheduler (croner underneath) driven by vitest's fake clock: what runs when across
// 2026-03-29 and 2026-10-25 with a job at 01:30 local, one job at a time, backoff after
// failures, follow-ups, and stopping with a job running. Jobs are stand-ins that record calls.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JOBS } from '../src/jobs/index.js';
import { BlockedError } from '../src/api/errors.js';
import { loadConfig, type Config } from '../src/config/loadConfig.js';
import { silentLogger } from '../src/log/createLogger.js';
import type { JobContext, JobDefinition, JobName, JobResult } from '../src/schedule/Job.js';
import { Scheduler } from '../src/schedule/Scheduler.js';
import { upcomingRuns } from '../src/schedule/upcomingRuns.js';

/** The config without a file or environment: each test takes a copy. */
const DEFAULT_CONFIG = await loadConfig({}, {});

interface Call {
  job: JobName;
  /** The second the run was due (it starts a tick later, after setImmediate). */
  at: string;
  /** When it started, to the millisecond. */
  ms: number;
  triggers: string[];
}

type Behaviour = (ctx: JobContext, n: number) => Promise<JobResult>;

const ok: Behaviour = async () => ({ status: 'ok', ratesChanged: 0 });

/** The real job definitions (names, schedules, follow-ups) with run() replaced. */
function standIns(calls: Call[], behaviours: Partial<Record<JobName, Behaviour>> = {}): JobDefinition[] {
  const counts = new Map<JobName, number>();
  return JOBS.map((job) => ({
    ...job,
    run: async (ctx: JobContext) => {
      const n = (counts.get(job.name) ?? 0) + 1;
      counts.set(job.name, n);
      // The run starts a tick after its timer (setImmediate): keep the second it was due.
      const second = new Date(Math.floor(ctx.now().getTime() / 1000) * 1000);
      calls.push({ job: job.name, at: second.toISOString().replace('.000Z', 'Z'), ms: ctx.now().getTime(), triggers: [...ctx.triggers] });
      return (behaviours[job.name] ?? ok)(ctx, n);
    },
  }));
}

function configWith(schedules: Config['schedules']): Config {
  const config = { ...DEFAULT_CONFIG, schedules: { ...DEFAULT_CONFIG.schedules } };
  config.schedules = schedules;
  return config;
}

const at = (calls: Call[], job: JobName) => calls.filter((c) => c.job === job).map((c) => c.at);

afterEach(() => {
  vi.useRealTimers();
});

describe('Scheduler on the clock-change days (fake clock, croner underneath)', () => {
  const days = [
    {
      name: 'spring forward 2026-03-29', start: '2026-03-28T23:00:00Z', hours: 26,
      // 01:30 does not exist on the 29th: the 01:30 job runs when the clocks resume (02:00 BST),
      // then on the 30th at 01:30 BST.
      products: ['2026-03-29T01:00:00Z', '2026-03-30T00:30:00Z'],
    },
    {
      name: 'fall back 2026-10-25', start: '2026-10-24T22:00:00Z', hours: 27,
      // 01:30 happens twice on the 25th: one run, at the first (01:30 BST).
      products: ['2026-10-25T00:30:00Z'],
    },
  ];
  for (const day of days) {
    it(`${day.name}: runs exactly what the lister lists, the 01:30 job included`, async () => {
      vi.useFakeTimers({ now: new Date(day.start) });
      const calls: Call[] = [];
      const config = configWith({ products: '30 1 * * *' });
      const scheduler = new Scheduler({ jobs: standIns(calls), config, logger: silentLogger() });
      scheduler.start();
      await vi.advanceTimersByTimeAsync(day.hours * 3_600_000 + 1_000);
      expect(await scheduler.stop()).toBe('idle');

      const expected = upcomingRuns(scheduler.schedules, new Date(day.start), day.hours);
      for (const job of expected) {
        expect(at(calls, job.job), job.job).toEqual(job.next.map((n) => n.at));
      }
      expect(at(calls, 'products')).toEqual(day.products);
      // Coinciding ticks (16:00, 16:30 … 19:30) start one run that carries both triggers.
      const sixteen = calls.filter((c) => c.job === 'rates' && c.triggers.length === 2);
      expect(sixteen.length).toBe(8);
      for (const c of sixteen) expect(c.triggers.sort()).toEqual(['day_ahead', 'rates']);
      expect(new Set(calls.map((c) => `${c.job}@${c.at}`)).size).toBe(calls.length);
    });
  }

  it('spring forward: the half-hourly job runs 46 times in the 23-hour day', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-28T23:59:00Z') });
    const calls: Call[] = [];
    const scheduler = new Scheduler({ jobs: standIns(calls), config: configWith({ day_ahead: 'off', products: 'off', reports: 'off' }), logger: silentLogger() });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(23 * 3_600_000);
    await scheduler.stop();
    const rates = at(calls, 'rates');
    expect(rates).toHaveLength(46);
    expect(rates.slice(0, 4)).toEqual(['2026-03-29T00:00:00Z', '2026-03-29T00:30:00Z', '2026-03-29T01:00:00Z', '2026-03-29T01:30:00Z']);
  });

  it('fall back: the half-hourly job runs through both passes of the repeated hour, 50 times in the 25-hour day', async () => {
    vi.useFakeTimers({ now: new Date('2026-10-24T22:59:00Z') });
    const calls: Call[] = [];
    const scheduler = new Scheduler({ jobs: standIns(calls), config: configWith({ day_ahead: 'off', products: 'off', reports: 'off' }), logger: silentLogger() });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(25 * 3_600_000);
    await scheduler.stop();
    const rates = at(calls, 'rates');
    expect(rates).toHaveLength(50);
    expect(rates.slice(0, 6)).toEqual(['2026-10-24T23:00:00Z', '2026-10-24T23:30:00Z', '2026-10-25T00:00:00Z', '2026-10-25T00:30:00Z',
      '2026-10-25T01:00:00Z', '2026-10-25T01:30:00Z']);
  });
});

describe('Scheduler: one job at a time, backoff, follow-ups, stop', () => {
  it('never runs two jobs at once; ticks of a running job are dropped, other jobs wait their turn', async () => {
    vi.useFakeTimers({ now: new Date('2026-06-01T12:00:00.500Z') });
    const calls: Call[] = [];
    let running = 0;
    let maxRunning = 0;
    const slow = (ms: number): Behaviour => async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      return { status: 'ok', ratesChanged: 0 };
    };
    const scheduler = new Scheduler({
      jobs: standIns(calls, { rates: slow(2500), reports: slow(300) }),
      config: configWith({ rates: '* * * * * *', reports: '* * * * * *', day_ahead: 'off', products: 'off' }),
      logger: silentLogger(),
    });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(10_000);
    const stopped = scheduler.stop({ graceMs: 10_000 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await stopped).toBe('finished');
    expect(maxRunning).toBe(1);
    // rates (2.5 s) can start at most every 2.8 s (itself plus one queued reports run).
    expect(at(calls, 'rates').length).toBeGreaterThanOrEqual(3);
    expect(at(calls, 'rates').length).toBeLessThanOrEqual(4);
    for (let i = 1; i < calls.length; i++) {
      expect(calls[i]!.ms - calls[i - 1]!.ms).toBeGreaterThanOrEqual(calls[i - 1]!.job === 'rates' ? 2500 : 300);
    }
  });

  it('a failing job skips its next 1, 2, 4 ticks, then runs every tick again after a success', async () => {
    vi.useFakeTimers({ now: new Date('2026-06-01T12:00:00.500Z') });
    const calls: Call[] = [];
    const failing: Behaviour = async (_ctx, n) => {
      if (n <= 3) throw new Error(`boom ${n}`);
      return { status: 'ok', ratesChanged: 0 };
    };
    const outcomes: string[] = [];
    const scheduler = new Scheduler({
      jobs: standIns(calls, { rates: failing }),
      config: configWith({ rates: '* * * * * *', day_ahead: 'off', products: 'off', reports: 'off' }),
      logger: silentLogger(),
      onOutcome: (o) => outcomes.push(o.status),
    });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(13_000);
    await scheduler.stop();
    // Ticks at :01 … :13. Fail at :01 (skip :02), fail at :03 (skip :04 :05), fail at :06
    // (skip :07 … :10), succeed at :11, then every tick.
    expect(at(calls, 'rates').map((t) => Number(t.slice(17, 19)))).toEqual([1, 3, 6, 11, 12, 13]);
    expect(outcomes).toEqual(['failed', 'failed', 'failed', 'ok', 'ok', 'ok']);
  });

  it('a run the API refused (a block) skips no tick: the next tick, the day-ahead watch included, tries again', async () => {
    vi.useFakeTimers({ now: new Date('2026-06-01T12:00:00.500Z') });
    const calls: Call[] = [];
    const blocked: Behaviour = async (_ctx, n) => {
      if (n <= 3) throw new BlockedError('Request blocked', { method: 'GET', url: 'http://127.0.0.1/v1/products/', status: 403 });
      return { status: 'ok', ratesChanged: 0 };
    };
    const outcomes: string[] = [];
    const scheduler = new Scheduler({
      jobs: standIns(calls, { rates: blocked }),
      config: configWith({ rates: 'off', day_ahead: '* * * * * *', products: 'off', reports: 'off' }),
      logger: silentLogger(),
      onOutcome: (o) => outcomes.push(`${o.status}${o.blocked ? ' blocked' : ''}`),
    });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(6_000);
    await scheduler.stop();
    expect(at(calls, 'rates').map((t) => Number(t.slice(17, 19)))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(calls.every((c) => c.triggers.includes('day_ahead'))).toBe(true);
    expect(outcomes).toEqual(['failed blocked', 'failed blocked', 'failed blocked', 'ok', 'ok', 'ok']);
  });

  it('a run that stored new rates is followed by reports, triggered after:rates', async () => {
    vi.useFakeTimers({ now: new Date('2026-06-01T12:00:00.500Z') });
    const calls: Call[] = [];
    const scheduler = new Scheduler({
      jobs: standIns(calls, { rates: async (_ctx, n) => ({ status: 'ok', ratesChanged: n === 1 ? 48 : 0 }) }),
      config: configWith({ rates: '*/2 * * * * *', day_ahead: 'off', products: 'off' }),
      logger: silentLogger(),
    });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(5_000);
    await scheduler.stop();
    expect(calls.map((c) => `${c.job}:${c.triggers.join('+')}`)).toEqual(['rates:rates', 'reports:after:rates', 'rates:rates']);
  });

  it('a job whose schedules are all "off" is not run as a follow-up either', async () => {
    vi.useFakeTimers({ now: new Date('2026-06-01T12:00:00.500Z') });
    const calls: Call[] = [];
    const scheduler = new Scheduler({
      jobs: standIns(calls, { rates: async () => ({ status: 'ok', ratesChanged: 48 }) }),
      config: configWith({ rates: '*/2 * * * * *', day_ahead: 'off', products: 'off', reports: 'off' }),
      logger: silentLogger(),
    });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(5_000);
    await scheduler.stop();
    expect(calls.map((c) => c.job)).toEqual(['rates', 'rates']);
  });

  it('stop() waits for the running job within the grace period, else interrupts it', async () => {
    vi.useFakeTimers({ now: new Date('2026-06-01T12:00:00.500Z') });
    const interruptible: Behaviour = (ctx) => new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ status: 'ok', ratesChanged: 0 }), 5_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve({ status: 'interrupted', ratesChanged: 0 });
      });
    });
    for (const [graceMs, expected, status] of [[10_000, 'finished', 'ok'], [1_000, 'aborted', 'interrupted']] as const) {
      const calls: Call[] = [];
      const outcomes: string[] = [];
      const scheduler = new Scheduler({
        jobs: standIns(calls, { rates: interruptible }),
        config: configWith({ rates: '* * * * * *', day_ahead: 'off', products: 'off', reports: 'off' }),
        logger: silentLogger(),
        onOutcome: (o) => outcomes.push(o.status),
      });
      scheduler.start();
      await vi.advanceTimersByTimeAsync(1_200);
      expect(scheduler.running()).toBe('rates');
      const stopped = scheduler.stop({ graceMs });
      await vi.advanceTimersByTimeAsync(12_000);
      expect(await stopped).toBe(expected);
      expect(outcomes).toEqual([status]);
      expect(calls).toHaveLength(1);
    }
  });
});
