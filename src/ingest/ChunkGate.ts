// Which chunks of a stream may still be fetched, and which may be written, once something failed.
// A stream's chunks are numbered oldest first and committed in that order, each with the cursor.
// When chunk k fails, chunks 0…k−1 are good work: those still arriving are let through and written;
// everything from k on (and every chunk of the tariff's other streams not yet fetched) is dropped,
// and fetches already under way for them are aborted at once. A chunk is written only if every
// chunk before it in its stream was, so a cursor never passes a gap.
import { anySignal } from '../abortSignals.js';

/** The probe's request: before chunks are known; it never continues after a failure. */
export const PROBE_INDEX = Number.POSITIVE_INFINITY;

export class ChunkGate<S extends object> {
  /** The chunk a stream failed in (0 for a failed probe). */
  private readonly failedAt = new Map<S, number>();
  /** Chunks of a stream from this index on will not be written. */
  private readonly keepBelow = new Map<S, number>();
  private readonly inFlight = new Set<{ stream: S; index: number; controller: AbortController }>();

  /** @param stopped whether a stream's tariff (or optional resource) has been given up. */
  constructor(private readonly stopped: (stream: S) => boolean) {}

  mayFetch(stream: S, index: number): boolean {
    return !this.stopped(stream) || index < (this.failedAt.get(stream) ?? -1);
  }

  mayWrite(stream: S, index: number): boolean {
    return index < (this.keepBelow.get(stream) ?? PROBE_INDEX);
  }

  /** Chunk `index` of `stream` will not be written (skipped, aborted or failed): neither will later ones. */
  cut(stream: S, index: number): void {
    this.keepBelow.set(stream, Math.min(this.keepBelow.get(stream) ?? PROBE_INDEX, index));
  }

  /** Chunk `index` failed (after `stopped` has started to say so): keep what came before, abort the rest. */
  failed(stream: S, index: number): void {
    this.failedAt.set(stream, Math.min(this.failedAt.get(stream) ?? PROBE_INDEX, index));
    this.cut(stream, index);
    for (const fetch of this.inFlight) {
      if (!this.mayFetch(fetch.stream, fetch.index)) fetch.controller.abort(new Error('stopped: the tariff failed'));
    }
  }

  /** A fetch under way: its signal aborts when the run's does or when the gate stops the chunk. */
  track(stream: S, index: number, runSignal: AbortSignal | undefined): { signal: AbortSignal; done(): void } {
    const entry = { stream, index, controller: new AbortController() };
    this.inFlight.add(entry);
    const combined = anySignal([runSignal, entry.controller.signal]);
    return {
      signal: combined.signal,
      done: () => {
        this.inFlight.delete(entry);
        combined.dispose();
      },
    };
  }
}
