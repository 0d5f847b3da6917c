// Instants as ISO 8601 text: Europe/London wall time with its offset, or UTC; whole seconds only.
import { DAY_MS, HOUR_MS, MINUTE_MS, formatDays, pad2 } from './civil.js';
import { instantMs, londonOffsetMs } from './london.js';

function formatWall(wallMs: number, suffix: string): string {
  const days = Math.floor(wallMs / DAY_MS);
  const rest = wallMs - days * DAY_MS;
  const hours = Math.floor(rest / HOUR_MS);
  const minutes = Math.floor((rest % HOUR_MS) / MINUTE_MS);
  const seconds = Math.floor((rest % MINUTE_MS) / 1000);
  return `${formatDays(days)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}${suffix}`;
}

/** Europe/London wall time with offset, e.g. `2024-10-27T01:30:00+00:00` (always ±HH:MM, never Z; ms dropped). */
export function formatLocal(instant: Date): string {
  const ms = instantMs(instant, 'formatLocal');
  const offset = londonOffsetMs(ms);
  const minutes = Math.abs(offset) / MINUTE_MS;
  return formatWall(ms + offset, `${offset < 0 ? '-' : '+'}${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`);
}

/** UTC time, e.g. `2024-03-31T01:00:00Z` (milliseconds dropped, not rounded). */
export function formatUtc(instant: Date): string {
  return formatWall(instantMs(instant, 'formatUtc'), 'Z');
}
