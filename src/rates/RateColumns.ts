// Fetched rates held as columns of numbers (epoch milliseconds, prices) rather than one object per
// half-hour: a backfill keeps several chunks of thousands of rates in memory while they wait for
// the writer. The columns are Float64Arrays, whose numbers live outside V8's heap: chunks wait in
// the writer's queue long enough to outlive V8's young generation, and as plain arrays they were
// copied into the old one and left there as garbage until a full collection, which V8 puts off
// while its heap grows (the project used to force collections; it no longer reaches into V8).
// A 14-tariff backfill of 1,072,456 rates (bench/backfillOnce.ts, four runs each, alternated on
// one machine): peak RSS 340-360 MB with plain arrays, 301-318 MB with Float64Arrays; V8's heap
// at its largest 138-147 MB against 59-63 MB.
// They are what api/ reads from rate pages, ingest/ holds and store/ writes, so they live in none
// of those folders.
import { HALF_HOUR_MS } from '../time/index.js';
import { plainUtcMs } from '../time/plainUtc.js';

/** A rate as the supplier sends it (validated by api/schemas.ts, unitRateSchema). */
export interface RateRecord {
  value_exc_vat: number;
  value_inc_vat: number;
  valid_from: string;
  valid_to: string | null;
  payment_method?: string | null | undefined;
}

export class RateColumns {
  constructor(
    readonly validFrom: Float64Array = new Float64Array(0),
    /** NaN: open-ended. */
    readonly validTo: Float64Array = new Float64Array(0),
    readonly valueExcVat: Float64Array = new Float64Array(0),
    readonly valueIncVat: Float64Array = new Float64Array(0),
    readonly paymentMethod: (string | null)[] = [],
  ) {}

  static of(rates: readonly RateRecord[]): RateColumns {
    const page = new RatePageColumns();
    page.pushAll(rates);
    return page.columns();
  }

  /** These columns one after another, in this order. */
  static concat(parts: readonly RateColumns[]): RateColumns {
    if (parts.length === 1) return parts[0]!;
    const total = parts.reduce((n, part) => n + part.length, 0);
    const joined = (column: (part: RateColumns) => Float64Array): Float64Array => {
      const out = new Float64Array(total);
      let at = 0;
      for (const part of parts) {
        out.set(column(part), at);
        at += part.length;
      }
      return out;
    };
    const methods: (string | null)[] = [];
    for (const part of parts) for (const method of part.paymentMethod) methods.push(method);
    return new RateColumns(joined((p) => p.validFrom), joined((p) => p.validTo), joined((p) => p.valueExcVat),
      joined((p) => p.valueIncVat), methods);
  }

  get length(): number {
    return this.validFrom.length;
  }

  /** The rows at these positions, in this order. */
  pick(indexes: readonly number[]): RateColumns {
    const at = (column: Float64Array) => Float64Array.from(indexes, (i) => column[i]!);
    return new RateColumns(at(this.validFrom), at(this.validTo), at(this.valueExcVat), at(this.valueIncVat),
      indexes.map((i) => this.paymentMethod[i]!));
  }

  /** The `count` oldest rates apart from the rest, when the rates run strictly newest first (as
 *  pages come) so that one instant divides them; else undefined. */
  splitOldest(count: number): { older: RateColumns; newer: RateColumns } | undefined {
    if (count <= 0 || count >= this.length || !this.strictlyMonotonic() || !(this.validFrom[1]! < this.validFrom[0]!)) return undefined;
    const cut = this.length - count;
    return { older: this.slice(cut, this.length), newer: this.slice(0, cut) };
  }

  private slice(start: number, end: number): RateColumns {
    const part = (column: Float64Array) => column.slice(start, end);
    return new RateColumns(part(this.validFrom), part(this.validTo), part(this.valueExcVat), part(this.valueIncVat),
      this.paymentMethod.slice(start, end));
  }

  /** One row per (valid_from, payment_method); the last one seen wins. Usually returns itself. */
  deduped(): RateColumns {
    if (this.strictlyMonotonic()) return this; // pages in order: nothing can repeat
    const last = new Map<number | string, number>();
    for (let i = 0; i < this.length; i++) {
      const pm = this.paymentMethod[i];
      last.set(pm == null ? this.validFrom[i]! : `${this.validFrom[i]}|${pm}`, i);
    }
    if (last.size === this.length) return this;
    return this.pick([...last.values()].sort((a, b) => a - b));
  }

  private strictlyMonotonic(): boolean {
    const t = this.validFrom;
    if (t.length < 2) return true;
    const down = t[1]! < t[0]!;
    for (let i = 1; i < t.length; i++) {
      if (down ? !(t[i]! < t[i - 1]!) : !(t[i]! > t[i - 1]!)) return false;
    }
    return true;
  }

  /** Earliest and latest valid_from (ms); undefined when empty. */
  startRange(): { earliest: number; latest: number } | undefined {
    if (this.length === 0) return undefined;
    let earliest = Infinity;
    let latest = -Infinity;
    for (const t of this.validFrom) {
      if (t < earliest) earliest = t;
      if (t > latest) latest = t;
    }
    return { earliest, latest };
  }

  /** Where the coverage of these rates ends (ms): the latest valid_to, an open-ended rate counting
   *  as one half-hour; never before `floor`. */
  endOfLatest(floor: number): number {
    let end = floor;
    for (let i = 0; i < this.length; i++) {
      const to = this.validTo[i]!;
      const e = Number.isNaN(to) ? this.validFrom[i]! + HALF_HOUR_MS : to;
      if (e > end) end = e;
    }
    return end;
  }
}

/** The columns of one page as it is read, a rate at a time, into Float64Arrays that grow as needed
 *  (a page holds up to 1,500 rates). */
export class RatePageColumns {
  private validFrom: Float64Array = new Float64Array(PAGE_ROWS);
  private validTo: Float64Array = new Float64Array(PAGE_ROWS);
  private valueExcVat: Float64Array = new Float64Array(PAGE_ROWS);
  private valueIncVat: Float64Array = new Float64Array(PAGE_ROWS);
  private readonly paymentMethod: (string | null)[] = [];
  private count = 0;

  push(validFrom: number, validTo: number, valueExcVat: number, valueIncVat: number, paymentMethod: string | null): void {
    if (this.count === this.validFrom.length) {
      this.validFrom = grown(this.validFrom);
      this.validTo = grown(this.validTo);
      this.valueExcVat = grown(this.valueExcVat);
      this.valueIncVat = grown(this.valueIncVat);
    }
    this.validFrom[this.count] = validFrom;
    this.validTo[this.count] = validTo;
    this.valueExcVat[this.count] = valueExcVat;
    this.valueIncVat[this.count] = valueIncVat;
    this.paymentMethod.push(paymentMethod);
    this.count++;
  }

  pushAll(rates: readonly RateRecord[]): void {
    // Neighbouring rates share a boundary (newest first: one's valid_to is the next's valid_from
    // string), so each instant is parsed once.
    let lastText = '';
    let lastTime = Number.NaN;
    const parse = (text: string): number => {
      if (text !== lastText) {
        lastText = text;
        lastTime = plainUtcMs(text);
        if (Number.isNaN(lastTime)) lastTime = Date.parse(text);
      }
      return lastTime;
    };
    for (const r of rates) {
      const to = r.valid_to == null ? Number.NaN : parse(r.valid_to);
      this.push(parse(r.valid_from), to, r.value_exc_vat, r.value_inc_vat, r.payment_method ?? null);
    }
  }

  columns(): RateColumns {
    const read = (column: Float64Array) => column.subarray(0, this.count);
    return new RateColumns(read(this.validFrom), read(this.validTo), read(this.valueExcVat), read(this.valueIncVat), this.paymentMethod);
  }
}

/** The rates a page column holds before it must grow: the supplier's largest page. */
const PAGE_ROWS = 1500;

function grown(column: Float64Array): Float64Array {
  const larger = new Float64Array(column.length * 2);
  larger.set(column);
  return larger;
}
