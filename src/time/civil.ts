// Proleptic Gregorian calendar arithmetic on whole days since 1970-01-01, without Date objects:
// the hot paths (one call per price row) stay allocation-free and immune to Date.UTC's 0–99 → 19xx quirk.

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

export interface CivilDate {
  year: number;
  month: number; // 1–12
  day: number; // 1–31
}

/** Days since 1970-01-01 of a calendar date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Calendar date of a day number since 1970-01-01 (H. Hinnant's civil_from_days). */
export function civilFromDays(days: number): CivilDate {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function pad4(n: number): string {
  return n >= 1000 ? String(n) : String(n).padStart(4, '0');
}

/** `YYYY-MM-DD` of a day number. */
export function formatDays(days: number): string {
  const { year, month, day } = civilFromDays(days);
  return `${pad4(year)}-${pad2(month)}-${pad2(day)}`;
}

function digit(text: string, i: number): number {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : NaN;
}

/** Reads `count` ASCII digits at `at`; NaN if any is not a digit. */
export function readDigits(text: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) n = n * 10 + digit(text, i);
  return n;
}

/**
 * The calendar date written `YYYY-MM-DD`, or undefined when the text is not exactly that
 * or names a day that does not exist (2024-02-30, 2023-02-29, 2024-13-01).
 */
export function parseIsoDate(text: string): CivilDate | undefined {
  if (text.length !== 10 || text[4] !== '-' || text[7] !== '-') return undefined;
  const year = readDigits(text, 0, 4);
  const month = readDigits(text, 5, 2);
  const day = readDigits(text, 8, 2);
  if (Number.isNaN(year) || Number.isNaN(month) || Number.isNaN(day)) return undefined;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}
