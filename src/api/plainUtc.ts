// The instants of a rate page, read fast. The supplier writes every instant as
// `2024-03-31T01:00:00Z`; a backfill reads two million of them, so this form is checked and
// converted by character codes, without a regular expression, a match array or Date.parse.
// Anything else (offsets, fractions) is NaN here and goes the general way (zod, Date.parse).

const ZERO = 48;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** The last date part read (`YYYY-MM-DD`) and its midnight: rates come in runs of a day. */
let dayText = '#';
let dayMs = Number.NaN;

/** Epoch milliseconds of `YYYY-MM-DDTHH:MM:SSZ` (a real date from year 1000, hours 00–23, minutes and seconds
 *  00–59), else NaN. */
export function plainUtcMs(text: string): number {
  if (text.length !== 20 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84
    || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58 || text.charCodeAt(19) !== 90) return Number.NaN;
  if (!text.startsWith(dayText)) {
    const year = digits(text, 0, 4);
    const month = digits(text, 5, 2);
    const day = digits(text, 8, 2);
    if (year < 1000 || month < 1 || month > 12 || day < 1) return Number.NaN; // Date.UTC reads years 0–99 as 19xx
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    if (day > (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!)) return Number.NaN;
    dayText = text.slice(0, 10);
    dayMs = Date.UTC(year, month - 1, day);
  }
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return Number.NaN;
  return dayMs + ((hour * 60 + minute) * 60 + second) * 1000;
}
