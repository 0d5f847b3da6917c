// One tariff's rates of one kind (unit rates, standing charges…), sorted once by valid_from and
// kept in typed columns, so a page for any period filter is two binary searches and a slice.
import { ERROR_CODES, TariffsError } from '../errors.js';

/** A rate as callers hand it in (addTariff) or recorded pages hold it. */
export interface RateInput {
  value_exc_vat: number;
  value_inc_vat: number;
  valid_from: string | Date | number;
  valid_to: string | Date | number | null;
  payment_method?: string | null;
}

/** A rate as the API returns it. */
export interface RateRecord {
  value_exc_vat: number;
  value_inc_vat: number;
  valid_from: string;
  valid_to: string | null;
  payment_method: string | null;
}

/** Columns of a series; `to` holds Infinity for an open-ended rate (valid_to null). */
export interface RateColumns {
  from: Float64Array;
  to: Float64Array;
  exc: Float64Array;
  inc: Float64Array;
  /** Payment method per row; undefined when every row has null. */
  paymentMethod?: (string | null)[];
}

/** The rates a query selects, addressed newest first. */
export interface RateSelection {
  count: number;
  /** Row index of the k-th newest selected rate (0 = newest). */
  indexAt(k: number): number;
}

export class RateSeries {
  readonly length: number;
  private readonly cols: RateColumns;
  /** True when valid_to never decreases along valid_from order: the overlap test is then a binary search. */
  private readonly monotonicTo: boolean;

  private constructor(cols: RateColumns) {
    this.cols = cols;
    this.length = cols.from.length;
    let monotonic = true;
    for (let i = 1; i < this.length && monotonic; i++) {
      if (cols.to[i]! < cols.to[i - 1]!) monotonic = false;
    }
    this.monotonicTo = monotonic;
  }

  /**
   * Columns already in ascending valid_from order (checked). Rows that share a valid_from come out
   * of pages in reverse column order.
   */
  static fromSortedColumns(cols: RateColumns): RateSeries {
    for (let i = 1; i < cols.from.length; i++) {
      if (!(cols.from[i]! >= cols.from[i - 1]!)) {
        throw new TariffsError(ERROR_CODES.SANDBOX_DATA, `rates not in valid_from order at row ${i}`);
      }
    }
    return new RateSeries(cols);
  }

  /** Any order in; rows sharing a valid_from keep their input order in the newest-first pages. */
  static fromRecords(records: readonly RateInput[]): RateSeries {
    const n = records.length;
    const from = new Float64Array(n);
    const to = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const r = records[i]!;
      from[i] = toMs(r.valid_from, i, 'valid_from');
      to[i] = r.valid_to === null ? Infinity : toMs(r.valid_to, i, 'valid_to');
      if (!(to[i]! > from[i]!)) {
        throw new TariffsError(ERROR_CODES.SANDBOX_DATA, `rate ${i}: valid_to is not after valid_from`);
      }
      if (!Number.isFinite(r.value_exc_vat) || !Number.isFinite(r.value_inc_vat)) {
        throw new TariffsError(ERROR_CODES.SANDBOX_DATA, `rate ${i}: value_exc_vat/value_inc_vat must be finite numbers`);
      }
    }
    // Ascending valid_from; ties in descending input order, so newest-first output restores input order.
    let order: Uint32Array;
    let ascending = true;
    let descending = true;
    for (let i = 1; i < n; i++) {
      if (from[i]! < from[i - 1]!) ascending = false;
      if (from[i]! > from[i - 1]!) descending = false;
    }
    order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    if (descending) order.reverse();
    else if (!ascending || hasTies(from)) {
      order.sort((a, b) => from[a]! - from[b]! || b - a);
    }
    const cols: RateColumns = {
      from: new Float64Array(n),
      to: new Float64Array(n),
      exc: new Float64Array(n),
      inc: new Float64Array(n),
    };
    const methods: (string | null)[] = new Array<string | null>(n);
    let anyMethod = false;
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      const r = records[i]!;
      cols.from[k] = from[i]!;
      cols.to[k] = to[i]!;
      cols.exc[k] = r.value_exc_vat;
      cols.inc[k] = r.value_inc_vat;
      methods[k] = r.payment_method ?? null;
      if (methods[k] !== null) anyMethod = true;
    }
    if (anyMethod) cols.paymentMethod = methods;
    return new RateSeries(cols);
  }

  /**
   * Rates whose validity overlaps [periodFrom, periodTo) (either end open when undefined) and that
   * start before visibleUntil (rates not yet published are invisible).
   */
  select(periodFrom?: number, periodTo?: number, visibleUntil?: number): RateSelection {
    const { from, to } = this.cols;
    let hi = this.length;
    if (periodTo !== undefined) hi = Math.min(hi, lowerBound(from, periodTo, 0, hi));
    if (visibleUntil !== undefined) hi = Math.min(hi, lowerBound(from, visibleUntil, 0, hi));
    if (periodFrom === undefined) return range(0, hi);
    if (this.monotonicTo) return range(upperBound(to, periodFrom, 0, hi), hi);
    const picked: number[] = [];
    for (let i = 0; i < hi; i++) if (to[i]! > periodFrom) picked.push(i);
    return { count: picked.length, indexAt: (k) => picked[picked.length - 1 - k]! };
  }

  record(i: number): RateRecord {
    const c = this.cols;
    const to = c.to[i]!;
    return {
      value_exc_vat: c.exc[i]!,
      value_inc_vat: c.inc[i]!,
      valid_from: isoUtc(c.from[i]!),
      valid_to: to === Infinity ? null : isoUtc(to),
      payment_method: c.paymentMethod?.[i] ?? null,
    };
  }

  /** Earliest valid_from and latest valid_from, as ms (undefined when empty). */
  span(): { first: number; last: number } | undefined {
    if (this.length === 0) return undefined;
    return { first: this.cols.from[0]!, last: this.cols.from[this.length - 1]! };
  }
}

function range(lo: number, hi: number): RateSelection {
  const count = Math.max(0, hi - lo);
  return { count, indexAt: (k) => hi - 1 - k };
}

function hasTies(sorted: Float64Array): boolean {
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) return true;
  return false;
}

/** First index in [lo, hi) whose value is >= x. */
function lowerBound(a: Float64Array, x: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [lo, hi) whose value is > x. */
function upperBound(a: Float64Array, x: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function toMs(value: string | Date | number, row: number, field: string): number {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : value.getTime();
  if (!Number.isFinite(ms)) throw new TariffsError(ERROR_CODES.SANDBOX_DATA, `rate ${row}: ${field} '${String(value)}' is not a datetime`);
  return ms;
}

/** `2020-01-01T00:00:00Z`, the API's UTC format (milliseconds only when there are any). */
export function isoUtc(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}
