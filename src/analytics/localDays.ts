// Which Europe/London local days a range of instants selects for per-day questions: the days whose
// local midnight lies in [from, to), so a plain `--from 2024-03-01 --to 2024-04-01` is March.
import { addLocalDays, localDateOf, localDayBounds } from '../time/index.js';
import type { Range } from './range.js';

/** First selected local date (inclusive) and the local date after the last (exclusive); open ends undefined. */
export function localDaysIn(range: Range): { fromDate?: string; toDate?: string } {
  const out: { fromDate?: string; toDate?: string } = {};
  if (range.from) {
    const day = localDateOf(range.from);
    out.fromDate = localDayBounds(day).start < range.from ? addLocalDays(day, 1) : day;
  }
  if (range.to) {
    const day = localDateOf(range.to);
    out.toDate = localDayBounds(day).start < range.to ? addLocalDays(day, 1) : day;
  }
  return out;
}
