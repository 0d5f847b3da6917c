// What a rates run fetches, decided without I/O (the clock and the stored cursors passed in).
// Each tariff and rate kind is a stream over a window: from its cursor minus a short look-back
// (incremental), or a default start for a tariff never seen. A stream starts with one open
// request (a probe): pages come newest first, so its first page holds the newest rates and says
// how many there are, and, when they are half-hourly, how many a page holds. Older data, if any,
// is then cut into chunks over the range it really covers, each chunk into windows of one page
// (period_from/period_to), so that the fetchers have every request of a backfill to choose from
// rather than `next` links to follow.
import type { Cursor } from '../store/cursors.js';
import { streamKey } from '../store/cursors.js';
import type { RateColumns } from '../rates/RateColumns.js';
import type { RateKind } from '../store/writeRates.js';
import { HALF_HOUR_MS } from '../time/index.js';
import { optionalResourceOf, resourceKey } from './optionalResources.js';
import type { IngestTarget } from './resolveTargets.js';

/** 6 pages of 1500 half-hours: the unit a tariff keeps when a later chunk fails (its requests
 *  are one page each, fetched side by side; commits gather chunks into row groups). */
export const DEFAULT_CHUNK_SLOTS = 9_000;
/** The oldest chunk of a backfill is one page: the run's first commit comes after two requests
 *  (the probe and itself), so a run stopped early still moves a cursor, and the next one goes on
 *  from there. */
export const FIRST_CHUNK_SLOTS = 1_500;
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

/** A chunk of a stream (the unit that is written, with its cursor), and the windows its
 *  requests ask for, oldest first. */
export interface PlannedChunk extends Span {
  parts: Span[];
}

export interface StreamPlanOptions {
  targets: IngestTarget[];
  /** Explicit window (`--from`/`--to`); without `from` each tariff continues from its cursor. */
  from?: Date;
  to?: Date;
  /** Where a tariff without a cursor starts. */
  defaultFrom: Date;
  lookbackMs: number;
  standingChargeMaxAgeMs?: number;
}

/** The window of every tariff and rate kind to fetch, given the stored cursors (by streamKey) and
 *  the optional resources found missing lately (by resourceKey). */
export function planStreams(options: StreamPlanOptions, cursors: Map<string, Cursor>, recentlyMissing: Set<string>, now: Date): Stream[] {
  const maxAge = options.standingChargeMaxAgeMs ?? STANDING_CHARGE_MAX_AGE_MS;
  const streams: Stream[] = [];
  for (const target of options.targets) {
    for (const kind of target.kinds) {
      const cursor = cursors.get(streamKey(target.tariffCode, kind));
      // Standing charges change rarely: refreshed at most once per maxAge by incremental runs.
      if (kind === 'standing_charge' && options.from === undefined && cursor
        && now.getTime() - Date.parse(cursor.updated_at) < maxAge) continue;
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

/** Whether a probe should stop after its first page: older pages exist and the page reaches past
 *  the window's start, so the range they cover is chunked. Otherwise (long rates: the newest page
 *  does not reach past the start) it follows `next` to the end. */
export function chunkAfterFirstPage(stream: Span, firstPage: { count: number; rates: RateColumns }): boolean {
  const { rates, count } = firstPage;
  return rates.length < count && rates.startRange()!.earliest > stream.from.getTime();
}

/** A stream's chunks once its probe has come back with `probed` (of the `count` its first page
 *  announced), oldest first: the range older than the probed rates in chunks of `chunkMs` (the
 *  first one page), each cut into windows of one page when the rates are half-hourly; the last
 *  chunk is the probed one (its rates already fetched). */
export function planChunks(stream: Stream, probed: RateColumns, count: number | undefined, chunkMs: number, now: Date): PlannedChunk[] {
  const oldest = probed.startRange()?.earliest;
  const spans = count !== undefined && oldest !== undefined && probed.length < count
    ? splitWindow(stream.from, new Date(oldest), chunkMs, now, FIRST_CHUNK_SLOTS * HALF_HOUR_MS)
    : [];
  spans.push({ from: spans.length ? new Date(oldest!) : stream.from, to: stream.to });
  const pageMs = pageWindowMs(probed);
  return spans.map((span) => ({ ...span, parts: pageWindows(span, pageMs) }));
}

/** The time one page covers, when a probe's page shows half-hourly rates with no gap (each rate
 *  a half-hour, one after another): its record count is then the server's page size, whatever
 *  page_size asked for. Undefined for anything else (long rates: pages follow `next`). */
export function pageWindowMs(rates: RateColumns): number | undefined {
  const range = rates.startRange();
  if (range === undefined || rates.length < 2 || range.latest - range.earliest !== (rates.length - 1) * HALF_HOUR_MS) return undefined;
  for (let i = 0; i < rates.length; i++) if (rates.validTo[i]! - rates.validFrom[i]! !== HALF_HOUR_MS) return undefined;
  return rates.length * HALF_HOUR_MS;
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

/** [from, to) in chunks of chunkMs (the first one firstMs, if shorter); without `to` the last
 *  chunk is open-ended and starts before now. */
export function splitWindow(from: Date, to: Date | undefined, chunkMs: number, now: Date, firstMs = chunkMs): Span[] {
  const spans: Span[] = [];
  let start = from.getTime();
  for (;;) {
    if (to !== undefined && start >= to.getTime()) break;
    const end = start + (spans.length === 0 ? Math.min(firstMs, chunkMs) : chunkMs);
    if (to !== undefined && end >= to.getTime()) {
      spans.push({ from: new Date(start), to });
      break;
    }
    if (to === undefined && end > now.getTime()) {
      spans.push({ from: new Date(start), to: undefined });
      break;
    }
    spans.push({ from: new Date(start), to: new Date(end) });
    start = end;
  }
  return spans;
}
