// The bytes of response bodies read into buffers that are used again, for the bodies a scanner reads
// (scanRatePage.ts: a backfill's pages of rates, ~220 KB each). undici's body.arrayBuffer() gives
// each body a new buffer, joined from the socket's chunks: garbage that only a collection frees,
// and V8 collects seldom while the scanner makes few JavaScript objects. (a30753f forced
// collections through V8 flags set at run time; only public APIs are used now.) A backfill of 14
// tariffs (bench/backfillOnce.ts, 742 pages), three runs each: peak ArrayBuffers
// (process.memoryUsage()) 42-55 MB with a buffer a body, 30-48 MB with these. `npm run bench --
// --only=ingest` alternated with a30753f, three runs each: peak_rss_mb a30753f 297, 290, 289; a
// buffer a body 314, 330, 334; these 304, 295, 315 (medians against a30753f: 1.14x -> 1.05x). A
// second round: a30753f 310, 291, 286; these 327, 314, 319 (1.10x); the six of each, 1.08x.
// The contract: the bytes are valid until `release`; whoever reads them keeps copies, never views.

/** Buffers kept for later bodies, at most (one a request in flight: the ingest's concurrency). */
const KEPT = 16;
const FIRST_SIZE = 256 * 1024;
/** A buffer grown past this for an unusual body is left to the collector, not kept for the
 *  client's lifetime (a page of rates is ~220 KB). */
export const LARGEST_KEPT = 4 * 1024 * 1024;

export interface BorrowedBody {
  bytes: Uint8Array;
  /** The buffer goes back for another body: `bytes` must not be read after this. */
  release(): void;
}

export class BodyBuffers {
  private readonly free: Uint8Array[] = [];

  /** Reads the whole body into a free buffer (grown as needed). */
  async read(body: AsyncIterable<Uint8Array>): Promise<BorrowedBody> {
    let buffer = this.free.pop() ?? new Uint8Array(FIRST_SIZE);
    let length = 0;
    for await (const chunk of body) {
      if (length + chunk.length > buffer.length) {
        const grown = new Uint8Array(Math.max(buffer.length * 2, length + chunk.length));
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      buffer.set(chunk, length);
      length += chunk.length;
    }
    let released = false;
    return {
      bytes: buffer.subarray(0, length),
      release: () => {
        if (released) return;
        released = true;
        if (this.free.length < KEPT && buffer.length <= LARGEST_KEPT) this.free.push(buffer);
      },
    };
  }
}
