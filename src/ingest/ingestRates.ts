// Fetches each tracked tariff's rates and stores them. Each tariff and rate kind is a stream over
// a window — from its cursor minus a short look-back (incremental), or a default start for a
// tariff never seen. A stream starts with one open request (a probe): pages come newest first, so
// its first page holds the newest rates and says how many there are. Older data, if any, is then
// cut into chunks of whole pages over the range it really covers, fetched by a bounded pool of
// workers and committed oldest first, one transaction per chunk with the tariff's cursor, the
// probe's page last. The oldest chunk is a single page, committed as soon as it arrives, so that
// even a run cut short within seconds moves the cursor. A run killed at any moment resumes
// without gaps; a tariff that fails keeps every chunk before the failing one and stops fetching
// at once (src/ingest/ChunkGate.ts) while the others carry on. A failed optional resource (standing charges)
// is a warning that costs the tariff nothing (src/ingest/optionalResources.ts).
import type { Logger } from 'pino';
import type { OctopusClient } from '../api/OctopusClient.js';
import type { Page } from '../api/paginate.js';
import type { UnitRate } from '../api/schemas.js';
import type { Warehouse } from '../store/Warehouse.js';
import { RateColumns } from '../store/RateColumns.js';
import { prepareStaging, writeRateBatch, writeRateBatches, type RateKind, type WriteCounts } from '../store/writeRates.js';
import type { IngestTarget } from './resolveTargets.js';
import { HALF_HOUR_MS } from '../time/index.js';
import { ChunkGate, PROBE_INDEX } from './ChunkGate.js';
import {
  missingFrom, optionalResourceOf, recentlyMissing, resourceKey, warnMissing, type MissingResource, type OptionalResource,
} from './optionalResources.js';

/** 6 pages of 1500 half-hours: a full chunk of a half-hourly tariff is exactly 6 requests —
 *  small enough to spread a few tariffs over the workers, large enough to keep commits few. */
export const DEFAULT_CHUNK_SLOTS = 9_000;
/** The oldest chunk of a backfill is one page: its commit comes after two requests (the probe
 *  and itself), so a run stopped early still moves the cursor, and the next one goes on from there. */
export const FIRST_CHUNK_SLOTS = 1_500;
/** Fetched chunks not yet written, at most (bounds memory: a chunk is a few number columns). */
const MAX_QUEUED = 8;
/** Rates committed in one transaction, at most (unless a single batch is larger). */
const MAX_GROUP_ROWS = 36_000;

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
  /** Resolves when the previous chunk of the same stream is queued for writing (or dropped). */
  previous: Promise<void>;
  enqueued: () => void;
  done: Promise<void>;
}

type WorkItem = { type: 'probe'; stream: Stream } | { type: 'chunk'; chunk: Chunk };

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
    const optional = optionalResourceOf(kind);
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

  // One connection writes, in the order batches are queued. A chunk is queued only once the
  // previous chunk of its stream is queued, so each stream commits in order. The writer takes
  // everything waiting and commits it in one transaction (each batch with its cursor); if that
  // fails it writes them one by one, so that a bad batch fails only its own tariff. Workers go
  // on fetching meanwhile, pausing while MAX_QUEUED fetched chunks wait.
  const pending: { chunk: Chunk; rates: RateColumns }[] = [];
  let writing: Promise<void> | undefined;
  let spaceWaiters: (() => void)[] = [];
  const record = (chunk: Chunk, counts: WriteCounts) => {
    const outcome = outcomeOf(chunk);
    outcome.inserted += counts.inserted;
    outcome.updated += counts.updated;
    outcome.unchanged += counts.unchanged;
    outcome.chunks++;
  };
  const batchOf = (item: { chunk: Chunk; rates: RateColumns }) => ({
    tariffCode: item.chunk.target.tariffCode, kind: item.chunk.kind, runId: options.runId, rates: item.rates,
    window: { from: item.chunk.from, until: item.chunk.to ?? new Date(item.rates.endOfLatest(item.chunk.from.getTime())) },
  });
  const drain = async (): Promise<void> => {
    while (pending.length > 0) {
      // up to MAX_GROUP_ROWS a transaction: DuckDB holds a transaction's rows in memory until commit
      let take = 1;
      for (let rows = pending[0]!.rates.length; take < pending.length; take++) {
        rows += pending[take]!.rates.length;
        if (rows > MAX_GROUP_ROWS) break;
      }
      const group = pending.splice(0, take).filter((item) => writable(item.chunk));
      notifySpace();
      if (group.length === 0) continue;
      const started = performance.now();
      try {
        const counts = await writeRateBatches(warehouse, group.map(batchOf));
        group.forEach((item, i) => record(item.chunk, counts[i]!));
      } catch (groupError) {
        if (group.length === 1) {
          fail(group[0]!.chunk.stream, group[0]!.chunk.index, groupError);
        } else {
          for (const item of group) {
            if (!writable(item.chunk)) continue;
            try {
              record(item.chunk, await writeRateBatch(warehouse, batchOf(item)));
            } catch (error) {
              fail(item.chunk.stream, item.chunk.index, error);
            }
          }
        }
      }
      logger.debug({
        batches: group.length, rows: group.reduce((n, item) => n + item.rates.length, 0), ms: Math.round(performance.now() - started),
        kinds: [...new Set(group.map((item) => item.chunk.kind))],
      }, 'batches written');
    }
  };
  const startWriter = (): void => {
    if (writing) return;
    writing = drain().finally(() => {
      writing = undefined;
      if (pending.length > 0) startWriter(); // queued as the loop ended
    });
  };
  const write = (chunk: Chunk, rates: RateColumns): void => {
    pending.push({ chunk, rates });
    startWriter();
  };
  let held = 0;
  const notifySpace = () => {
    const released = spaceWaiters;
    spaceWaiters = [];
    for (const wake of released) wake();
  };
  const waitForSpace = async (): Promise<void> => {
    while (pending.length + held >= MAX_QUEUED) await new Promise<void>((resolve) => spaceWaiters.push(resolve));
  };

  const streams = await planStreams(options, now());
  const queue: WorkItem[] = streams.map((stream) => ({ type: 'probe', stream }));
  const tails: Promise<void>[] = [];

  const probe = async (stream: Stream): Promise<void> => {
    if (options.signal?.aborted || !gate.mayFetch(stream, PROBE_INDEX)) return;
    const outcome = outcomes.get(stream.target.tariffCode)!;
    let first: Page<UnitRate> | undefined;
    const fetch = gate.track(stream, PROBE_INDEX, options.signal);
    const pages = ratePages(client, stream, stream.from, stream.to, fetch.signal);
    const rates = new RateColumns();
    try {
      for await (const page of pages) {
        outcome.pages++;
        if (!first) options.progress?.expect(page.count);
        options.progress?.advance(page.records.length);
        rates.pushAll(page.records);
        if (!first) {
          first = page;
          // Older pages exist: chunk the range they cover, unless the newest page does not
          // reach past the window's start (long rates), where following `next` is simpler.
          if (page.records.length < page.count && rates.startRange()!.earliest > stream.from.getTime()) break;
        }
      }
    } catch (error) {
      if (!isAbort(error, options.signal) && gate.mayFetch(stream, PROBE_INDEX)) fail(stream, 0, error);
      return;
    } finally {
      fetch.done();
    }
    if (first?.count === 0 && optionalResourceOf(stream.kind) === undefined) outcome.empty.push(stream.kind);
    const oldest = rates.startRange()?.earliest;
    const spans = first && oldest !== undefined && rates.length < first.count
      ? splitWindow(stream.from, new Date(oldest), chunkMs, now(), FIRST_CHUNK_SLOTS * HALF_HOUR_MS)
      : [];
    const chunks = chainChunks(stream, [...spans, { from: spans.length ? new Date(oldest!) : stream.from, to: stream.to }]);
    const newest = chunks.pop()!;
    for (const chunk of chunks) queue.push({ type: 'chunk', chunk });
    wake();
    // The probe's page holds the newest rates: written after every older chunk.
    tails.push(newest.previous.then(() => {
      if (writable(newest)) write(newest, rates);
      newest.enqueued();
    }));
  };

  // A fetched chunk is handed to the writer once its predecessor has been (asynchronously: the
  // worker goes on to the next item); `held` counts those still waiting for a predecessor.
  const fetchAndWrite = async (chunk: Chunk): Promise<void> => {
    let rates: RateColumns;
    if (options.signal?.aborted || !gate.mayFetch(chunk.stream, chunk.index)) {
      gate.cut(chunk.stream, chunk.index);
      return chunk.enqueued();
    }
    const fetch = gate.track(chunk.stream, chunk.index, options.signal);
    try {
      rates = await fetchAll(client, chunk, fetch.signal, options, outcomeOf(chunk));
    } catch (error) {
      // stopped by the run or by its tariff's failure elsewhere: not a failure of its own
      if (isAbort(error, options.signal) || !gate.mayFetch(chunk.stream, chunk.index)) gate.cut(chunk.stream, chunk.index);
      else fail(chunk.stream, chunk.index, error);
      return chunk.enqueued();
    } finally {
      fetch.done();
    }
    held++;
    tails.push(chunk.previous.then(() => {
      held--;
      if (writable(chunk)) write(chunk, rates);
      chunk.enqueued();
      notifySpace();
    }));
    await waitForSpace();
  };

  // A pool of workers over a queue that probes extend: idle workers wait while probes are out.
  let probesOut = 0;
  let wake: () => void = () => undefined;
  const worker = async (): Promise<void> => {
    for (;;) {
      const item = queue.shift();
      if (item === undefined) {
        if (probesOut === 0) return;
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
        await fetchAndWrite(item.chunk);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  await Promise.all(tails);
  while (writing) await writing;

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

function ratePages(client: OctopusClient, stream: Stream, from: Date, to: Date | undefined, signal?: AbortSignal): AsyncGenerator<Page<UnitRate>> {
  const { target, kind } = stream;
  const period = to === undefined ? { from } : { from, to };
  return target.fuel === 'gas'
    ? client.gasRates(target.productCode, target.tariffCode, kind === 'standing_charge' ? 'standing-charges' : 'standard-unit-rates', period, { signal })
    : client.electricityRates(target.productCode, target.tariffCode, endpointOf(kind), period, { signal });
}

async function fetchAll(
  client: OctopusClient, chunk: Chunk, signal: AbortSignal, options: IngestRatesOptions, outcome: TariffOutcome,
): Promise<RateColumns> {
  const rates = new RateColumns();
  for await (const page of ratePages(client, chunk.stream, chunk.from, chunk.to, signal)) {
    rates.pushAll(page.records);
    outcome.pages++;
    options.progress?.advance(page.records.length);
  }
  return rates;
}

/** Chunks over consecutive spans of a stream, each queued for writing after the one before. */
function chainChunks(stream: Stream, spans: { from: Date; to: Date | undefined }[]): Chunk[] {
  let previous: Promise<void> = Promise.resolve();
  return spans.map((span, index) => {
    let enqueued!: () => void;
    const done = new Promise<void>((resolve) => (enqueued = resolve));
    const chunk: Chunk = { stream, index, target: stream.target, kind: stream.kind, from: span.from, to: span.to, previous, enqueued, done };
    previous = done;
    return chunk;
  });
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
