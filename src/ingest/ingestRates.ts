// Fetches each tracked tariff's rates and stores them: planning decides each stream's window and,
// once its probe is back, its chunks (src/ingest/planFetches.ts); a pool of workers fetches their
// pages side by side (src/ingest/FetchPool.ts); the writer commits them (src/ingest/RateWriter.ts).
// Chunks are handed to the writer oldest first, each once the one before it in its stream has
// been, the probe's page last. A run killed at any moment resumes without gaps; a tariff that
// fails keeps every chunk before the failing one and stops fetching at once
// (src/ingest/ChunkGate.ts) while the others carry on (src/ingest/TariffOutcomes.ts).
import type { Logger } from 'pino';
import type { OctopusClient } from '../api/OctopusClient.js';
import { readCursors } from '../store/cursors.js';
import { RateColumns } from '../rates/RateColumns.js';
import type { Warehouse } from '../store/Warehouse.js';
import { prepareStaging, type WriteCounts } from '../store/writeRates.js';
import { HALF_HOUR_MS } from '../time/index.js';
import { ChunkGate, PROBE_INDEX } from './ChunkGate.js';
import { fetchRatePages } from './fetchRatePages.js';
import { FetchPool } from './FetchPool.js';
import { optionalResourceOf, recentlyMissing, type OptionalResource } from './optionalResources.js';
import {
  DEFAULT_CHUNK_SLOTS, STANDING_CHARGE_MAX_AGE_MS, chunkAfterFirstPage, planChunks, planStreams,
  type PlannedChunk, type Span, type Stream,
} from './planFetches.js';
import { RateWriter } from './RateWriter.js';
import type { IngestTarget } from './resolveTargets.js';
import { TariffOutcomes, type TariffOutcome } from './TariffOutcomes.js';

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

export interface IngestRatesResult extends WriteCounts {
  pages: number;
  requests: number;
  tariffs: TariffOutcome[];
  interrupted: boolean;
  /** Optional resources asked for and stored (for optional_resources). */
  optionalPresent: { tariff: string; resource: OptionalResource }[];
}

export async function ingestRates(options: IngestRatesOptions): Promise<IngestRatesResult> {
  const { warehouse, client, logger } = options;
  const now = options.now ?? (() => new Date());
  const requestsBefore = client.http.requestCount;
  await prepareStaging(warehouse);
  const maxAge = options.standingChargeMaxAgeMs ?? STANDING_CHARGE_MAX_AGE_MS;
  const streams = planStreams(options, await readCursors(warehouse), await recentlyMissing(warehouse, now(), maxAge), now());

  const run = new RatesRun(options, now);
  await run.fetchAndWrite(streams);

  const tariffs = run.outcomes.all();
  for (const t of tariffs) {
    if (t.ok) logger.info({ tariff: t.tariffCode, inserted: t.inserted, updated: t.updated, unchanged: t.unchanged, pages: t.pages }, 'tariff done');
  }
  const optionalPresent = streams.flatMap((stream) => {
    const resource = optionalResourceOf(stream.kind);
    return resource === undefined || run.outcomes.stopped(stream) ? [] : [{ tariff: stream.target.tariffCode, resource }];
  });
  return {
    optionalPresent,
    inserted: sum(tariffs, 'inserted'), updated: sum(tariffs, 'updated'), unchanged: sum(tariffs, 'unchanged'),
    pages: sum(tariffs, 'pages'), requests: client.http.requestCount - requestsBefore, tariffs,
    interrupted: options.signal?.aborted === true,
  };
}

/** A chunk of a stream being fetched (or, for a probe's page, already fetched) and written. */
interface Chunk extends Span {
  stream: Stream;
  /** Position in its stream, oldest first; the probe's page is the last. */
  index: number;
  target: IngestTarget;
  kind: Stream['kind'];
  /** The oldest chunk of a backfill: the run's first commit, as soon as one is fetched. */
  urgent: boolean;
  /** Windows of one page each when the rates are half-hourly (fetched at once, side by side),
   *  else the chunk's window (its pages follow `next`); oldest first. */
  parts: (Span & { rates?: RateColumns })[];
  /** Parts not yet fetched, failed or dropped. */
  unsettled: number;
  /** Why the chunk will not be written, once one of its parts could not be fetched. */
  lost?: 'cut' | 'failed';
  /** Resolves when the previous chunk of the same stream is queued for writing (or dropped). */
  previous: Promise<void>;
  enqueued: () => void;
}

type WorkItem = { type: 'probe'; stream: Stream } | { type: 'part'; chunk: Chunk; part: number };

/** One run's fetching and writing: every stream's probe, then its chunks' parts, by a pool of
 *  workers; each chunk handed to the writer in its stream's order. */
class RatesRun {
  readonly outcomes: TariffOutcomes;
  private readonly gate: ChunkGate<Stream>;
  private readonly writer: RateWriter<Chunk>;
  private readonly pool: FetchPool<WorkItem>;
  /** Chunks waiting for their stream's previous chunk before they go to the writer. */
  private readonly handOvers: Promise<void>[] = [];
  private readonly signal: AbortSignal | undefined;

  constructor(private readonly options: IngestRatesOptions, private readonly now: () => Date) {
    this.signal = options.signal;
    this.outcomes = new TariffOutcomes(options.targets, options.logger, options.signal);
    this.gate = new ChunkGate<Stream>((stream) => this.outcomes.stopped(stream));
    this.writer = new RateWriter<Chunk>({
      warehouse: options.warehouse, logger: options.logger, runId: options.runId, signal: options.signal,
      writable: (chunk) => this.writable(chunk),
      written: (chunk, counts) => this.outcomes.written(chunk, counts),
      failed: (chunk, error) => this.fail(chunk.stream, chunk.index, error),
    });
    this.pool = new FetchPool<WorkItem>(
      (item) => (item.type === 'probe' ? this.probe(item.stream) : this.fetchPart(item.chunk, item.part)),
      (item) => item.type === 'probe', // a probe adds its stream's chunks
      () => this.writer.finish(), // what waits for the writer is written now rather than after the last requests
    );
  }

  async fetchAndWrite(streams: Stream[]): Promise<void> {
    this.pool.add(...streams.map((stream): WorkItem => ({ type: 'probe', stream })));
    await this.pool.run(this.options.concurrency);
    this.writer.finish();
    await Promise.all(this.handOvers);
    await this.writer.drained();
  }

  /** Written only if the run goes on and every earlier chunk of its stream was written. */
  private writable(chunk: Chunk): boolean {
    return this.signal?.aborted !== true && this.gate.mayWrite(chunk.stream, chunk.index);
  }

  /** Chunk `index` of `stream` failed (a probe: index 0). */
  private fail(stream: Stream, index: number, error: unknown): void {
    this.outcomes.fail(stream, index, error);
    this.gate.failed(stream, index);
  }

  /** The stream's first request: its newest page(s), then its older chunks queued for the pool. */
  private async probe(stream: Stream): Promise<void> {
    if (this.signal?.aborted || !this.gate.mayFetch(stream, PROBE_INDEX)) return;
    const { progress } = this.options;
    const outcome = this.outcomes.of(stream.target);
    let count: number | undefined;
    const fetch = this.gate.track(stream, PROBE_INDEX, this.signal);
    const probed: RateColumns[] = [];
    try {
      for await (const page of fetchRatePages(this.options.client, stream, stream, fetch.signal)) {
        outcome.pages++;
        if (count === undefined) progress?.expect(page.count);
        progress?.advance(page.rates.length);
        probed.push(page.rates);
        if (count === undefined) {
          count = page.count;
          if (chunkAfterFirstPage(stream, page)) break;
        }
      }
    } catch (error) {
      if (!isAbort(error, this.signal) && this.gate.mayFetch(stream, PROBE_INDEX)) this.fail(stream, 0, error);
      return;
    } finally {
      fetch.done();
    }
    if (count === 0 && optionalResourceOf(stream.kind) === undefined) outcome.empty.push(stream.kind);
    const rates = RateColumns.concat(probed);
    const chunkMs = (this.options.chunkSlots ?? DEFAULT_CHUNK_SLOTS) * HALF_HOUR_MS;
    const chunks = chainChunks(stream, planChunks(stream, rates, count, chunkMs, this.now()));
    const newest = chunks.pop()!;
    this.pool.add(...chunks.flatMap((chunk) => chunk.parts.map((_, part): WorkItem => ({ type: 'part', chunk, part }))));
    // The probe's page holds the newest rates: written after every older chunk.
    this.handOver(newest, rates, false);
  }

  // A chunk's parts are fetched by any workers, side by side. Once the last has settled, the
  // chunk is handed to the writer after its predecessor has been (asynchronously: the worker goes
  // on to the next item), counted against the writer's queue meanwhile.
  private async fetchPart(chunk: Chunk, part: number): Promise<void> {
    const window = chunk.parts[part]!;
    if (chunk.lost !== undefined || this.signal?.aborted || !this.gate.mayFetch(chunk.stream, chunk.index)) {
      chunk.lost ??= 'cut';
    } else {
      const fetch = this.gate.track(chunk.stream, chunk.index, this.signal);
      try {
        window.rates = await this.fetchWindow(chunk, window, fetch.signal);
      } catch (error) {
        // stopped by the run or by its tariff's failure elsewhere: not a failure of its own
        if (isAbort(error, this.signal) || !this.gate.mayFetch(chunk.stream, chunk.index)) chunk.lost ??= 'cut';
        else if (chunk.lost !== 'failed') {
          chunk.lost = 'failed';
          this.fail(chunk.stream, chunk.index, error);
        }
      } finally {
        fetch.done();
      }
    }
    if (--chunk.unsettled > 0) return;
    if (chunk.lost !== undefined) {
      if (chunk.lost === 'cut') this.gate.cut(chunk.stream, chunk.index);
      return chunk.enqueued();
    }
    // newest part first, as each part's pages come: one descending run, nothing to dedupe
    this.handOver(chunk, RateColumns.concat(chunk.parts.map((p) => p.rates!).reverse()), true);
    await this.writer.waitForSpace();
  }

  private async fetchWindow(chunk: Chunk, window: Span, signal: AbortSignal): Promise<RateColumns> {
    const outcome = this.outcomes.of(chunk.target);
    const pages: RateColumns[] = [];
    for await (const page of fetchRatePages(this.options.client, chunk.stream, window, signal)) {
      pages.push(page.rates);
      outcome.pages++;
      this.options.progress?.advance(page.rates.length);
    }
    return RateColumns.concat(pages);
  }

  /** Queues a fetched chunk for the writer once the previous chunk of its stream is queued;
   *  `hold`: its rates count against the writer's queue meanwhile. */
  private handOver(chunk: Chunk, rates: RateColumns, hold: boolean): void {
    if (hold) this.writer.hold(rates.length);
    this.handOvers.push(chunk.previous.then(() => {
      if (hold) this.writer.hold(-rates.length);
      if (this.writable(chunk)) this.writer.write(chunk, rates);
      chunk.enqueued();
    }));
  }
}

/** A stream's planned chunks, each queued for writing after the one before. */
function chainChunks(stream: Stream, planned: PlannedChunk[]): Chunk[] {
  let previous: Promise<void> = Promise.resolve();
  return planned.map(({ from, to, parts }, index) => {
    let enqueued!: () => void;
    const done = new Promise<void>((resolve) => (enqueued = resolve));
    const chunk: Chunk = {
      stream, index, target: stream.target, kind: stream.kind, from, to,
      urgent: index === 0 && planned.length > 1, parts, unsettled: parts.length, previous, enqueued,
    };
    previous = done;
    return chunk;
  });
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && ((error as Error)?.name === 'AbortError' || error === signal.reason
    || (error as { code?: string })?.code === 'UND_ERR_ABORTED');
}

function sum(rows: TariffOutcome[], key: 'inserted' | 'updated' | 'unchanged' | 'pages'): number {
  return rows.reduce((s, r) => s + r[key], 0);
}
