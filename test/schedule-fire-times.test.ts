// Fire times across the clock changes of 2026 (spring forward Sun 29 March, fall back Sun 25
// October), from the lister with an injected "now" (croner's rule: a wall time in the skipped hour
// runs when the clocks resume, one in the repeated hour once, at its first (BST) occurrence).
import { describe, expect, it } from 'vitest';
import { fireTimes, parseCron } from '../src/cron/fireTimes.js';
import { resolveSchedules } from '../src/schedule/resolveSchedules.js';
import { upcomingRuns } from '../src/schedule/upcomingRuns.js';
import { loadConfig } from '../src/config/loadConfig.js';
import { JOBS } from '../src/jobs/index.js';
import { formatLocal } from '../src/time/index.js';

/** The config without a file or environment: each test takes a copy. */
const DEFAULT_CONFIG = await loadConfig({}, {});

const iso = (dates: Date[]) => dates.map((d) => d.toISOString().replace('.000Z', 'Z'));
const local = (dates: Date[]) => dates.map(formatLocal);
/** The first fire time after `after` (within a year). */
const nextFireTime = (expr: string, after: Date): Date | undefined => fireTimes(expr, after, new Date(after.getTime() + 366 * 86_400_000), 1)[0];

// Local days as UTC intervals: 29 March is 23 h long (00:00Z–23:00Z), 25 October 25 h (23:00Z–00:00Z).
const SPRING = { from: new Date('2026-03-29T00:00:00Z'), to: new Date('2026-03-29T23:00:00Z') };
const FALL = { from: new Date('2026-10-24T23:00:00Z'), to: new Date('2026-10-26T00:00:00Z') };
/** Fire times within a local day [from, to): the lister's interval is (after, until]. */
const within = (expr: string, day: { from: Date; to: Date }) =>
  fireTimes(expr, new Date(day.from.getTime() - 1000), new Date(day.to.getTime() - 1000));

describe('fireTimes: a job at 01:30 Europe/London', () => {
  it('on the spring-forward day (01:30 does not exist) runs when the clocks resume, 02:00 BST, and at 01:30 BST the next day', () => {
    const times = fireTimes('30 1 * * *', new Date('2026-03-28T02:00:00Z'), new Date('2026-03-31T02:00:00Z'));
    expect(local(times)).toEqual(['2026-03-29T02:00:00+01:00', '2026-03-30T01:30:00+01:00', '2026-03-31T01:30:00+01:00']);
    expect(iso(times)).toEqual(['2026-03-29T01:00:00Z', '2026-03-30T00:30:00Z', '2026-03-31T00:30:00Z']);
    expect(iso(within('30 1 * * *', SPRING))).toEqual(['2026-03-29T01:00:00Z']);
  });

  it('runs once on the fall-back day, at the first occurrence (01:30 BST)', () => {
    expect(iso(within('30 1 * * *', FALL))).toEqual(['2026-10-25T00:30:00Z']);
    expect(local(within('30 1 * * *', FALL))).toEqual(['2026-10-25T01:30:00+01:00']);
    // Seen from just before the first 01:30 (00:29Z = 01:29 BST), the next run is that one.
    expect(nextFireTime('30 1 * * *', new Date('2026-10-25T00:29:00Z'))!.toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });

  it('started after the first 01:30 (in either pass of the repeated hour), waits for the next day', () => {
    // 00:45Z is 01:45 BST: 01:30 BST has passed.
    expect(nextFireTime('30 1 * * *', new Date('2026-10-25T00:45:00Z'))!.toISOString()).toBe('2026-10-26T01:30:00.000Z');
    // 01:10Z is 01:10 GMT, second pass: 01:30 ran at its first occurrence and does not run again.
    expect(nextFireTime('30 1 * * *', new Date('2026-10-25T01:10:00Z'))!.toISOString()).toBe('2026-10-26T01:30:00.000Z');
  });
});

describe('fireTimes: the default schedules on the clock-change days', () => {
  const cases: { expr: string; day: 'spring' | 'fall'; count: number; first: string; last: string }[] = [
    // rates: every half-hour the day has, 46 and 50 (both passes of the repeated hour).
    { expr: '*/30 * * * *', day: 'spring', count: 46, first: '2026-03-29T00:00:00Z', last: '2026-03-29T22:30:00Z' },
    { expr: '*/30 * * * *', day: 'fall', count: 50, first: '2026-10-24T23:00:00Z', last: '2026-10-25T23:30:00Z' },
    { expr: '*/5 16-19 * * *', day: 'spring', count: 48, first: '2026-03-29T15:00:00Z', last: '2026-03-29T18:55:00Z' },
    { expr: '*/5 16-19 * * *', day: 'fall', count: 48, first: '2026-10-25T16:00:00Z', last: '2026-10-25T19:55:00Z' },
    { expr: '0 6 * * *', day: 'spring', count: 1, first: '2026-03-29T05:00:00Z', last: '2026-03-29T05:00:00Z' },
    { expr: '0 6 * * *', day: 'fall', count: 1, first: '2026-10-25T06:00:00Z', last: '2026-10-25T06:00:00Z' },
    { expr: '15 20 * * *', day: 'spring', count: 1, first: '2026-03-29T19:15:00Z', last: '2026-03-29T19:15:00Z' },
    { expr: '15 20 * * *', day: 'fall', count: 1, first: '2026-10-25T20:15:00Z', last: '2026-10-25T20:15:00Z' },
    // a daily job in the skipped hour runs when the clocks resume; in the repeated hour, once (BST)
    { expr: '0 1 * * *', day: 'spring', count: 1, first: '2026-03-29T01:00:00Z', last: '2026-03-29T01:00:00Z' },
    { expr: '0 1 * * *', day: 'fall', count: 1, first: '2026-10-25T00:00:00Z', last: '2026-10-25T00:00:00Z' },
    { expr: '0 2 * * *', day: 'spring', count: 1, first: '2026-03-29T01:00:00Z', last: '2026-03-29T01:00:00Z' },
  ];
  it.each(cases)('$expr on the $day day: $count runs', ({ expr, day, count, first, last }) => {
    const times = iso(within(expr, day === 'spring' ? SPRING : FALL));
    expect(times).toHaveLength(count);
    if (count > 0) {
      expect(times[0]).toBe(first);
      expect(times.at(-1)).toBe(last);
    }
    expect(new Set(times).size).toBe(times.length);
  });

  it('rates on the fall-back day: every half-hour of both passes of the repeated hour, no pause', () => {
    const times = iso(fireTimes('*/30 * * * *', new Date('2026-10-24T23:00:00Z'), new Date('2026-10-25T02:00:00Z')));
    expect(times).toEqual(['2026-10-24T23:30:00Z', '2026-10-25T00:00:00Z', '2026-10-25T00:30:00Z', '2026-10-25T01:00:00Z',
      '2026-10-25T01:30:00Z', '2026-10-25T02:00:00Z']);
  });

  it('second-level expressions (tests compress cycles with them), through the repeated hour', () => {
    const times = iso(fireTimes('*/2 * * * * *', new Date('2026-03-28T11:59:55Z'), new Date('2026-03-28T12:00:04Z')));
    expect(times).toEqual(['2026-03-28T11:59:56Z', '2026-03-28T11:59:58Z', '2026-03-28T12:00:00Z', '2026-03-28T12:00:02Z', '2026-03-28T12:00:04Z']);
    // Through the repeated hour without a pause: both passes, every 2 seconds (1804 ticks in 3607 s).
    const fall = iso(fireTimes('*/2 * * * * *', new Date('2026-10-24T23:59:55Z'), new Date('2026-10-25T01:00:02Z')));
    expect(fall.slice(0, 4)).toEqual(['2026-10-24T23:59:56Z', '2026-10-24T23:59:58Z', '2026-10-25T00:00:00Z', '2026-10-25T00:00:02Z']);
    expect(fall).toHaveLength(1804);
    expect(fall.at(-1)).toBe('2026-10-25T01:00:02Z');
  });

  it('day-of-month AND day-of-week: both must match (Friday the 13th), in the daemon as in the list', () => {
    const times = iso(fireTimes('0 6 13 * 5', new Date('2026-01-01T00:00:00Z'), new Date('2027-01-01T00:00:00Z')));
    expect(times).toEqual(['2026-02-13T06:00:00Z', '2026-03-13T06:00:00Z', '2026-11-13T06:00:00Z']);
  });

  it('refuses expressions it cannot list, naming where they came from', () => {
    expect(() => parseCron('61 * * * *', 'schedules.rates')).toThrow(/schedules\.rates: '61 \* \* \* \*' is not a cron expression/);
    expect(() => parseCron('0 6 L * *', 'schedules.products')).toThrow(/not supported/);
  });
});

describe('tariffs schedule --list data (upcomingRuns)', () => {
  it('merges coinciding ticks of one job and keeps config overrides and "off"', () => {
    const config = { ...DEFAULT_CONFIG, schedules: { ...DEFAULT_CONFIG.schedules } };
    config.schedules = { products: '30 1 * * *', reports: 'off' };
    const listed = upcomingRuns(resolveSchedules(JOBS, config), new Date('2026-03-28T15:55:00Z'), 48);
    expect(listed.map((j) => j.job)).toEqual(['products', 'rates']);
    const products = listed.find((j) => j.job === 'products')!.next;
    expect(products).toEqual([
      { at: '2026-03-29T01:00:00Z', local: '2026-03-29T02:00:00+01:00', triggers: ['products'] },
      { at: '2026-03-30T00:30:00Z', local: '2026-03-30T01:30:00+01:00', triggers: ['products'] },
    ]);
    const rates = listed.find((j) => j.job === 'rates')!.next;
    expect(rates[0]).toEqual({ at: '2026-03-28T16:00:00Z', local: '2026-03-28T16:00:00+00:00', triggers: ['rates', 'day_ahead'] });
    expect(rates[1]).toEqual({ at: '2026-03-28T16:05:00Z', local: '2026-03-28T16:05:00+00:00', triggers: ['day_ahead'] });
    // Sunday's watch starts at 16:00 BST = 15:00Z.
    expect(rates.some((r) => r.at === '2026-03-29T15:00:00Z' && r.triggers.includes('day_ahead'))).toBe(true);
  });
});
