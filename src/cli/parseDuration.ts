// A window length typed by a user (`--duration 2h`, `90m`, `1h30m`) as a number of half-hours.
import { UsageError } from '../errors.js';

const DURATION_SHAPE = /^(?:(\d+)h)?(?:(\d+)m(?:in)?)?$/i;

/** Half-hours in `input`; a UsageError naming `flag` unless it is a positive multiple of 30 minutes. */
export function parseDuration(input: string, flag = '--duration'): number {
  const text = input.trim();
  const match = DURATION_SHAPE.exec(text);
  const minutes = match && text !== '' ? Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0) : Number.NaN;
  if (!Number.isSafeInteger(minutes) || minutes <= 0 || minutes % 30 !== 0) {
    throw new UsageError(`${flag}: '${input}' is not a positive multiple of 30 minutes (use e.g. 30m, 90m, 2h, 1h30m)`);
  }
  return minutes / 30;
}
