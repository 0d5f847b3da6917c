// Fetches each tracked tariff's rates and stores them as a pipeline: per stream (a tariff's rate
// kind), one generator of batches oldest first (rateStream.ts) → one bounded queue → one writer
// that commits every RATES_PER_COMMIT rates (the first commit at once). A tariff that fails keeps what came before the
// failure and stops fetching; the others carry on (TariffOutcomes.ts).
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import { anySignal } from '../abortSignals.js';
import type { OctopusClient } from '../api/OctopusClient.js';
import { RATES_PER_COMMIT } from '../store/commitSize.js';
import { readCursors } from '../store/cursors.js';
import type { Warehouse } from '../store/Warehouse.js';
import { prepareStaging, writeRateBatches, type RateBatch, type WriteCounts } from '../store/writeRates.js';
import { BoundedQueue } from './BoundedQueue.js';
import { optionalResourceOf, recentlyMissing, type OptionalResource } from './optionalResources.js';
import { STANDING_CHARGE_MAX_AGE_MS, planStreams, type Stream } from './planFetches.js';
import { rateStream, type Progress, type StreamBatch } from './rateStream.js';
import type { IngestTarget } from './resolveTargets.js';
import { TariffOutcomes, type TariffOutcome } from './TariffOutcomes.js';

export type { Progress } from './rateStream.js';

export interface IngestRatesOptions {
  warehouse: Warehouse;
  client: OctopusClient;
  logger: Logger;
  targets: IngestTarget[];
  runId: number;
  now: () => Date;
  /** Explicit window (`--from`/`--to`); without `from` each tariff continues from its cursor. */
  from?: Date | undefined;
  to?: Date | undefined;
  /** Where a tariff without a cursor starts. */
  defaultFrom: Date;
  lookbackMs: number;
  /** Requests at once: also how many windows a stream fetches ahead. */
  concurrency: number;
  signal: AbortSignal;
  progress?: Progress | undefined;
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
  const { warehouse, client, logger, signal, now } = options;
  const requestsBefore = client.http.requestCount;
  await prepareStaging(warehouse);
  const missing = await recentlyMissing(warehouse, now(), STANDING_CHARGE_MAX_AGE_MS);
  const streams = planStreams(options, await readCursors(warehouse), missing, now());
  const outcomes = new TariffOutcomes(options.targets, logger, signal);
  const queue = new BoundedQueue<StreamBatch>(RATES_PER_COMMIT, (batch) => batch.rates.from.length);
  const tariffStops = new Map(options.targets.map((t) => [t.tariffCode, new AbortController()]));
  for (const stop of tariffStops.values()) setMaxListeners(0, stop.signal);
  const stopTariff = (stream: Stream) => {
    if (!outcomes.of(stream.target).ok) tariffStops.get(stream.target.tariffCode)!.abort(new Error('stopped: the tariff failed'));
  };

  // every stream listens to the run's signal, and each of its requests to the stream's
  setMaxListeners(0, signal);
  const fetching = Promise.all(streams.map((stream) => fetchStream(stream))).finally(() => {
    queue.close();
    // every record is in: what the bar shows from now on is the writing of the last of them
    options.progress?.working?.('storing the rates');
  });
  await Promise.all([fetching, writeAll()]);

  async function fetchStream(stream: Stream): Promise<void> {
    const stop = anySignal([signal, tariffStops.get(stream.target.tariffCode)!.signal]);
    setMaxListeners(0, stop.signal);
    let first = true;
    try {
      const batches = rateStream(stream, { client, signal: stop.signal, lookahead: options.concurrency, progress: options.progress });
      for await (const batch of batches) {
        outcomes.of(stream.target).pages += batch.pages;
        if (first && batch.count === 0 && optionalResourceOf(stream.kind) === undefined) outcomes.of(stream.target).empty.push(stream.kind);
        first = false;
        await queue.push(batch);
      }
    } catch (error) {
      if (stop.signal.aborted) return; // the run stopped, or the tariff failed elsewhere
      outcomes.fail(stream, error);
      stopTariff(stream);
    } finally {
      stop.dispose();
    }
  }

  /** Commits what the queue holds: at once the first time, then every RATES_PER_COMMIT rates and
   *  at the end. A stream whose write failed has nothing of it written after (no gap behind a cursor). */
  async function writeAll(): Promise<void> {
    const writeFailed = new Set<Stream>();
    const failWrite = (batch: StreamBatch, error: unknown) => {
      writeFailed.add(batch.stream);
      outcomes.fail(batch.stream, error);
      stopTariff(batch.stream);
    };
    const written = (group: StreamBatch[], counts: WriteCounts[]) => {
      group.forEach((batch, i) => outcomes.written(batch.stream, counts[i]!));
      logger.debug({
        batches: group.length, rows: group.reduce((n, b) => n + b.rates.from.length, 0), kinds: [...new Set(group.map((b) => b.stream.kind))],
      }, 'batches written');
    };
    // The run's first commit takes whatever is queued first, so that even a run killed early
    // moves its cursors; every later one waits for RATES_PER_COMMIT rates (or the end).
    for (let commits = 0; ; commits++) {
      const taken = await queue.take(commits === 0 ? 1 : RATES_PER_COMMIT);
      if (taken === undefined) return;
      const group = taken.filter((batch) => !writeFailed.has(batch.stream));
      if (group.length === 0) continue;
      try {
        written(group, await writeRateBatches(warehouse, group.map((batch) => rateBatchOf(batch, options.runId))));
      } catch (groupError) {
        if (group.length === 1) {
          failWrite(group[0]!, groupError);
          continue;
        }
        // one at a time, so that a bad batch fails only its own tariff
        for (const batch of group) {
          if (writeFailed.has(batch.stream)) continue;
          try {
            written([batch], await writeRateBatches(warehouse, [rateBatchOf(batch, options.runId)]));
          } catch (error) {
            failWrite(batch, error);
          }
        }
      }
    }
  }

  const tariffs = outcomes.all();
  for (const t of tariffs) {
    if (t.ok) logger.info({ tariff: t.tariffCode, inserted: t.inserted, updated: t.updated, unchanged: t.unchanged, pages: t.pages }, 'tariff done');
  }
  const optionalPresent = streams.flatMap((stream) => {
    const resource = optionalResourceOf(stream.kind);
    return resource === undefined || outcomes.stopped(stream) ? [] : [{ tariff: stream.target.tariffCode, resource }];
  });
  return {
    optionalPresent,
    inserted: sum(tariffs, 'inserted'), updated: sum(tariffs, 'updated'), unchanged: sum(tariffs, 'unchanged'),
    pages: sum(tariffs, 'pages'), requests: client.http.requestCount - requestsBefore, tariffs,
    interrupted: signal.aborted,
  };
}

function rateBatchOf(batch: StreamBatch, runId: number): RateBatch {
  return { tariffCode: batch.stream.target.tariffCode, kind: batch.stream.kind, runId, rates: batch.rates, window: batch.window };
}

function sum(rows: TariffOutcome[], key: 'inserted' | 'updated' | 'unchanged' | 'pages'): number {
  return rows.reduce((s, r) => s + r[key], 0);
}
