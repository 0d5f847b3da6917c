// Europe/London's offset from UTC by the UK rule, on epoch milliseconds, plus the reverse step from
// wall-clock time to UTC. Internal: the public functions in london.ts and format.ts build on these.
import { DAY_MS, HOUR_MS, civilFromDays, daysFromCivil, parseIsoDate } from './civil.js';
import { bstEndMs, bstStartMs } from './clockChanges.js';
import { InvalidTimeError } from './InvalidTimeError.js';

// Callers go row by row through one year, so remember the last UTC year's BST window.
let yearFromMs = 0;
let yearToMs = -1;
let bstFromMs = 0;
let bstToMs = 0;

/** Whether the UTC instant `utcMs` falls in British Summer Time. */
export function isBst(utcMs: number): boolean {
  if (!(utcMs >= yearFromMs && utcMs < yearToMs)) {
    const { year } = civilFromDays(Math.floor(utcMs / DAY_MS));
    yearFromMs = daysFromCivil(year, 1, 1) * DAY_MS;
    yearToMs = daysFromCivil(year + 1, 1, 1) * DAY_MS;
    bstFromMs = bstStartMs(year);
    bstToMs = bstEndMs(year);
  }
  return utcMs >= bstFromMs && utcMs < bstToMs;
}

/** Europe/London offset from UTC in ms (0 or 3 600 000) at the UTC instant `utcMs`. */
export function londonOffsetMs(utcMs: number): number {
  return isBst(utcMs) ? HOUR_MS : 0;
}

/**
 * UTC ms of a Europe/London wall-clock time given as ms since 1970-01-01T00:00 *local*.
 * In the repeated autumn hour the first occurrence (BST) wins; in the spring gap the result is NaN.
 */
export function wallMsToUtcMs(wallMs: number): number {
  const asBst = wallMs - HOUR_MS;
  if (isBst(asBst)) return asBst;
  if (!isBst(wallMs)) return wallMs;
  return NaN;
}

/** UTC ms at which the local day `days` (day number of a local date) starts; midnight is never in a gap. */
export function localDayStartMs(days: number): number {
  return wallMsToUtcMs(days * DAY_MS);
}

/** Epoch ms of a Date, or InvalidTimeError naming the function for an Invalid Date. */
export function instantMs(instant: Date, fn: string): number {
  const ms = instant.getTime();
  if (Number.isNaN(ms)) throw new InvalidTimeError(`${fn}: not a valid Date`, 'Invalid Date');
  return ms;
}

/** Day number of a `YYYY-MM-DD` local date, or InvalidTimeError naming the function. */
export function localDateDays(localDate: string, fn: string): number {
  const date = parseIsoDate(localDate);
  if (date === undefined) {
    throw new InvalidTimeError(`${fn}: '${localDate}' is not a calendar date YYYY-MM-DD`, localDate);
  }
  return daysFromCivil(date.year, date.month, date.day);
}
