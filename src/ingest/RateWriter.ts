// The writer of a run's fetched rates: one connection, batches committed in the order they are
// queued (a chunk is queued only once the previous chunk of its stream is, so each stream commits
// in order). While rates come faster than a row group gathers, it commits them in transactions of
// whole row groups, because DuckDB writes the rows of a transaction that holds a row group
// straight into the file, compressed, where fewer go through the WAL and are compressed again by
// a checkpoint: a backfill of 14 tariffs spent 1.2 s committing groups of 36,000 rates, and 0.06 s
// committing row groups. (Such rows become row groups of their own, after the table's last one
// however full that is; the ingest's session keeps checkpoints from merging them: see runIngest.)
// When rates come more slowly (fetching waits on the network), gathering would only put off to
// the end of the run commits that go through the WAL anyway: then what waits is committed a few
// pages at a time, and checkpointed between commits. A group that fails is written batch by
// batch, so that a bad batch fails only its own tariff. Fetching goes on meanwhile, pausing while
// MAX_QUEUED_ROWS fetched rates wait.
import type { Logger } from 'pino';
import type { RateColumns } from '../rates/RateColumns.js';
import type { Warehouse } from '../store/Warehouse.js';
import { writeRateBatch, writeRateBatches, type RateBatch, type RateKind, type WriteCounts } from '../store/writeRates.js';

/** DuckDB's row group: the rows a transaction must hold for them to skip the WAL. */
export const ROW_GROUP_ROWS = 122_880;
/** Rows wait at most this long for a row group to gather (a run cut short keeps what it fetched). */
const MAX_GATHER_MS = 500;
/** The pace of fetching is measured over this much of the recent past (see worthWaiting). */
const RATE_WINDOW_MS = 250;
/** When no row group will gather, rates still wait this long, so that a commit holds a few pages. */
const SLOW_GATHER_MS = 100;
/** Rates committed in one transaction, at most (unless a single batch is larger). */
export const MAX_GROUP_ROWS = 2 * ROW_GROUP_ROWS;
/** Fetched rates not yet written, at most (bounds memory: a rate is five numbers). */
const MAX_QUEUED_ROWS = 3 * ROW_GROUP_ROWS;

/** What the writer needs of a chunk: whose rates, over which window, and whether it is the first
 *  chunk of a backfill (the run's first commit is hurried: see FIRST_CHUNK_SLOTS). */
export interface WriterChunk {
  target: { tariffCode: string };
  kind: RateKind;
  from: Date;
  to: Date | undefined;
  urgent: boolean;
}

/** Fetched rates waiting for the writer: a chunk, or the part of it not yet written (its older
 *  part went into a group of whole row groups), with the window that part covers. */
export interface Pending<C extends WriterChunk = WriterChunk> {
  chunk: C;
  rates: RateColumns;
  queuedAt: number;
  from?: Date;
  until?: Date;
}

export interface RateWriterOptions<C extends WriterChunk> {
  warehouse: Warehouse;
  logger: Logger;
  runId: number;
  signal?: AbortSignal;
  /** Whether a chunk may still be written (the run goes on, every earlier chunk of its stream was). */
  writable(chunk: C): boolean;
  written(chunk: C, counts: WriteCounts): void;
  failed(chunk: C, error: unknown): void;
}

export class RateWriter<C extends WriterChunk> {
  private readonly pending: Pending<C>[] = [];
  private pendingRows = 0;
  /** Rates fetched but waiting for an earlier chunk of their stream (they count against the queue). */
  private held = 0;
  /** No more will be fetched: whatever waits is written without gathering. */
  private finished = false;
  /** Only the run's first commit is hurried: each small commit goes through the WAL, and the
   *  checkpoint that ends the run pays for them (14 of them: 0.6 s of a 4 s backfill). */
  private committed = false;
  private writing: Promise<void> | undefined;
  private gatherWake: (() => void) | undefined;
  private spaceWaiters: (() => void)[] = [];
  /** Rates queued lately (the last RATE_WINDOW_MS), to tell whether a row group will gather in time. */
  private readonly arrivals: { at: number; rows: number }[] = [];
  private firstArrival = Number.NaN;

  constructor(private readonly options: RateWriterOptions<C>) {}

  write(chunk: C, rates: RateColumns): void {
    const now = performance.now();
    this.pending.push({ chunk, rates, queuedAt: now });
    this.pendingRows += rates.length;
    this.arrivals.push({ at: now, rows: rates.length });
    if (Number.isNaN(this.firstArrival)) this.firstArrival = now;
    this.forgetArrivals(now);
    this.start();
    this.gatherWake?.();
  }

  /** Rates fetched that will be written once their predecessor is (or dropped): `rows` < 0 releases. */
  hold(rows: number): void {
    this.held += rows;
    if (rows < 0) this.notifySpace();
  }

  /** Resolves once the queue has room for more fetching. */
  async waitForSpace(): Promise<void> {
    while (this.pendingRows + this.held >= MAX_QUEUED_ROWS) await new Promise<void>((resolve) => this.spaceWaiters.push(resolve));
  }

  /** No more requests will be sent (the last may be under way): what waits, and what they
   *  bring, is written as it comes. */
  finish(): void {
    this.finished = true;
    this.gatherWake?.();
  }

  /** Resolves once everything queued is written (or dropped). */
  async drained(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private start(): void {
    if (this.writing) return;
    this.writing = this.drain().finally(() => {
      this.writing = undefined;
      if (this.pending.length > 0) this.start(); // queued as the loop ended
    });
  }

  private stopping(): boolean {
    return this.options.signal?.aborted === true;
  }

  private enough(): boolean {
    return this.finished || this.stopping() || this.pendingRows >= ROW_GROUP_ROWS;
  }

  /** Whether a row group may still gather in time: the rates waiting and held, and those the
   *  recent pace of fetching brings in MAX_GATHER_MS, make one (until the pace is known, it may).
   *  When they do not, fetching waits on the network rather than the CPU, and gathering would only
   *  put off a commit that goes through the WAL anyway, to the end of the run. */
  private worthWaiting(): boolean {
    const now = performance.now();
    if (now - this.firstArrival < RATE_WINDOW_MS) return true;
    this.forgetArrivals(now);
    const recent = this.arrivals.reduce((n, a) => n + a.rows, 0);
    return this.pendingRows + this.held + (recent / RATE_WINDOW_MS) * MAX_GATHER_MS >= ROW_GROUP_ROWS;
  }

  private forgetArrivals(now: number): void {
    while (this.arrivals.length > 0 && this.arrivals[0]!.at < now - RATE_WINDOW_MS) this.arrivals.shift();
  }

  private urgent(): boolean {
    return !this.committed && this.pending.some((item) => item.chunk.urgent);
  }

  /** Waits for whole row groups ('group') for up to MAX_GATHER_MS while one may gather, else for
   *  SLOW_GATHER_MS ('slow': then what waits is written as it is); 'first' when only the run's first
   *  chunk is to be written, alone. */
  private async gathered(): Promise<'group' | 'slow' | 'first'> {
    if (!this.enough() && !this.urgent()) {
      await new Promise<void>((resolve) => {
        let timer: NodeJS.Timeout | undefined;
        const done = () => {
          clearTimeout(timer);
          this.gatherWake = undefined;
          resolve();
        };
        const schedule = () => {
          const left = this.pending[0]!.queuedAt + (this.worthWaiting() ? MAX_GATHER_MS : SLOW_GATHER_MS) - performance.now();
          clearTimeout(timer);
          if (left <= 0) done();
          else timer = setTimeout(done, left);
        };
        this.gatherWake = () => (this.enough() || this.urgent() ? done() : schedule());
        schedule();
      });
    }
    if (this.enough()) return 'group';
    return this.urgent() ? 'first' : 'slow';
  }

  private async drain(): Promise<void> {
    const { pending, options } = this;
    while (pending.length > 0) {
      let taken: Pending<C>[];
      const gathered = await this.gathered();
      if (gathered !== 'first') {
        // whole row groups of unit rates while more is coming; what waits as it is when no row
        // group will gather, or at the end
        taken = takeGroup(pending, !this.finished && !this.stopping() && this.pendingRows >= ROW_GROUP_ROWS);
      } else {
        // a stream's first chunk, alone (nothing of its stream comes before it): the rest gathers on
        const first = pending.findIndex((item) => item.chunk.urgent);
        taken = pending.splice(first, 1);
      }
      this.pendingRows -= taken.reduce((n, item) => n + item.rates.length, 0);
      const group = taken.filter((item) => options.writable(item.chunk));
      this.notifySpace();
      if (group.length === 0) continue;
      const started = performance.now();
      try {
        const counts = await writeRateBatches(options.warehouse, group.map((item) => this.batchOf(item)));
        group.forEach((item, i) => options.written(item.chunk, counts[i]!));
        this.committed = true;
      } catch (groupError) {
        if (group.length === 1) {
          options.failed(group[0]!.chunk, groupError);
        } else {
          for (const item of group) {
            if (!options.writable(item.chunk)) continue;
            try {
              options.written(item.chunk, await writeRateBatch(options.warehouse, this.batchOf(item)));
            } catch (error) {
              options.failed(item.chunk, error);
            }
          }
        }
      }
      options.logger.debug({
        batches: group.length, rows: group.reduce((n, item) => n + item.rates.length, 0), ms: Math.round(performance.now() - started),
        kinds: [...new Set(group.map((item) => item.chunk.kind))],
      }, 'batches written');
      // What went through the WAL goes into the file while more is fetched, so that the run's
      // final CHECKPOINT has only the last rates to write.
      if (gathered === 'slow' && !this.finished && !this.stopping()) {
        try {
          await options.warehouse.checkpoint();
        } catch (error) {
          // committed, so kept (the WAL is replayed on the next open), but DuckDB writes no more
          // (a full disk, say): these tariffs fail naming why, and no later chunk of theirs is written
          for (const item of group) options.failed(item.chunk, error);
        }
      }
    }
  }

  private batchOf(item: Pending<C>): RateBatch {
    const from = item.from ?? item.chunk.from;
    const until = item.until ?? item.chunk.to ?? new Date(item.rates.endOfLatest(from.getTime()));
    return { tariffCode: item.chunk.target.tariffCode, kind: item.chunk.kind, runId: this.options.runId, rates: item.rates, window: { from, until } };
  }

  private notifySpace(): void {
    const released = this.spaceWaiters;
    this.spaceWaiters = [];
    for (const wake of released) wake();
  }
}

const isUnit = (item: Pending) => item.chunk.kind !== 'standing_charge';

/** The next group from the head of `pending` (removed from it): up to MAX_GROUP_ROWS rates, or
 *  when `aligned`, exactly whole row groups of unit rates, the last chunk taken cut in two at a
 *  rate's start if it must be (its newer part stays first in line). */
export function takeGroup<P extends Pending>(pending: P[], aligned: boolean): P[] {
  const unitRows = pending.reduce((n, item) => n + (isUnit(item) ? item.rates.length : 0), 0);
  const whole = Math.floor(Math.min(unitRows, MAX_GROUP_ROWS) / ROW_GROUP_ROWS) * ROW_GROUP_ROWS;
  if (whole === 0) aligned = false;
  const limit = aligned ? whole : MAX_GROUP_ROWS;
  const taken: P[] = [];
  let rows = 0;
  while (pending.length > 0) {
    const item = pending[0]!;
    const size = isUnit(item) ? item.rates.length : 0;
    if (rows + size <= limit || taken.length === 0 && !aligned) {
      taken.push(pending.shift()!);
      rows += size;
      continue;
    }
    const cut = aligned && rows < limit ? item.rates.splitOldest(limit - rows) : undefined;
    if (cut) {
      const boundary = new Date(cut.newer.startRange()!.earliest);
      taken.push({ ...item, rates: cut.older, until: boundary });
      pending[0] = { ...item, rates: cut.newer, from: boundary };
    }
    break;
  }
  return taken;
}
