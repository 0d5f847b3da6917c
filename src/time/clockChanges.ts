// The UK clock-change rule (in force since 1996, shared with the EU): British Summer Time runs from
// 01:00 UTC on the last Sunday of March to 01:00 UTC on the last Sunday of October.
import { DAY_MS, HOUR_MS, daysFromCivil, formatDays, weekdayOfDays } from './civil.js';
import { InvalidTimeError } from './InvalidTimeError.js';

function lastSundayDays(year: number, month: 3 | 10): number {
  const last = daysFromCivil(year, month, 31);
  return last - weekdayOfDays(last);
}

/** UTC epoch ms at which BST starts in `year` (01:00 UTC, last Sunday of March). */
export function bstStartMs(year: number): number {
  return lastSundayDays(year, 3) * DAY_MS + HOUR_MS;
}

/** UTC epoch ms at which BST ends in `year` (01:00 UTC, last Sunday of October). */
export function bstEndMs(year: number): number {
  return lastSundayDays(year, 10) * DAY_MS + HOUR_MS;
}

/**
 * Local dates (`YYYY-MM-DD`) of the spring-forward (46 half-hours) and fall-back (50 half-hours) days
 * of `year`. The 1996 rule is applied to every year: dates before 1996 are not historical.
 */
export function clockChanges(year: number): { springForward: string; fallBack: string } {
  if (!Number.isInteger(year)) throw new InvalidTimeError(`clockChanges: year must be an integer, got ${year}`, String(year));
  return { springForward: formatDays(lastSundayDays(year, 3)), fallBack: formatDays(lastSundayDays(year, 10)) };
}
