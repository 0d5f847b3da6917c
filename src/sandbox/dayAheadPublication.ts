// When the sandbox's half-hourly prices are published: a day's at 16:00 Europe/London the day
// before, by the sandbox's clock, as the supplier publishes the next day's Agile prices.
import { addLocalDays, localDateOf, localDayBounds, localMinutesOfDay } from '../time/index.js';

const PUBLISHED_AT_MINUTES = 16 * 60;

/** The instant before which every half-hourly price is published at `now`: the end of tomorrow
 *  (London) from 16:00, else the end of today. */
export function publishedUntil(now: Date): number {
  const today = localDateOf(now);
  const lastDay = localMinutesOfDay(now) >= PUBLISHED_AT_MINUTES ? addLocalDays(today, 1) : today;
  return localDayBounds(lastDay).end.getTime();
}
