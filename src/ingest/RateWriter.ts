// The writer of a run's fetched rates: one connection, batches committed in the order they are
// queued (a chunk is queued only once the previous chunk of its stream is, so each stream commits
// in order). It gathers what waits into transactions of whole row groups of unit rates, because
// DuckDB writes such rows straight into the file, compressed, where fewer go through the WAL and
// are compressed again by a checkpoint: a backfill of 14 tariffs spent 1.2 s committing groups of
// 36,000 rates, and 0.06 s committing row groups. A group that fails is written batch by batch, so
// that a bad batch fails only its own tariff. Fetching goes on meanwhile, pausing while
// MAX_QUEUED_ROWS fetched rates wait.
import type { Logger } from 'pino';
import type { RateColumns } from '../store/RateColumns.js';
import type { Warehouse } from '../store/Warehouse.js';
import { writeRateBatch, writeRateBatches, type RateBatch, type RateKind, type WriteCounts } from '../store/writeRates.js';

/** DuckDB's row group: the rows a transaction must hold for them to skip the WAL. */
export const ROW_GROUP_ROWS = 122_880;
/** Rows wait at most this long for a row group to gather (a run cut short keeps what it fetched). */
const MAX_GATHER_MS = 500;
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
  /** Rows in unit_rates as the run starts: groups are cut so that the table's rows fill whole
   *  row groups (see takeGroup). */
  storedUnitRows?: number;
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
  /** Rows in unit_rates past its last whole row group (this run's inserts counted in). */
  private tableOffset: number;
  private writing: Promise<void> | undefined;
  private gatherWake: (() => void) | undefined;
  private spaceWaiters: (() => void)[] = [];

  constructor(private readonly options: RateWriterOptions<C>) {
    this.tableOffset = (options.storedUnitRows ?? 0) % ROW_GROUP_ROWS;
  }

  write(chunk: C, rates: RateColumns): void {
    this.pending.push({ chunk, rates, queuedAt: performance.now() });
    this.pendingRows += rates.length;
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

  private urgent(): boolean {
    return !this.committed && this.pending.some((item) => item.chunk.urgent);
  }

  /** Waits for a group worth a commit (or for MAX_GATHER_MS); 'first' when only the run's first
   *  chunk is to be written, alone. */
  private async gathered(): Promise<'group' | 'first'> {
    const waited = performance.now() - this.pending[0]!.queuedAt;
    if (!this.enough() && !this.urgent() && waited < MAX_GATHER_MS) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.gatherWake = undefined;
          resolve();
        };
        const timer = setTimeout(done, MAX_GATHER_MS - waited);
        this.gatherWake = () => {
          if (this.enough() || this.urgent()) done();
        };
      });
    }
    return !this.enough() && this.urgent() ? 'first' : 'group';
  }

  private async drain(): Promise<void> {
    const { pending, options } = this;
    while (pending.length > 0) {
      let taken: Pending<C>[];
      if (await this.gathered() === 'group') {
        // whole row groups of unit rates while more is coming; what is left at the end as it is
        taken = takeGroup(pending, !this.finished && !this.stopping() && this.pendingRows >= ROW_GROUP_ROWS, this.tableOffset);
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
        group.forEach((item, i) => this.written(item, counts[i]!));
        this.committed = true;
      } catch (groupError) {
        if (group.length === 1) {
          options.failed(group[0]!.chunk, groupError);
        } else {
          for (const item of group) {
            if (!options.writable(item.chunk)) continue;
            try {
              this.written(item, await writeRateBatch(options.warehouse, this.batchOf(item)));
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
    }
  }

  /** A batch committed: counted into the table's offset, reported. */
  private written(item: Pending<C>, counts: WriteCounts): void {
    if (isUnit(item)) this.tableOffset = (this.tableOffset + counts.inserted) % ROW_GROUP_ROWS;
    this.options.written(item.chunk, counts);
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
 *  when `aligned`, exactly the unit rates that bring the table to whole row groups (`offset`: the
 *  rows it holds past its last whole one), the last chunk taken cut in two at a rate's start if it
 *  must be (its newer part stays first in line). A commit that leaves the table at a row group's
 *  edge is written straight into the file; one that starts inside a row group is not, and the
 *  next checkpoint rewrites it: a run's first commit of 1,500 rates, then two row groups, then
 *  60,000 more, cost a 160 ms checkpoint, against 1 ms when the second commit completed the first
 *  row group instead. */
export function takeGroup<P extends Pending>(pending: P[], aligned: boolean, offset = 0): P[] {
  const unitRows = pending.reduce((n, item) => n + (isUnit(item) ? item.rates.length : 0), 0);
  const first = (ROW_GROUP_ROWS - (offset % ROW_GROUP_ROWS)) % ROW_GROUP_ROWS;
  const cap = Math.min(unitRows, MAX_GROUP_ROWS);
  const whole = cap < first ? 0 : first + Math.floor((cap - first) / ROW_GROUP_ROWS) * ROW_GROUP_ROWS;
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
