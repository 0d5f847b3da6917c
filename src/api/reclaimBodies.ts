// Response bodies are one string each, and a page of 1,500 rates is 200 KB: V8 puts such strings
// straight into its old generation, which only a full collection frees. A backfill reads pages
// faster than V8's heuristics collect them (they let the heap grow fourfold past what is live
// while collecting costs little): a 4-second backfill of 14 tariffs held 110 MB of dead bodies
// on top of 38 MB live, and its peak RSS went from 290 MB to 360 MB. So every BUDGET_BYTES of
// bodies read, a full collection is asked for (a few ms each, with little live): peak RSS back
// under 300 MB for about 0.1 s of a 3.7 s backfill (16 MB: 285 MB but 0.4 s; 48 MB: 315 MB).
// Rate pages are now read from their bytes (scanRatePage) and leave no body string, but their
// columns wait for the writer long enough to reach the old generation just the same: without the
// collections, the 14-tariff backfill's peak RSS was 354-362 MB; with them (bytes counted),
// 286-297 MB.
import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';

const BUDGET_BYTES = 24 * 2 ** 20;

let collect: (() => void) | undefined | null = null;
let sinceCollected = 0;

/** V8's collector, when it can be had: exposed by a flag that takes effect for new contexts. */
function collector(): (() => void) | undefined {
  if (collect === null) {
    try {
      const exposed = (globalThis as { gc?: () => void }).gc;
      if (exposed) collect = exposed;
      else {
        v8.setFlagsFromString('--expose-gc');
        collect = runInNewContext('gc') as () => void;
      }
    } catch {
      collect = undefined;
    }
  }
  return collect ?? undefined;
}

/** Counts a body just read; past the budget, collects the bodies read before it. */
export function bodyRead(length: number): void {
  sinceCollected += length;
  if (sinceCollected < BUDGET_BYTES) return;
  sinceCollected = 0;
  collector()?.();
}
