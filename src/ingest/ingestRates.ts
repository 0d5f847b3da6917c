// Fetches each tracked tariff's rates and stores them. A tariff's window — from its cursor minus a
// short look-back (incremental), or a default start for a tariff never seen — is cut into chunks
// of whole pages, oldest first. Chunks of all tariffs are fetched by a bounded pool of workers;
// each tariff's chunks are committed in order, one transaction each with its cursor, so a run
// killed at any moment resumes without gaps. A tariff that fails stops at its last good chunk;
// the others carry on.
import type { Logger } from 'pino';
import type { OctopusClient } from '../api/OctopusClient.js';
import type { UnitRate } from '../api/schemas.js';
import type { Warehouse } from '../store/Warehouse.js';
import { prepareStaging, writeRateBatch, type RateKind, type WriteCounts } from '../store/writeRates.js';
import type { IngestTarget } from './resolveTargets.js';

const HALF_HOUR_MS = 30 * 60_000;
/** 12 pages of 1500 half-hours: a full chunk of a half-hourly tariff is exactly 12 requests. */
export const DEFAULT_CHUNK_SLOTS = 18_000;
/** Fetched batches waiting for the writer, at most (bounds memory). */
const MAX_QUEUED = 2;

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
  pages: number;
  chunks: number;
}

export interface IngestRatesResult extends WriteCounts {
  pages: number;
  requests: number;
  tariffs: TariffOutcome[];
  interrupted: boolean;
}

interface Chunk {
  target: IngestTarget;
  kind: RateKind;
  from: Date;
  to: Date | undefined;
  /** Resolves when the previous chunk of the same tariff and kind is queued for writing (or dropped). */
  previous: Promise<void>;
  enqueued: () => void;
  done: Promise<void>;
}

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
    tariffCode: t.tariffCode, ok: true, inserted: 0, updated: 0, unchanged: 0, pages: 0, chunks: 0,
  }]));
  const chunks = await planAll(options, now());
  const failed = new Set<string>();
  const fail = (chunk: Chunk, error: unknown) => {
    const outcome = outcomes.get(chunk.target.tariffCode)!;
    failed.add(chunk.target.tariffCode);
    outcome.ok = false;
    outcome.error ??= `${chunk.target.tariffCode}: ${(error as Error).message}`;
    outcome.errorCode ??= (error as { code?: string }).code;
    logger.error({ tariff: chunk.target.tariffCode, kind: chunk.kind, err: summarise(error) }, 'tariff failed');
  };
  // One connection writes, one batch at a time, in the order batches are queued. Workers queue a
  // chunk only once the previous chunk of its tariff is queued, so each tariff commits in order;
  // they then go on fetching while writes proceed, with at most MAX_QUEUED batches waiting.
  let writes: Promise<unknown> = Promise.resolve();
  const queued = new Set<Promise<unknown>>();
  const write = (chunk: Chunk, rates: UnitRate[]): Promise<unknown> => {
    const done = writes.then(async () => {
      if (failed.has(chunk.target.tariffCode) || options.signal?.aborted) return;
      const started = performance.now();
      try {
        const counts = await writeRateBatch(warehouse, {
          tariffCode: chunk.target.tariffCode, kind: chunk.kind, runId: options.runId, rates,
          window: { from: chunk.from, until: chunk.to ?? endOfLatest(rates, chunk.from) },
        });
        const outcome = outcomes.get(chunk.target.tariffCode)!;
        outcome.inserted += counts.inserted;
        outcome.updated += counts.updated;
        outcome.unchanged += counts.unchanged;
        outcome.chunks++;
        logger.debug({ tariff: chunk.target.tariffCode, kind: chunk.kind, rows: rates.length, ms: Math.round(performance.now() - started) }, 'batch written');
      } catch (error) {
        fail(chunk, error);
      }
    });
    writes = done;
    return done;
  };

  const runChunk = async (chunk: Chunk): Promise<void> => {
    try {
      if (failed.has(chunk.target.tariffCode) || options.signal?.aborted) return;
      let rates: UnitRate[];
      try {
        rates = await fetchChunk(client, chunk, options, outcomes.get(chunk.target.tariffCode)!);
      } catch (error) {
        if (!isAbort(error, options.signal)) fail(chunk, error);
        return;
      }
      await chunk.previous;
      if (failed.has(chunk.target.tariffCode) || options.signal?.aborted) return;
      const done = write(chunk, rates);
      queued.add(done);
      void done.finally(() => queued.delete(done));
    } finally {
      chunk.enqueued();
    }
    while (queued.size >= MAX_QUEUED) await Promise.race(queued);
  };

  await runPool(chunks, Math.max(1, options.concurrency), runChunk);
  await writes;

  const tariffs = [...outcomes.values()];
  for (const t of tariffs) {
    if (t.ok) {
      logger.info({ tariff: t.tariffCode, inserted: t.inserted, updated: t.updated, unchanged: t.unchanged, pages: t.pages }, 'tariff done');
    }
  }
  return {
    inserted: sum(tariffs, 'inserted'), updated: sum(tariffs, 'updated'), unchanged: sum(tariffs, 'unchanged'),
    pages: sum(tariffs, 'pages'), requests: client.http.requestCount - requestsBefore, tariffs,
    interrupted: options.signal?.aborted === true,
  };
}

async function fetchChunk(client: OctopusClient, chunk: Chunk, options: IngestRatesOptions, outcome: TariffOutcome): Promise<UnitRate[]> {
  const { target, kind } = chunk;
  const period = chunk.to === undefined ? { from: chunk.from } : { from: chunk.from, to: chunk.to };
  const pages = target.fuel === 'gas'
    ? client.gasRates(target.productCode, target.tariffCode, kind === 'standing_charge' ? 'standing-charges' : 'standard-unit-rates', period, { signal: options.signal })
    : client.electricityRates(target.productCode, target.tariffCode, endpointOf(kind), period, { signal: options.signal });
  const rates: UnitRate[] = [];
  for await (const page of pages) {
    if (page.index === 0) options.progress?.expect(page.count);
    for (const r of page.records) rates.push(r);
    outcome.pages++;
    options.progress?.advance(page.records.length);
  }
  return rates;
}

function endpointOf(kind: RateKind): 'standard-unit-rates' | 'day-unit-rates' | 'night-unit-rates' | 'standing-charges' {
  switch (kind) {
    case 'standard': return 'standard-unit-rates';
    case 'day': return 'day-unit-rates';
    case 'night': return 'night-unit-rates';
    case 'standing_charge': return 'standing-charges';
  }
}

/** Chunks of every tariff and kind, in the order workers take them (oldest first per tariff). */
async function planAll(options: IngestRatesOptions, now: Date): Promise<Chunk[]> {
  const cursors = new Map<string, Cursor>();
  for (const row of await options.warehouse.all('SELECT tariff_code, rate_kind, fetched_until, latest_valid_from, updated_at FROM ingest_cursors')) {
    cursors.set(`${row.tariff_code}|${row.rate_kind}`, row as unknown as Cursor);
  }
  const chunkMs = (options.chunkSlots ?? DEFAULT_CHUNK_SLOTS) * HALF_HOUR_MS;
  const maxAge = options.standingChargeMaxAgeMs ?? 24 * 3600_000;
  const out: Chunk[] = [];
  for (const target of options.targets) {
    for (const kind of target.kinds) {
      const cursor = cursors.get(`${target.tariffCode}|${kind}`);
      if (kind === 'standing_charge' && options.from === undefined && cursor
        && now.getTime() - Date.parse(cursor.updated_at) < maxAge) continue;
      // An agreement's tariff starts with its agreement, not at the default start.
      let from = options.from
        ?? (cursor ? resumeFrom(cursor, options.lookbackMs) : target.period?.from ?? options.defaultFrom);
      let to = options.to;
      if (target.period) {
        if (from < target.period.from) from = target.period.from;
        if (target.period.to !== undefined && (to === undefined || target.period.to < to)) to = target.period.to;
      }
      // A backfill is cut into chunks so a killed run resumes where it stopped; an incremental
      // run (cursor, no --from) is one open request that also covers what the cursor knows.
      // Standing charges are a handful of rows over years: always one request.
      const spans = (cursor && options.from === undefined && to === undefined) || kind === 'standing_charge'
        ? [{ from, to }]
        : splitWindow(from, to, chunkMs, now);
      let previous: Promise<void> = Promise.resolve();
      for (const span of spans) {
        let enqueued!: () => void;
        const done = new Promise<void>((resolve) => (enqueued = resolve));
        out.push({ target, kind, from: span.from, to: span.to, previous, enqueued, done });
        previous = done;
      }
    }
  }
  return out;
}

/** Incremental start: the last stored slot (or, with nothing stored, the end of what was
 *  fetched), minus the look-back that catches revised prices. */
function resumeFrom(cursor: Cursor, lookbackMs: number): Date {
  const until = Date.parse(cursor.fetched_until);
  const last = cursor.latest_valid_from === null ? until : Date.parse(cursor.latest_valid_from) + HALF_HOUR_MS;
  return new Date(Math.min(until, last) - lookbackMs);
}

/** [from, to) in chunks of chunkMs; without `to` the last chunk is open-ended and starts before now. */
export function splitWindow(from: Date, to: Date | undefined, chunkMs: number, now: Date): { from: Date; to: Date | undefined }[] {
  const spans: { from: Date; to: Date | undefined }[] = [];
  let start = from.getTime();
  for (;;) {
    if (to !== undefined && start >= to.getTime()) break;
    const end = start + chunkMs;
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

/** End of the latest rate fetched by an open-ended chunk: where its coverage stops. */
function endOfLatest(rates: UnitRate[], floor: Date): Date {
  let end = floor.getTime();
  for (const r of rates) {
    const e = r.valid_to === null ? Date.parse(r.valid_from) + HALF_HOUR_MS : Date.parse(r.valid_to);
    if (e > end) end = e;
  }
  return new Date(end);
}

async function runPool<T>(items: T[], concurrency: number, worker: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) await worker(items[next++]!);
  });
  await Promise.all(lanes);
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
