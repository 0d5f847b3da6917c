// Loads a JSON Lines stream of events into the warehouse: each line validated against the catalog
// (validateEventLines), valid events to `events` and invalid lines to `event_rejects` in batches
// (EventBatchWriter), one transaction per batch; memory stays flat whatever the input's size.
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { silentLogger } from '../log/createLogger.js';
import type { Warehouse } from '../store/Warehouse.js';
import { EventBatchWriter, type BatchCounts } from './EventBatchWriter.js';
import type { EventCatalog } from './EventCatalog.js';
import type { EventErrorScope } from './EventError.js';
import { EventInputError } from './errors.js';
import { validateEventLines } from './validateEventLines.js';

export interface LoadEventsOptions {
  /** What `source` says in both tables: an absolute file path, or `stdin`. */
  source: string;
  logger?: Logger;
  /** The clock for loaded_at (one value for the whole load). */
  now?: () => Date;
  /** Lines per batch (one transaction each). */
  batchSize?: number;
  /** A batch also ends once its payloads and rejected lines reach this many characters. */
  batchChars?: number;
  /** Error entries kept for the summary; the rest are counted (all are stored in event_rejects). */
  maxErrors?: number;
  /** Log progress every this many lines. */
  progressEvery?: number;
  /** When aborted, the lines read so far are stored and the load stops. */
  signal?: AbortSignal;
  catalog?: EventCatalog;
}

/** One problem of one rejected line, as the summary lists it. */
export interface LoadError {
  /** 1-based, blank lines counted. */
  line: number;
  code: string;
  /** Envelope field, or dot path inside the payload (zero-based indexes); null for the line. */
  attr: string | null;
  /** Whether attr is an envelope field or a payload path (a payload may have a field named `id`). */
  scope: EventErrorScope;
  detail: string;
}

export interface LoadSummary {
  accepted: number;
  duplicates: number;
  rejected: number;
  errors: LoadError[];
  /** Present when `errors` was cut at maxErrors; errors_total counts them all. */
  errors_truncated?: true;
  errors_total?: number;
}

export interface LoadEventsResult {
  summary: LoadSummary;
  /** The last line read (1-based). */
  lines: number;
  /** The signal stopped the load before the end of the input. */
  interrupted: boolean;
}

export const LOAD_DEFAULTS = {
  batchSize: 10_000,
  batchChars: 8 * 1024 * 1024,
  maxErrors: 1000,
  progressEvery: 100_000,
} as const;

export async function loadEvents(
  warehouse: Warehouse,
  input: Readable | AsyncIterable<Uint8Array | string>,
  options: LoadEventsOptions,
): Promise<LoadEventsResult> {
  const { source } = options;
  const logger = options.logger ?? silentLogger();
  const batchSize = options.batchSize ?? LOAD_DEFAULTS.batchSize;
  const batchChars = options.batchChars ?? LOAD_DEFAULTS.batchChars;
  const maxErrors = options.maxErrors ?? LOAD_DEFAULTS.maxErrors;
  const progressEvery = options.progressEvery ?? LOAD_DEFAULTS.progressEvery;

  const summary: LoadSummary = { accepted: 0, duplicates: 0, rejected: 0, errors: [] };
  let errorsTotal = 0;
  const add = (counts: BatchCounts) => {
    summary.accepted += counts.accepted;
    summary.duplicates += counts.duplicates;
    summary.rejected += counts.rejected;
  };
  const started = performance.now();
  const progress = (lines: number) => ({
    source,
    lines,
    accepted: summary.accepted,
    duplicates: summary.duplicates,
    rejected: summary.rejected,
    lines_per_second: Math.round(lines / Math.max((performance.now() - started) / 1000, 1e-3)),
  });

  const writer = await EventBatchWriter.open(warehouse, source, (options.now ?? (() => new Date()))());
  let lines = 0;
  let interrupted = false;
  let nextProgress = progressEvery;
  try {
    for await (const result of validateEventLines(input, source, options.catalog ? { catalog: options.catalog } : {})) {
      lines = result.line;
      if (result.ok) {
        writer.addEvent(result.line, result.event);
      } else {
        writer.addReject(result.line, result.raw, result.errors);
        for (const e of result.errors) {
          errorsTotal++;
          if (summary.errors.length < maxErrors) {
            summary.errors.push({ line: result.line, code: e.code, attr: e.attr, scope: e.scope, detail: e.detail });
          }
        }
      }
      const pending = writer.pending;
      if (pending.lines >= batchSize || pending.chars >= batchChars) add(await writer.flush());
      if (lines >= nextProgress) {
        logger.info(progress(lines), 'loading events');
        nextProgress = (Math.floor(lines / progressEvery) + 1) * progressEvery;
      }
      if (options.signal?.aborted) {
        interrupted = true;
        break;
      }
    }
    add(await writer.close());
  } catch (error) {
    if (!(error instanceof EventInputError)) {
      writer.discard();
      throw error;
    }
    // The lines read before a read failure are complete: store them, then report the failure.
    try {
      add(await writer.close());
      logger.warn(progress(lines), 'input failed: the events read before it are stored');
    } catch (flushError) {
      writer.discard();
      logger.error({ err: flushError }, 'input failed, and the last batch could not be stored');
    }
    throw error;
  }
  if (errorsTotal > summary.errors.length) {
    summary.errors_truncated = true;
    summary.errors_total = errorsTotal;
  }
  logger.info({ ...progress(lines), interrupted }, 'events loaded');
  return { summary, lines, interrupted };
}
