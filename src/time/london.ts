// Instants (UTC) seen from Europe/London: the local date, the local day's bounds and length, and the
// half-hour settlement period an instant starts. Offsets come from the UK rule, not from Intl.
import { DAY_MS, MINUTE_MS, formatDays } from './civil.js';
import { InvalidTimeError } from './InvalidTimeError.js';
import { instantMs, localDateDays, localDayStartMs, londonOffsetMs } from './offset.js';

/** IANA name of the only zone this project reads prices in. */
export const LONDON_TIME_ZONE = 'Europe/London';

/** Length of one price slot. */
export const HALF_HOUR_MS = 30 * MINUTE_MS;

/** Europe/London offset from UTC at `instant`, in minutes: 60 in BST, 0 in GMT. */
export function utcOffsetMinutes(instant: Date): 0 | 60 {
  return londonOffsetMs(instantMs(instant, 'utcOffsetMinutes')) === 0 ? 0 : 60;
}

/** Europe/London calendar date `YYYY-MM-DD` of `instant`. */
export function localDateOf(instant: Date): string {
  const ms = instantMs(instant, 'localDateOf');
  return formatDays(Math.floor((ms + londonOffsetMs(ms)) / DAY_MS));
}

/** UTC instants of `localDate`'s local midnight and of the next local day's midnight (half-open). */
export function localDayBounds(localDate: string): { start: Date; end: Date } {
  const days = localDateDays(localDate, 'localDayBounds');
  return { start: new Date(localDayStartMs(days)), end: new Date(localDayStartMs(days + 1)) };
}

/** Number of half-hour slots in the local day: 46 when clocks go forward, 50 when they go back, else 48. */
export function slotsInLocalDay(localDate: string): 46 | 48 | 50 {
  const days = localDateDays(localDate, 'slotsInLocalDay');
  return ((localDayStartMs(days + 1) - localDayStartMs(days)) / HALF_HOUR_MS) as 46 | 48 | 50;
}

/**
 * Local date and 1-based half-hour period (1…46/48/50) of the slot starting at `instant`, counting
 * elapsed half-hours from local midnight: on a fall-back day 01:00 and 01:30 BST are periods 3 and 4,
 * 01:00 and 01:30 GMT periods 5 and 6. Instants not on :00 or :30 (to the ms) throw InvalidTimeError.
 */
export function settlementPeriod(instant: Date): { localDate: string; period: number } {
  const ms = instantMs(instant, 'settlementPeriod');
  if (ms % HALF_HOUR_MS !== 0) {
    const iso = instant.toISOString();
    throw new InvalidTimeError(`settlementPeriod: ${iso} does not start a half-hour slot (:00 or :30)`, iso);
  }
  const days = Math.floor((ms + londonOffsetMs(ms)) / DAY_MS);
  return { localDate: formatDays(days), period: (ms - localDayStartMs(days)) / HALF_HOUR_MS + 1 };
}

/**
 * Europe/London wall-clock minutes since local midnight (0–1439) shown at `instant`, as a clock on
 * the wall reads it: 01:30 BST and 01:30 GMT on a fall-back day are both 90 (compare settlementPeriod).
 */
export function localMinutesOfDay(instant: Date): number {
  const ms = instantMs(instant, 'localMinutesOfDay');
  const wall = ms + londonOffsetMs(ms);
  return Math.floor((wall - Math.floor(wall / DAY_MS) * DAY_MS) / MINUTE_MS);
}
