// What a rates run fetches, decided without I/O (the clock and the stored cursors passed in): each
// tariff and rate kind is a stream over a window, from its cursor minus a short look-back, or from
// a default start for a tariff never seen; and, once a stream's first page is back, the one-page
// windows its older rates are fetched in (docs/decisions/ingest-pipeline.md).
import type { Cursor } from '../store/cursors.js';
import { streamKey } from '../store/cursors.js';
import type { RateKind, StagedRates } from '../store/writeRates.js';
import { HALF_HOUR_MS } from '../time/index.js';
import { optionalResourceOf, resourceKey } from './optionalResources.js';
import type { IngestTarget } from './resolveTargets.js';

/** Standing charges change rarely: by default refreshed when older than a day. */
export const STANDING_CHARGE_MAX_AGE_MS = 24 * 3600_000;

/** A window of time; without `to`, open-ended (up to whatever the server has). */
export interface Span {
  from: Date;
  to: Date | undefined;
}

/** One tariff's rate kind over the window this run fetches. */
export interface Stream extends Span {
  target: IngestTarget;
  kind: RateKind;
}

export interface StreamPlanOptions {
  targets: IngestTarget[];
  /** Explicit window (`--from`/`--to`); without `from` each tariff continues from its cursor. */
  from?: Date;
  to?: Date;
  /** Where a tariff without a cursor starts. */
  defaultFrom: Date;
  lookbackMs: number;
}

/** The window of every tariff and rate kind to fetch, given the stored cursors (by streamKey) and
 *  the optional resources found missing lately (by resourceKey). */
export function planStreams(options: StreamPlanOptions, cursors: Map<string, Cursor>, recentlyMissing: Set<string>, now: Date): Stream[] {
  const streams: Stream[] = [];
  for (const target of options.targets) {
    for (const kind of target.kinds) {
      const cursor = cursors.get(streamKey(target.tariffCode, kind));
      // Standing charges change rarely: refreshed at most once a day by incremental runs.
      if (kind === 'standing_charge' && options.from === undefined && cursor
        && now.getTime() - Date.parse(cursor.updated_at) < STANDING_CHARGE_MAX_AGE_MS) continue;
      // An optional resource found missing is asked for again at the same interval, not every run.
      const optional = optionalResourceOf(kind);
      if (optional !== undefined && recentlyMissing.has(resourceKey(target.tariffCode, optional))) continue;
      // An agreement's tariff starts with its agreement, not at the default start.
      let from = options.from
        ?? (cursor ? resumeFrom(cursor, options.lookbackMs) : target.period?.from ?? options.defaultFrom);
      let to = options.to;
      if (target.period) {
        if (from < target.period.from) from = target.period.from;
        if (target.period.to !== undefined && (to === undefined || target.period.to < to)) to = target.period.to;
      }
      if (to !== undefined && from >= to) continue;
      streams.push({ target, kind, from, to });
    }
  }
  return streams;
}

/** Incremental start: the last stored slot (or, with nothing stored, the end of what was
 *  fetched), minus the look-back that catches revised prices. */
export function resumeFrom(cursor: Cursor, lookbackMs: number): Date {
  const until = Date.parse(cursor.fetched_until);
  const last = cursor.latest_valid_from === null ? until : Date.parse(cursor.latest_valid_from) + HALF_HOUR_MS;
  return new Date(Math.min(until, last) - lookbackMs);
}

/** The time one page covers, when a probe's page shows half-hourly rates with no gap (each rate
 *  a half-hour, one after another): its record count is then the server's page size, whatever
 *  page_size asked for. Undefined for anything else (long rates: pages follow `next`). */
export function pageWindowMs(rates: StagedRates): number | undefined {
  const n = rates.from.length;
  if (n < 2) return undefined;
  const starts = [...rates.from].sort((a, b) => a - b);
  for (let i = 0; i < n; i++) {
    const to = rates.to[i];
    if (to === null || to === undefined || to - rates.from[i]! !== HALF_HOUR_MS) return undefined;
    if (i > 0 && starts[i]! - starts[i - 1]! !== HALF_HOUR_MS) return undefined;
  }
  return n * HALF_HOUR_MS;
}

/** A bounded window cut into windows of `pageMs` (the last one shorter); an open one, or one
 *  without `pageMs`, as it is. */
export function pageWindows(span: Span, pageMs: number | undefined): Span[] {
  if (pageMs === undefined || span.to === undefined) return [{ from: span.from, to: span.to }];
  const windows: Span[] = [];
  for (let start = span.from.getTime(); start < span.to.getTime(); start += pageMs) {
    windows.push({ from: new Date(start), to: new Date(Math.min(start + pageMs, span.to.getTime())) });
  }
  return windows;
}
