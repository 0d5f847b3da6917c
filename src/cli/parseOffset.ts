// An offset typed by a user (`--offset -1h`: act an hour before each block) as signed minutes:
// `-1h`, `+30m`, `-1h30m`, `45m`, or the peers' `-01:00:00` / `-01:00`. Under a day either way.
import { UsageError } from '../errors.js';

const UNITS = /^([+-]?)(?:(\d+)h)?(?:(\d+)m(?:in)?)?$/i;
const CLOCK = /^([+-]?)(\d{1,2}):([0-5]\d)(?::(00))?$/;

export function parseOffset(input: string, flag = '--offset'): number {
  const text = input.trim();
  const units = UNITS.exec(text);
  const clock = CLOCK.exec(text);
  let minutes = Number.NaN;
  let sign = '';
  if (text === '0') minutes = 0;
  else if (units && (units[2] !== undefined || units[3] !== undefined)) {
    sign = units[1]!;
    minutes = Number(units[2] ?? 0) * 60 + Number(units[3] ?? 0);
  } else if (clock) {
    sign = clock[1]!;
    minutes = Number(clock[2]) * 60 + Number(clock[3]);
  }
  if (!Number.isSafeInteger(minutes) || minutes >= 24 * 60) {
    throw new UsageError(`${flag}: '${input}' is not an offset under a day such as -1h, +30m, -1h30m or -01:00:00`);
  }
  return sign === '-' && minutes > 0 ? -minutes : minutes;
}
