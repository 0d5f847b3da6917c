// Fetched rates held as columns of numbers (epoch milliseconds, prices) rather than one object per
// half-hour: a backfill keeps several chunks of thousands of rates in memory while they wait for
// the writer, and plain number arrays cost a fraction of the objects and none of their garbage.
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
    readonly validFrom: number[] = [],
    /** NaN: open-ended. */
    readonly validTo: number[] = [],
    readonly valueExcVat: number[] = [],
    readonly valueIncVat: number[] = [],
    readonly paymentMethod: (string | null)[] = [],
  ) {}

  static of(rates: readonly RateRecord[]): RateColumns {
    const columns = new RateColumns();
    columns.pushAll(rates);
    return columns;
  }

  /** These columns one after another, in this order. */
  static concat(parts: readonly RateColumns[]): RateColumns {
    if (parts.length === 1) return parts[0]!;
    const joined = <T>(column: (part: RateColumns) => T[]): T[] => ([] as T[]).concat(...parts.map(column));
    return new RateColumns(joined((p) => p.validFrom), joined((p) => p.validTo), joined((p) => p.valueExcVat),
      joined((p) => p.valueIncVat), joined((p) => p.paymentMethod));
  }

  get length(): number {
    return this.validFrom.length;
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
      this.validFrom.push(parse(r.valid_from));
      this.validTo.push(to);
      this.valueExcVat.push(r.value_exc_vat);
      this.valueIncVat.push(r.value_inc_vat);
      this.paymentMethod.push(r.payment_method ?? null);
    }
  }

  /** The rows at these positions, in this order. */
  pick(indexes: readonly number[]): RateColumns {
    const at = <T>(column: T[]): T[] => indexes.map((i) => column[i]!);
    return new RateColumns(at(this.validFrom), at(this.validTo), at(this.valueExcVat), at(this.valueIncVat), at(this.paymentMethod));
  }

  /** The `count` oldest rates apart from the rest, when the rates run strictly newest first (as
 *  pages come) so that one instant divides them; else undefined. */
  splitOldest(count: number): { older: RateColumns; newer: RateColumns } | undefined {
    if (count <= 0 || count >= this.length || !this.strictlyMonotonic() || !(this.validFrom[1]! < this.validFrom[0]!)) return undefined;
    const cut = this.length - count;
    return { older: this.slice(cut, this.length), newer: this.slice(0, cut) };
  }

  private slice(start: number, end: number): RateColumns {
    return new RateColumns(this.validFrom.slice(start, end), this.validTo.slice(start, end),
      this.valueExcVat.slice(start, end), this.valueIncVat.slice(start, end), this.paymentMethod.slice(start, end));
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
