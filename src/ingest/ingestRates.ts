// Fetches each tracked tariff's rates and stores them. Each tariff and rate kind is a stream over
// a window — from its cursor minus a short look-back (incremental), or a default start for a
// tariff never seen. A stream starts with one open request (a probe): pages come newest first, so
// its first page holds the newest rates and says how many there are, and, when they are
// half-hourly, how many a page holds. Older data, if any, is then cut into chunks over the range
// it really covers, each chunk into windows of one page (period_from/period_to), so that a pool
// of workers has every request of a backfill to choose from rather than `next` links to follow.
// Chunks are handed to the writer oldest first, the probe's page last (src/ingest/RateWriter.ts).
// A run killed at any moment resumes without gaps; a tariff that fails keeps every chunk before
// the failing one and stops fetching at once (src/ingest/ChunkGate.ts) while the others carry on.
// A failed optional resource (standing charges) is a warning that costs the tariff nothing
// (src/ingest/optionalResources.ts), unless it is the file or the disk that failed.
import type { Logger } from 'pino';
import type { OctopusClient } from '../api/OctopusClient.js';
import type { RatePage } from '../api/paginate.js';
import type { Warehouse } from '../store/Warehouse.js';
import { RateColumns } from '../rates/RateColumns.js';
import { StorageError } from '../store/StorageError.js';
import { prepareStaging, type RateKind, type WriteCounts } from '../store/writeRates.js';
import { RateWriter } from './RateWriter.js';
import type { IngestTarget } from './resolveTargets.js';
import { HALF_HOUR_MS } from '../time/index.js';
import { ChunkGate, PROBE_INDEX } from './ChunkGate.js';
import {
  missingFrom, optionalResourceOf, recentlyMissing, resourceKey, warnMissing, type MissingResource, type OptionalResource,
} from './optionalResources.js';

/** 6 pages of 1500 half-hours: the unit a tariff keeps when a later chunk fails (its requests
 *  are one page each, fetched side by side; commits gather chunks into row groups). */
export const DEFAULT_CHUNK_SLOTS = 9_000;
/** The oldest chunk of a backfill is one page: the run's first commit comes after two requests
 *  (the probe and itself), so a run stopped early still moves a cursor, and the next one goes on
 *  from there. */
export const FIRST_CHUNK_SLOTS = 1_500;
export interface Progress {
  /** Records announced by a first page's `count`. */
  expect(records: number): void;
  advance(records: number): void;
}

export interface IngestRatesOptions {
  warehouse: Warehouse;
  client: OctopusClient;
  logger: Logger;
  targets: IngestTarget[];
  runId: number;
  now?: () => Date;
  /** Explicit window (`--from`/`--to`); without `from` each tariff continues from its cursor. */
  from?: Date;
  to?: Date;
  /** Where a tariff without a cursor starts. */
  defaultFrom: Date;
  lookbackMs: number;
  concurrency: number;
  chunkSlots?: number;
  /** Standing charges change rarely: refreshed when older than this (default a day). */
  standingChargeMaxAgeMs?: number;
  signal?: AbortSignal;
  progress?: Progress;
}

export interface TariffOutcome extends WriteCounts {
  tariffCode: string;
  ok: boolean;
  error?: string;
  errorCode?: string;
  /** HTTP status and rate kind of the failure, when an answer said why (404: no such tariff). */
  errorStatus?: number;
  errorKind?: RateKind;
  pages: number;
  chunks: number;
  /** Optional resources this run could not get for the tariff. */
  missing: MissingResource[];
  /** Required rate kinds whose window came back empty (`count: 0`). */
  empty: RateKind[];
}

export interface IngestRatesResult extends WriteCounts {
  pages: number;
  requests: number;
  tariffs: TariffOutcome[];
  interrupted: boolean;
  /** Optional resources asked for and stored (for optional_resources). */
  optionalPresent: { tariff: string; resource: OptionalResource }[];
}

interface Stream {
  target: IngestTarget;
  kind: RateKind;
  from: Date;
  to: Date | undefined;
}

/** A window of one stream, fetched (or, for a probe's page, already fetched) and written. */
interface Chunk {
  stream: Stream;
  /** Position in its stream, oldest first; the probe's page is the last. */
  index: number;
  target: IngestTarget;
  kind: RateKind;
  from: Date;
  to: Date | undefined;
  /** The oldest chunk of a backfill: the run's first commit, as soon as one is fetched. */
  urgent: boolean;
  /** Windows of one page each when the rates are half-hourly (fetched at once, side by side),
   *  else the chunk's window (its pages follow `next`); oldest first. */
  parts: { from: Date; to: Date | undefined; rates?: RateColumns }[];
  /** Parts not yet fetched, failed or dropped. */
  unsettled: number;
  /** Why the chunk will not be written, once one of its parts could not be fetched. */
  lost?: 'cut' | 'failed';
  /** Resolves when the previous chunk of the same stream is queued for writing (or dropped). */
  previous: Promise<void>;
  enqueued: () => void;
  done: Promise<void>;
}

type WorkItem = { type: 'probe'; stream: Stream } | { type: 'part'; chunk: Chunk; part: number };

interface Cursor {
  fetched_until: string;
  latest_valid_from: string | null;
  updated_at: string;
}

export async function ingestRates(options: IngestRatesOptions): Promise<IngestRatesResult> {
  const { warehouse, client, logger, targets } = options;
  const now = options.now ?? (() => new Date());
  const requestsBefore = client.http.requestCount;
  await prepareStaging(warehouse);
  const outcomes = new Map<string, TariffOutcome>(targets.map((t) => [t.tariffCode, {
    tariffCode: t.tariffCode, ok: true, inserted: 0, updated: 0, unchanged: 0, pages: 0, chunks: 0, missing: [], empty: [],
  }]));
  const outcomeOf = (chunk: { target: IngestTarget }) => outcomes.get(chunk.target.tariffCode)!;
  const chunkMs = (options.chunkSlots ?? DEFAULT_CHUNK_SLOTS) * HALF_HOUR_MS;
  const failed = new Set<string>();
  /** Optional streams given up on (tariff|resource): the tariff's other streams carry on. */
  const skipped = new Set<string>();
  const stopped = ({ target, kind }: { target: IngestTarget; kind: RateKind }) => {
    const optional = optionalResourceOf(kind);
    return failed.has(target.tariffCode) || options.signal?.aborted === true
      || (optional !== undefined && skipped.has(resourceKey(target.tariffCode, optional)));
  };
  const gate = new ChunkGate<Stream>(stopped);
  /** Chunk `index` of `stream` failed (a probe: index 0). */
  const fail = (stream: Stream, index: number, error: unknown) => {
    const { target, kind } = stream;
    const outcome = outcomes.get(target.tariffCode)!;
    // a file or disk that fails is the tariff's failure (the run's), never a resource's absence
    const optional = error instanceof StorageError ? undefined : optionalResourceOf(kind);
    if (optional !== undefined) {
      const key = resourceKey(target.tariffCode, optional);
      if (!skipped.has(key)) {
        skipped.add(key);
        const missing = missingFrom(target.tariffCode, optional, error);
        outcome.missing.push(missing);
        warnMissing(logger, missing, error);
      }
    } else {
      if (!failed.has(target.tariffCode)) logger.error({ tariff: target.tariffCode, kind, chunk: index, err: summarise(error) }, 'tariff failed');
      failed.add(target.tariffCode);
      outcome.ok = false;
      outcome.error ??= `${target.tariffCode}: ${(error as Error).message}`;
      outcome.errorCode ??= (error as { code?: string }).code;
      outcome.errorStatus ??= (error as { status?: number }).status;
      outcome.errorKind ??= kind;
    }
    gate.failed(stream, index);
  };
  /** Written only if the run goes on and every earlier chunk of its stream was written. */
  const writable = (chunk: Chunk) => options.signal?.aborted !== true && gate.mayWrite(chunk.stream, chunk.index);

  const writer = new RateWriter<Chunk>({
    warehouse, logger, runId: options.runId, signal: options.signal, writable,
    written: (chunk, counts) => {
      const outcome = outcomeOf(chunk);
      outcome.inserted += counts.inserted;
      outcome.updated += counts.updated;
      outcome.unchanged += counts.unchanged;
      outcome.chunks++;
    },
    failed: (chunk, error) => fail(chunk.stream, chunk.index, error),
  });

  const streams = await planStreams(options, now());
  const queue: WorkItem[] = streams.map((stream) => ({ type: 'probe', stream }));
  const tails: Promise<void>[] = [];

  const probe = async (stream: Stream): Promise<void> => {
    if (options.signal?.aborted || !gate.mayFetch(stream, PROBE_INDEX)) return;
    const outcome = outcomes.get(stream.target.tariffCode)!;
    let first: RatePage | undefined;
    const fetch = gate.track(stream, PROBE_INDEX, options.signal);
    const pages = ratePages(client, stream, stream.from, stream.to, fetch.signal);
    const probed: RateColumns[] = [];
    try {
      for await (const page of pages) {
        outcome.pages++;
        if (!first) options.progress?.expect(page.count);
        options.progress?.advance(page.rates.length);
        probed.push(page.rates);
        if (!first) {
          first = page;
          // Older pages exist: chunk the range they cover, unless the newest page does not
          // reach past the window's start (long rates), where following `next` is simpler.
          if (page.rates.length < page.count && page.rates.startRange()!.earliest > stream.from.getTime()) break;
        }
      }
    } catch (error) {
      if (!isAbort(error, options.signal) && gate.mayFetch(stream, PROBE_INDEX)) fail(stream, 0, error);
      return;
    } finally {
      fetch.done();
    }
    if (first?.count === 0 && optionalResourceOf(stream.kind) === undefined) outcome.empty.push(stream.kind);
    const rates = RateColumns.concat(probed);
    const oldest = rates.startRange()?.earliest;
    const spans = first && oldest !== undefined && rates.length < first.count
      ? splitWindow(stream.from, new Date(oldest), chunkMs, now(), FIRST_CHUNK_SLOTS * HALF_HOUR_MS)
      : [];
    const pageMs = pageWindowMs(rates);
    const chunks = chainChunks(stream, [...spans, { from: spans.length ? new Date(oldest!) : stream.from, to: stream.to }], pageMs);
    const newest = chunks.pop()!;
    for (const chunk of chunks) chunk.parts.forEach((_, part) => queue.push({ type: 'part', chunk, part }));
    wake();
    // The probe's page holds the newest rates: written after every older chunk.
    tails.push(newest.previous.then(() => {
      if (writable(newest)) writer.write(newest, rates);
      newest.enqueued();
    }));
  };

  // A chunk's parts are fetched by any workers, side by side. Once the last has settled, the
  // chunk is handed to the writer after its predecessor has been (asynchronously: the worker goes
  // on to the next item), counted against the writer's queue meanwhile.
  const fetchPart = async (chunk: Chunk, part: number): Promise<void> => {
    const window = chunk.parts[part]!;
    if (chunk.lost !== undefined || options.signal?.aborted || !gate.mayFetch(chunk.stream, chunk.index)) {
      chunk.lost ??= 'cut';
    } else {
      const fetch = gate.track(chunk.stream, chunk.index, options.signal);
      try {
        window.rates = await fetchAll(client, chunk.stream, window, fetch.signal, options, outcomeOf(chunk));
      } catch (error) {
        // stopped by the run or by its tariff's failure elsewhere: not a failure of its own
        if (isAbort(error, options.signal) || !gate.mayFetch(chunk.stream, chunk.index)) chunk.lost ??= 'cut';
        else if (chunk.lost !== 'failed') {
          chunk.lost = 'failed';
          fail(chunk.stream, chunk.index, error);
        }
      } finally {
        fetch.done();
      }
    }
    if (--chunk.unsettled > 0) return;
    if (chunk.lost !== undefined) {
      if (chunk.lost === 'cut') gate.cut(chunk.stream, chunk.index);
      return chunk.enqueued();
    }
    // newest part first, as each part's pages come: one descending run, nothing to dedupe
    const rates = RateColumns.concat(chunk.parts.map((p) => p.rates!).reverse());
    writer.hold(rates.length);
    tails.push(chunk.previous.then(() => {
      writer.hold(-rates.length);
      if (writable(chunk)) writer.write(chunk, rates);
      chunk.enqueued();
    }));
    await writer.waitForSpace();
  };

  // A pool of workers over a queue that probes extend: idle workers wait while probes are out.
  let probesOut = 0;
  let wake: () => void = () => undefined;
  const worker = async (): Promise<void> => {
    for (;;) {
      const item = queue.shift();
      if (item === undefined) {
        if (probesOut === 0) {
          // nothing left to send: the last requests are under way, and what waits for the writer
          // is written now rather than after them
          writer.finish();
          return;
        }
        await new Promise<void>((resolve) => {
          const previous = wake;
          wake = () => {
            previous();
            resolve();
          };
        });
        continue;
      }
      if (item.type === 'probe') {
        probesOut++;
        try {
          await probe(item.stream);
        } finally {
          probesOut--;
          wake();
        }
      } else {
        await fetchPart(item.chunk, item.part);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  writer.finish();
  await Promise.all(tails);
  await writer.drained();

  const tariffs = [...outcomes.values()];
  for (const t of tariffs) {
    if (t.ok) {
      logger.info({ tariff: t.tariffCode, inserted: t.inserted, updated: t.updated, unchanged: t.unchanged, pages: t.pages }, 'tariff done');
    }
  }
  const optionalPresent = streams.flatMap((stream) => {
    const resource = optionalResourceOf(stream.kind);
    return resource === undefined || stopped(stream) ? [] : [{ tariff: stream.target.tariffCode, resource }];
  });
  return {
    optionalPresent,
    inserted: sum(tariffs, 'inserted'), updated: sum(tariffs, 'updated'), unchanged: sum(tariffs, 'unchanged'),
    pages: sum(tariffs, 'pages'), requests: client.http.requestCount - requestsBefore, tariffs,
    interrupted: options.signal?.aborted === true,
  };
}

function ratePages(client: OctopusClient, stream: Stream, from: Date, to: Date | undefined, signal?: AbortSignal): AsyncGenerator<RatePage> {
  const { target, kind } = stream;
  const period = to === undefined ? { from } : { from, to };
  const endpoint = target.fuel === 'gas' ? (kind === 'standing_charge' ? 'standing-charges' : 'standard-unit-rates') : endpointOf(kind);
  return client.rateColumns(target.fuel, target.productCode, target.tariffCode, endpoint, period, { signal });
}

async function fetchAll(
  client: OctopusClient, stream: Stream, window: { from: Date; to: Date | undefined }, signal: AbortSignal,
  options: IngestRatesOptions, outcome: TariffOutcome,
): Promise<RateColumns> {
  const pages: RateColumns[] = [];
  for await (const page of ratePages(client, stream, window.from, window.to, signal)) {
    pages.push(page.rates);
    outcome.pages++;
    options.progress?.advance(page.rates.length);
  }
  return RateColumns.concat(pages);
}

/** Chunks over consecutive spans of a stream, each queued for writing after the one before;
 *  with `pageMs`, each cut into windows of one page. */
function chainChunks(stream: Stream, spans: { from: Date; to: Date | undefined }[], pageMs: number | undefined): Chunk[] {
  let previous: Promise<void> = Promise.resolve();
  return spans.map((span, index) => {
    let enqueued!: () => void;
    const done = new Promise<void>((resolve) => (enqueued = resolve));
    const parts = pageWindows(span, pageMs);
    const chunk: Chunk = {
      stream, index, target: stream.target, kind: stream.kind, from: span.from, to: span.to,
      urgent: index === 0 && spans.length > 1, parts, unsettled: parts.length, previous, enqueued, done,
    };
    previous = done;
    return chunk;
  });
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
export function pageWindows(span: { from: Date; to: Date | undefined }, pageMs: number | undefined): { from: Date; to: Date | undefined }[] {
  if (pageMs === undefined || span.to === undefined) return [{ from: span.from, to: span.to }];
  const windows: { from: Date; to: Date | undefined }[] = [];
  for (let start = span.from.getTime(); start < span.to.getTime(); start += pageMs) {
    windows.push({ from: new Date(start), to: new Date(Math.min(start + pageMs, span.to.getTime())) });
  }
  return windows;
}

function endpointOf(kind: RateKind): 'standard-unit-rates' | 'day-unit-rates' | 'night-unit-rates' | 'standing-charges' {
  switch (kind) {
    case 'standard': return 'standard-unit-rates';
    case 'day': return 'day-unit-rates';
    case 'night': return 'night-unit-rates';
    case 'standing_charge': return 'standing-charges';
  }
}

/** The window of every tariff and rate kind to fetch. */
async function planStreams(options: IngestRatesOptions, now: Date): Promise<Stream[]> {
  const cursors = new Map<string, Cursor>();
  for (const row of await options.warehouse.all('SELECT tariff_code, rate_kind, fetched_until, latest_valid_from, updated_at FROM ingest_cursors')) {
    cursors.set(`${row.tariff_code}|${row.rate_kind}`, row as unknown as Cursor);
  }
  const maxAge = options.standingChargeMaxAgeMs ?? 24 * 3600_000;
  const missing = await recentlyMissing(options.warehouse, now, maxAge);
  const streams: Stream[] = [];
  for (const target of options.targets) {
    for (const kind of target.kinds) {
      const cursor = cursors.get(`${target.tariffCode}|${kind}`);
      // Standing charges change rarely: refreshed at most once per maxAge by incremental runs.
      if (kind === 'standing_charge' && options.from === undefined && cursor
        && now.getTime() - Date.parse(cursor.updated_at) < maxAge) continue;
      // An optional resource found missing is asked for again at the same interval, not every run.
      const optional = optionalResourceOf(kind);
      if (optional !== undefined && missing.has(resourceKey(target.tariffCode, optional))) continue;
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
function resumeFrom(cursor: Cursor, lookbackMs: number): Date {
  const until = Date.parse(cursor.fetched_until);
  const last = cursor.latest_valid_from === null ? until : Date.parse(cursor.latest_valid_from) + HALF_HOUR_MS;
  return new Date(Math.min(until, last) - lookbackMs);
}

/** [from, to) in chunks of chunkMs (the first one firstMs, if shorter); without `to` the last
 *  chunk is open-ended and starts before now. */
export function splitWindow(
  from: Date, to: Date | undefined, chunkMs: number, now: Date, firstMs = chunkMs,
): { from: Date; to: Date | undefined }[] {
  const spans: { from: Date; to: Date | undefined }[] = [];
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

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && ((error as Error)?.name === 'AbortError' || error === signal.reason
    || (error as { code?: string })?.code === 'UND_ERR_ABORTED');
}

function summarise(error: unknown): { code?: string; message: string } {
  return { code: (error as { code?: string }).code, message: (error as Error).message ?? String(error) };
}

function sum(rows: TariffOutcome[], key: 'inserted' | 'updated' | 'unchanged' | 'pages'): number {
  return rows.reduce((s, r) => s + r[key], 0);
}
