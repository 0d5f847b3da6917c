// The one rule for instants and dates typed by users (`--from`, `--to`, `--date`): an offset or Z
// means that instant; anything naive is Europe/London wall time, as the supplier's API reads it.
import { UsageError } from '../errors.js';
import { DAY_MS, HOUR_MS, MINUTE_MS, daysFromCivil, parseIsoDate } from './civil.js';
import { rememberTyped } from './describeInstant.js';
import { instantsOfLondonWall, localDayBounds } from './london.js';

const DATE_TIME_FORMS = 'use 2024-03-31, 2024-03-31T16:00 (Europe/London) or 2024-03-31T15:00:00Z';

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
// date, T or space, HH:MM[:SS[.fff]], then optionally Z or ±HH[:MM]
const DATE_TIME_SHAPE =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)?$/i;

function notADate(input: string, flag: string, why?: string): UsageError {
  return new UsageError(`${flag}: '${input}' is not a date${why === undefined ? '' : ` (${why})`} (${DATE_TIME_FORMS})`);
}

/** Day number of a well-shaped `YYYY-MM-DD`, or a UsageError naming the flag for days the calendar lacks. */
function calendarDays(date: string, input: string, flag: string): number {
  const civil = parseIsoDate(date);
  if (civil === undefined) throw notADate(input, flag, `${date} is not a day of the calendar`);
  return daysFromCivil(civil.year, civil.month, civil.day);
}

/**
 * The instant a user means by `input`, or a UsageError naming `flag`:
 * - `2024-03-31T15:00:00Z`, `2024-03-31T16:00+01:00` (offset ±HH, ±HHMM or ±HH:MM): that instant;
 * - `2024-03-31`: the start of that Europe/London local day;
 * - `2024-03-31T16:00[:SS[.fff]]` or `2024-03-31 16:00`: Europe/London wall time. A wall time in the
 *   spring-forward gap (01:00–01:59 on the last Sunday of March) does not exist and is rejected; one in
 *   the repeated autumn hour (01:00–01:59 on the last Sunday of October) means its first occurrence, BST.
 * Days that are not in the calendar (2024-02-30) and times like 24:00 or 16:60 are rejected.
 * The text is remembered for messages (describeInstant.ts).
 */
export function parseUserDateTime(input: string, flag: string): Date {
  return rememberTyped(parseInstant(input, flag), input.trim());
}

function parseInstant(input: string, flag: string): Date {
  const text = input.trim();
  if (DATE_SHAPE.test(text)) {
    calendarDays(text, input, flag);
    return localDayBounds(text).start;
  }

  const match = DATE_TIME_SHAPE.exec(text);
  if (match === null) throw notADate(input, flag);
  const [, date = '', hh = '', mm = '', ss = '00', fraction = '', zulu, sign, offsetHh, offsetMm = '00'] = match;
  const days = calendarDays(date, input, flag);
  const hours = Number(hh);
  const minutes = Number(mm);
  const seconds = Number(ss);
  if (hours > 23 || minutes > 59 || seconds > 59) throw notADate(input, flag, `${hh}:${mm}:${ss} is not a time of day`);
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  const wallMs = days * DAY_MS + hours * HOUR_MS + minutes * MINUTE_MS + seconds * 1000 + millis;

  if (zulu !== undefined) return new Date(wallMs);
  if (sign !== undefined && offsetHh !== undefined) {
    if (Number(offsetHh) > 23 || Number(offsetMm) > 59) throw notADate(input, flag, 'bad UTC offset');
    const offsetMs = (sign === '-' ? -1 : 1) * (Number(offsetHh) * HOUR_MS + Number(offsetMm) * MINUTE_MS);
    return new Date(wallMs - offsetMs);
  }

  const [utcMs] = instantsOfLondonWall(wallMs); // the first occurrence in the repeated autumn hour
  if (utcMs === undefined) {
    throw new UsageError(
      `${flag}: ${text} does not exist in Europe/London: on ${date} clocks go forward from 01:00 to 02:00 ` +
        `(give a time from 02:00, or an offset such as ${date}T${hh}:${mm}+00:00)`,
    );
  }
  return new Date(utcMs);
}

/** A local date `YYYY-MM-DD` typed by a user (e.g. `--date`), checked against the calendar, or a UsageError naming `flag`. */
export function parseUserDate(input: string, flag: string): string {
  const text = input.trim();
  if (!DATE_SHAPE.test(text)) {
    throw new UsageError(`${flag}: '${input}' is not a date (use YYYY-MM-DD, e.g. 2024-03-31)`);
  }
  if (parseIsoDate(text) === undefined) {
    throw new UsageError(`${flag}: '${input}' is not a date (${text} is not a day of the calendar; use YYYY-MM-DD)`);
  }
  return text;
}
