// Calendar arithmetic on Europe/London local dates (`YYYY-MM-DD` strings): a local date is a calendar
// day, so whole days are added on the calendar and never as 24 hours of UTC.
import { daysFromCivil, formatDays, parseIsoDate } from './civil.js';
import { InvalidTimeError } from './InvalidTimeError.js';

/** Day number of a `YYYY-MM-DD` local date, or InvalidTimeError naming the function. */
export function localDateDays(localDate: string, fn: string): number {
  const date = parseIsoDate(localDate);
  if (date === undefined) {
    throw new InvalidTimeError(`${fn}: '${localDate}' is not a calendar date YYYY-MM-DD`, localDate);
  }
  return daysFromCivil(date.year, date.month, date.day);
}

/** The local date `n` calendar days after `localDate` (before it when n < 0). */
export function addLocalDays(localDate: string, n: number): string {
  if (!Number.isInteger(n)) throw new InvalidTimeError(`addLocalDays: n must be an integer, got ${n}`, String(n));
  return formatDays(localDateDays(localDate, 'addLocalDays') + n);
}

/** Every local date from `fromDate` up to but not including `toDateExclusive`; empty if to <= from. */
export function localDatesBetween(fromDate: string, toDateExclusive: string): string[] {
  const from = localDateDays(fromDate, 'localDatesBetween');
  const to = localDateDays(toDateExclusive, 'localDatesBetween');
  const dates: string[] = [];
  for (let days = from; days < to; days++) dates.push(formatDays(days));
  return dates;
}
