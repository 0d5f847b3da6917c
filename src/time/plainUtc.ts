// The instants of a rate page, read fast. The supplier writes every instant as
// `2024-03-31T01:00:00Z`, and a backfill reads one per rate, so this form is checked and
// converted by character codes, without a regular expression, a match array or Date.parse.
// Anything else (offsets, fractions) is NaN here and goes the general way (zod, Date.parse).

import { DAY_MS, daysFromCivil, daysInMonth, readDigits } from './civil.js';

/** The last date part read (`YYYY-MM-DD`) and its midnight: rates come in runs of a day. */
let dayText = '#';
let dayMs = Number.NaN;

/** Epoch milliseconds of `YYYY-MM-DDTHH:MM:SSZ` (a real date from year 1000, hours 00–23,
 *  minutes and seconds 00–59), else NaN. */
export function plainUtcMs(text: string): number {
  if (text.length !== 20 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84
    || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 90) return Number.NaN;
  if (!text.startsWith(dayText)) {
    const year = readDigits(text, 0, 4);
    const month = readDigits(text, 5, 2);
    const day = readDigits(text, 8, 2);
    // NaN (a character that is not a digit) fails every comparison: hence the negations
    if (!(year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month))) return Number.NaN;
    dayText = text.slice(0, 10);
    dayMs = daysFromCivil(year, month, day) * DAY_MS;
  }
  const hour = readDigits(text, 11, 2);
  const minute = readDigits(text, 14, 2);
  const second = readDigits(text, 17, 2);
  if (!(hour <= 23 && minute <= 59 && second <= 59)) return Number.NaN;
  return dayMs + ((hour * 60 + minute) * 60 + second) * 1000;
}
