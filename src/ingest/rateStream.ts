// One stream of rates (a tariff's rate kind over its window) as batches to write, oldest first: the
// newest page is asked for first; what is older is fetched in one-page windows, a few at a time,
// and handed on in order, so that every commit leaves the stream's cursor without a gap.
import { anySignal } from '../abortSignals.js';
import type { OctopusClient } from '../api/OctopusClient.js';
import type { Page } from '../api/paginate.js';
import type { UnitRate } from '../api/schemas.js';
import { stagedRates, type RateKind, type StagedRates } from '../store/writeRates.js';
import { HALF_HOUR_MS } from '../time/index.js';
import { pageWindowMs, pageWindows, type Span, type Stream } from './planFetches.js';

export interface Progress {
  /** Records announced by a first page's `count`. */
  expect(records: number): void;
  advance(records: number): void;
  /** The work after the records (storing the last of them, publishing): named while it runs. */
  working?(what: string): void;
}

/** Rates of one stream over a window it covers completely (the cursor moves to it). */
export interface StreamBatch {
  stream: Stream;
  window: { from: Date; until: Date };
  rates: StagedRates;
  /** Pages these rates came in. */
  pages: number;
  /** What the stream's first page announced. */
  count: number;
}

export interface RateStreamOptions {
  client: OctopusClient;
  /** Aborted when the run stops or the stream's tariff fails. */
  signal: AbortSignal;
  /** Windows fetched ahead of the one handed on. */
  lookahead: number;
  progress?: Progress | undefined;
}

export async function* rateStream(stream: Stream, options: RateStreamOptions): AsyncGenerator<StreamBatch> {
  const { progress } = options;
  const pages = pagesOf(stream, stream, options);
  const first = (await pages.next()).value as Page<UnitRate>;
  const count = first.count;
  progress?.expect(count);
  progress?.advance(first.records.length);
  const newest = first.records;
  const staged = stagedRates(newest);
  const oldest = Math.min(...staged.from);
  if (!first.more || newest.length === 0 || oldest <= stream.from.getTime()) {
    // everything came in one page, or the rates are long: the rest follows `next`
    let pageCount = 1;
    for await (const page of pages) {
      newest.push(...page.records);
      pageCount++;
      progress?.advance(page.records.length);
    }
    const rates = stagedRates(newest);
    yield { stream, window: windowOf(stream.from, stream.to, rates), rates, pages: pageCount, count };
    return;
  }
  await pages.return(undefined);
  const newestBatch: StreamBatch = { stream, window: windowOf(new Date(oldest), stream.to, staged), rates: staged, pages: 1, count };
  const windows = pageWindows({ from: stream.from, to: new Date(oldest) }, pageWindowMs(staged));
  // each window fetched under its own signal: once one fails, the windows after it are abandoned
  const fetched: (Promise<{ rates: StagedRates; pages: number }> | undefined)[] = [];
  const stops: AbortController[] = [];
  let failedAt = Infinity;
  const abandonAfter = (i: number) => stops.slice(i + 1).forEach((stop) => stop.abort(new Error('stopped: an earlier window failed')));
  const start = (i: number) => {
    const stop = new AbortController();
    stops[i] = stop;
    const signal = anySignal([options.signal, stop.signal]);
    fetched[i] = collect(pagesOf(stream, windows[i]!, { ...options, signal: signal.signal }), progress).finally(() => signal.dispose());
    fetched[i]!.catch(() => {
      if (i >= failedAt) return;
      failedAt = i;
      abandonAfter(i);
    });
  };
  try {
    for (let i = 0; i < windows.length; i++) {
      const ahead = Math.min(windows.length, i + 1 + options.lookahead, failedAt + 1);
      for (let j = fetched.length; j < ahead; j++) start(j);
      const { rates, pages: pageCount } = await fetched[i]!;
      fetched[i] = undefined; // not kept while the stream goes on
      yield { stream, window: { from: windows[i]!.from, until: windows[i]!.to! }, rates, pages: pageCount, count };
    }
  } finally {
    abandonAfter(-1); // the consumer stopped, or a window failed: nothing fetched ahead is wanted
  }
  yield newestBatch;
}

function pagesOf(stream: Stream, window: Span, options: RateStreamOptions): AsyncGenerator<Page<UnitRate>> {
  const { target, kind } = stream;
  const period = window.to === undefined ? { from: window.from } : { from: window.from, to: window.to };
  return options.client.tariffRates(target.fuel, target.productCode, target.tariffCode, endpointOf(target.fuel, kind), period, {
    signal: options.signal,
  });
}

/** A window's rates, staged at once: the parsed records are garbage while they are young. */
async function collect(pages: AsyncGenerator<Page<UnitRate>>, progress: Progress | undefined): Promise<{ rates: StagedRates; pages: number }> {
  const rates: UnitRate[] = [];
  let count = 0;
  for await (const page of pages) {
    rates.push(...page.records);
    count++;
    progress?.advance(page.records.length);
  }
  return { rates: stagedRates(rates), pages: count };
}

/** [from, to), or without `to` up to the end of the latest rate (an open-ended one counting as a
 *  half-hour), never before `from`. */
function windowOf(from: Date, to: Date | undefined, rates: StagedRates): { from: Date; until: Date } {
  if (to !== undefined) return { from, until: to };
  let end = from.getTime();
  rates.from.forEach((start, i) => {
    end = Math.max(end, rates.to[i] ?? start + HALF_HOUR_MS);
  });
  return { from, until: new Date(end) };
}

function endpointOf(fuel: 'electricity' | 'gas', kind: RateKind): 'standard-unit-rates' | 'day-unit-rates' | 'night-unit-rates' | 'standing-charges' {
  if (kind === 'standing_charge') return 'standing-charges';
  if (fuel === 'gas') return 'standard-unit-rates';
  return kind === 'day' ? 'day-unit-rates' : kind === 'night' ? 'night-unit-rates' : 'standard-unit-rates';
}
