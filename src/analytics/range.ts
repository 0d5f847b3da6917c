// The half-open instant range [from, to) every analytics question takes, checked and turned into
// bound parameters; an absent bound is unbounded (the SQL macros read NULL as ±infinity).
import { InvalidRequest } from './requestErrors.js';
import { describeOrder, describeWindow } from '../time/index.js';

export interface Range {
  /** Inclusive start; undefined = from the first stored half-hour. */
  from?: Date;
  /** Exclusive end; undefined = to the end of stored data. */
  to?: Date;
}

export function checkRange(range: Range): void {
  for (const [name, value] of [['from', range.from], ['to', range.to]] as const) {
    if (value !== undefined && Number.isNaN(value.getTime())) throw new InvalidRequest(name, (w) => `${w.field(name)}: not a valid instant`);
  }
  if (range.from && range.to && range.from >= range.to) {
    const order = describeOrder(range.from, range.to);
    throw new InvalidRequest('from', (w) => `${w.field('from')} must be before ${w.field('to')} (the range is half-open: [from, to)), ${order}`);
  }
}

/** `$from` and `$to` for `CAST($from AS TIMESTAMPTZ)`: ISO text, or null for an open end. */
export function rangeParams(range: Range): { from: string | null; to: string | null } {
  return { from: range.from?.toISOString() ?? null, to: range.to?.toISOString() ?? null };
}

/** `in [2024-03-31, 2024-04-01) (UTC [2024-03-31T00:00:00Z, 2024-04-01T00:00:00Z))` for messages: as
 *  the user typed the ends (describeWindow); open ends shown as such. */
export function describeRange(range: Range): string {
  if (!range.from && !range.to) return 'in any range';
  return `in ${describeWindow(range.from, range.to)}`;
}
