// Instants (UTC) seen from Europe/London: the offset, the local date, the local day's bounds and
// length, the half-hour settlement period an instant starts, and the instants a wall-clock time
// names. The offset comes from the time zone database through date-fns-tz's getTimezoneOffset
// (never from the machine's own zone); everything else is arithmetic on epoch milliseconds.
// The SQL side derives the same fields with sql/internal/london_local.sql.
import { getTimezoneOffset } from 'date-fns-tz/getTimezoneOffset';
import { DAY_MS, MINUTE_MS, formatDays } from './civil.js';
import { InvalidTimeError } from './InvalidTimeError.js';
import { localDateDays } from './localDates.js';

/** IANA name of the only zone this project reads prices in. */
export const LONDON_TIME_ZONE = 'Europe/London';

/** Length of one price slot. */
export const HALF_HOUR_MS = 30 * MINUTE_MS;

/** The zone's offset at `utcMs`, from the tz database. */
function tzOffsetMs(utcMs: number): number {
  const offset = getTimezoneOffset(LONDON_TIME_ZONE, new Date(utcMs));
  if (Number.isNaN(offset)) throw new InvalidTimeError(`no ${LONDON_TIME_ZONE} offset at ${new Date(utcMs).toISOString()}`, String(utcMs));
  return offset;
}

/** Per UTC day: the offset at its start, and the instant it changes (end of day when it does not). */
interface UtcDayOffsets {
  before: number;
  after: number;
  changeMs: number;
}
// Callers go row by row (the sandbox formats every reading), so the tz database is asked twice per
// UTC day (its start and the next day's), and the instant of a change, on the two days a year that
// have one, found by bisection to the millisecond. Zones change their offset at most once a day.
const utcDays = new Map<number, UtcDayOffsets>();

function utcDayOffsets(day: number): UtcDayOffsets {
  let known = utcDays.get(day);
  if (known === undefined) {
    const start = day * DAY_MS;
    const before = tzOffsetMs(start);
    const after = tzOffsetMs(start + DAY_MS);
    let lo = start; // offset `before` here
    let hi = start + DAY_MS; // offset `after` from here
    if (before !== after) {
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (tzOffsetMs(mid) === before) lo = mid;
        else hi = mid;
      }
    }
    known = { before, after, changeMs: hi };
    utcDays.set(day, known);
  }
  return known;
}

/** Europe/London offset from UTC in ms (0 in GMT, 3 600 000 in BST) at the UTC instant `utcMs`. */
export function londonOffsetMs(utcMs: number): number {
  const day = utcDayOffsets(Math.floor(utcMs / DAY_MS));
  return utcMs < day.changeMs ? day.before : day.after;
}

/**
 * The UTC instants (epoch ms) at which Europe/London clocks read `wallMs` (ms since 1970-01-01T00:00
 * local time): one; none in the spring-forward gap; two in the repeated autumn hour, earlier (BST) first.
 */
export function instantsOfLondonWall(wallMs: number): number[] {
  // the offsets in force a day either side are the candidates; the right ones map back to wallMs
  const offsets = [...new Set([londonOffsetMs(wallMs - DAY_MS), londonOffsetMs(wallMs + DAY_MS)])].sort((a, b) => b - a);
  return offsets.map((offset) => wallMs - offset).filter((utcMs) => utcMs + londonOffsetMs(utcMs) === wallMs);
}

/** UTC ms at which the local day `days` (day number of a local date) starts: its first instant. */
function localDayStartMs(days: number): number {
  const [first] = instantsOfLondonWall(days * DAY_MS);
  // midnight in a gap (not in London since 1972): the day starts when the clocks resume
  return first ?? days * DAY_MS - londonOffsetMs(days * DAY_MS + DAY_MS);
}

/** Epoch ms of a Date, or InvalidTimeError naming the function for an Invalid Date. */
export function instantMs(instant: Date, fn: string): number {
  const ms = instant.getTime();
  if (Number.isNaN(ms)) throw new InvalidTimeError(`${fn}: not a valid Date`, 'Invalid Date');
  return ms;
}

/** Europe/London offset from UTC at `instant`, in minutes: 60 in BST, 0 in GMT. */
export function utcOffsetMinutes(instant: Date): number {
  return londonOffsetMs(instantMs(instant, 'utcOffsetMinutes')) / MINUTE_MS;
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
export function slotsInLocalDay(localDate: string): number {
  const days = localDateDays(localDate, 'slotsInLocalDay');
  return (localDayStartMs(days + 1) - localDayStartMs(days)) / HALF_HOUR_MS;
}

const changesOfYear = new Map<number, { springForward?: string; fallBack?: string }>();

/**
 * Local dates (`YYYY-MM-DD`) of the year's spring-forward (46 half-hours) and fall-back (50
 * half-hours) days, as the tz database has them (either missing in a year without).
 */
export function clockChanges(year: number): { springForward?: string; fallBack?: string } {
  if (!Number.isInteger(year)) throw new InvalidTimeError(`clockChanges: year must be an integer, got ${year}`, String(year));
  let changes = changesOfYear.get(year);
  if (changes === undefined) {
    changes = {};
    const first = localDateDays(`${String(year).padStart(4, '0')}-01-01`, 'clockChanges');
    const next = localDateDays(`${String(year + 1).padStart(4, '0')}-01-01`, 'clockChanges');
    for (let days = first; days < next; days++) {
      const slots = (localDayStartMs(days + 1) - localDayStartMs(days)) / HALF_HOUR_MS;
      if (slots < 48) changes.springForward ??= formatDays(days);
      if (slots > 48) changes.fallBack ??= formatDays(days);
    }
    changesOfYear.set(year, changes);
  }
  return changes;
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
