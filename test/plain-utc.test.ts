// plainUtcMs (src/time/plainUtc.ts) against Date.parse. Nothing in src/ calls it since the rate
// pages are read by JSON.parse and zod: delete the two together.
import { describe, expect, it } from 'vitest';
import { plainUtcMs } from '../src/time/plainUtc.js';
import { HALF_HOUR_MS } from '../src/time/index.js';

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('plainUtcMs', () => {
  it('equals Date.parse on every half-hour of 1999-2031 (leap days, clock changes, year ends)', () => {
    let checked = 0;
    for (let t = Date.parse('1999-12-31T00:00:00Z'); t < Date.parse('2031-01-02T00:00:00Z'); t += HALF_HOUR_MS) {
      const text = iso(t);
      if (plainUtcMs(text) !== Date.parse(text)) throw new Error(`${text}: ${plainUtcMs(text)}`);
      checked++;
    }
    expect(checked).toBeGreaterThan(540_000);
  });

  it('is NaN for every other form, and for impossible dates and times', () => {
    for (const text of [
      '2023-02-29T00:00:00Z', '2100-02-29T00:00:00Z', '2024-04-31T00:00:00Z', '2024-13-01T00:00:00Z', '2024-00-10T00:00:00Z',
      '2024-01-00T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:60:00Z', '2024-01-01T00:00:60Z', '2024-01-01 00:00:00Z',
      '2024-01-01T00:00:00+00:00', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00Z', '2024-1a-01T00:00:00Z', '20240101T000000Z',
      '2024-01-01T00:00:00z', '', 'not a date at all!!!', '0050-01-01T00:00:00Z', '0999-12-31T23:30:00Z',
    ]) {
      expect(plainUtcMs(text), text).toBeNaN();
    }
    // the day part is remembered: a valid day after an invalid time on it is still read
    expect(plainUtcMs('2024-02-29T25:00:00Z')).toBeNaN();
    expect(plainUtcMs('2024-02-29T23:30:00Z')).toBe(Date.parse('2024-02-29T23:30:00Z'));
  });
});

