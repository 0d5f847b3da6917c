// A daily band of Europe/London wall-clock time typed by a user (`--between 23:00-07:00`), and the
// test of whether a slot's local start time falls in it.
import { UsageError } from '../errors.js';

/** Minutes after local midnight; start inclusive, end exclusive; crossesMidnight when end < start. */
export interface LocalTimeBand {
  startMinutes: number;
  endMinutes: number;
  crossesMidnight: boolean;
}

const BAND_SHAPE = /^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$/;

/**
 * `HH:MM-HH:MM` on the half-hour (slots are half-hours), Europe/London wall time: `23:00-07:00`
 * crosses midnight, `00:00-24:00` is the whole day; an empty band (start = end) is rejected.
 */
export function parseLocalTimeBand(input: string, flag = '--between'): LocalTimeBand {
  const bad = (why: string): UsageError =>
    new UsageError(`${flag}: '${input}' is not a time band: ${why} (use HH:MM-HH:MM on the half-hour, e.g. 23:00-07:00)`);
  const match = BAND_SHAPE.exec(input.trim());
  if (match === null) throw bad('expected two times joined by -');
  const [, startH = '', startM = '', endH = '', endM = ''] = match;
  const startMinutes = Number(startH) * 60 + Number(startM);
  const endMinutes = Number(endH) * 60 + Number(endM);
  if (Number(startM) > 59 || Number(endM) > 59 || startMinutes > 23 * 60 + 59 || endMinutes > 24 * 60) {
    throw bad('not a time of day');
  }
  if (startMinutes % 30 !== 0 || endMinutes % 30 !== 0) throw bad('times must be on :00 or :30');
  if (startMinutes === endMinutes) throw bad('the band is empty (for the whole day use 00:00-24:00)');
  return { startMinutes, endMinutes, crossesMidnight: endMinutes < startMinutes };
}

/** Whether wall-clock `minutesOfDay` (see localMinutesOfDay) lies in `band`. */
export function isInLocalTimeBand(band: LocalTimeBand, minutesOfDay: number): boolean {
  return band.crossesMidnight
    ? minutesOfDay >= band.startMinutes || minutesOfDay < band.endMinutes
    : minutesOfDay >= band.startMinutes && minutesOfDay < band.endMinutes;
}
