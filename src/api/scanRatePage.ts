// A page of rates read straight from the response's bytes into columns, with no string for the
// body and no object per record: a backfill reads a million rates, and decoding the body, JSON.parse
// and the objects it builds (then their garbage) cost more than everything else the ingest does on
// its main thread. Only the form the supplier sends is read here: the documented envelope and
// record fields, plain numbers, instants as `2024-03-31T01:00:00Z`, ASCII strings without escapes,
// the keys in any order. Anything else (an unknown key, an exponent, an offset, an escape, a missing
// field, a byte out of place) gives undefined, and the page goes the general way (JSON.parse, then
// zod) that accepts it or names its field and index exactly as before. So every page read here is
// one the general way reads the same, value for value.
import { RatePageColumns, type RateColumns } from '../rates/RateColumns.js';
import { DAY_MS, daysFromCivil, daysInMonth } from '../time/civil.js';

export interface ScannedRatePage {
  count: number;
  next: string | null;
  previous: string | null;
  rates: RateColumns;
}

const TAB = 9, LF = 10, CR = 13, SPACE = 32, QUOTE = 34, COMMA = 44, MINUS = 45, DOT = 46, ZERO = 48, NINE = 57;
const COLON = 58, LBRACKET = 91, BACKSLASH = 92, RBRACKET = 93, LBRACE = 123, RBRACE = 125;

/** Exact powers of ten: m / 10^k is correctly rounded (as JSON.parse is) for m < 2^53, k ≤ 22. */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

const keyBytes = (key: string) => Uint8Array.from(key, (c) => c.charCodeAt(0));
// envelope keys
const COUNT = keyBytes('count'), NEXT = keyBytes('next'), PREVIOUS = keyBytes('previous'), RESULTS = keyBytes('results');
// record keys
const EXC = keyBytes('value_exc_vat'), INC = keyBytes('value_inc_vat'), FROM = keyBytes('valid_from');
const TO = keyBytes('valid_to'), PAYMENT = keyBytes('payment_method');
const F_EXC = 1, F_INC = 2, F_FROM = 4, F_TO = 8, F_PAYMENT = 16;
const REQUIRED = F_EXC | F_INC | F_FROM | F_TO;

/** Thrown inside the scan for anything it does not read; caught once at the top. */
class NotPlain extends Error {}
const NOT_PLAIN = new NotPlain();

class Scanner {
  p = 0;
  /** The last payment method read, as bytes and as a string: pages repeat one or two. */
  private methodStart = -1;
  private methodEnd = -1;
  private method = '';

  constructor(private readonly b: Uint8Array) {}

  ws(): number {
    const b = this.b;
    let p = this.p;
    let c = b[p]!;
    while (c === SPACE || c === LF || c === CR || c === TAB) c = b[++p]!;
    this.p = p;
    return p < b.length ? c : -1;
  }

  expect(c: number): void {
    if (this.ws() !== c) throw NOT_PLAIN;
    this.p++;
  }

  /** After `{` or `,`: the next key's opening quote to its colon, consumed; which key it is.
   *  `guess` is tried first (keys come in the documented order). */
  key(candidates: readonly Uint8Array[], guess: number): number {
    if (this.ws() !== QUOTE) throw NOT_PLAIN;
    const b = this.b;
    const start = this.p + 1;
    const likely = candidates[guess];
    if (likely !== undefined && b[start + likely.length] === QUOTE) {
      let i = 0;
      while (i < likely.length && b[start + i] === likely[i]) i++;
      if (i === likely.length) {
        this.p = start + i + 1;
        this.expect(COLON);
        return guess;
      }
    }
    let end = start;
    while (end < b.length && b[end] !== QUOTE) end++;
    const length = end - start;
    this.p = end + 1;
    this.expect(COLON);
    search: for (let k = 0; k < candidates.length; k++) {
      const key = candidates[k]!;
      if (key.length !== length) continue;
      for (let i = 0; i < length; i++) if (b[start + i] !== key[i]) continue search;
      return k;
    }
    throw NOT_PLAIN; // a key we do not read (or one with an escape)
  }

  /** `null`, consumed: true; else false, nothing consumed. */
  isNull(): boolean {
    const b = this.b;
    const p = this.p;
    if (this.ws() === 110 && b[this.p + 1] === 117 && b[this.p + 2] === 108 && b[this.p + 3] === 108) {
      this.p += 4;
      return true;
    }
    this.p = p;
    return false;
  }

  /** A JSON number of at most 15 significant digits and no exponent. */
  number(): number {
    const b = this.b;
    this.ws();
    let p = this.p;
    let c = b[p]!;
    const negative = c === MINUS;
    if (negative) c = b[++p]!;
    if (!(c >= ZERO && c <= NINE)) throw NOT_PLAIN;
    let m = 0;
    let digits = 0;
    let fraction = 0;
    if (c === ZERO) {
      c = b[++p]!;
      if (c >= ZERO && c <= NINE) throw NOT_PLAIN; // a leading zero is not JSON
    } else {
      while (c >= ZERO && c <= NINE) {
        m = m * 10 + (c - ZERO);
        digits++;
        c = b[++p]!;
      }
    }
    if (c === DOT) {
      c = b[++p]!;
      if (!(c >= ZERO && c <= NINE)) throw NOT_PLAIN;
      while (c >= ZERO && c <= NINE) {
        m = m * 10 + (c - ZERO);
        digits++;
        fraction++;
        c = b[++p]!;
      }
    }
    if (c === 101 || c === 69 || digits > 15) throw NOT_PLAIN; // e/E, or too long to be exact here
    this.p = p;
    const value = fraction === 0 ? m : m / POW10[fraction]!;
    return negative ? -value : value;
  }

  /** `"YYYY-MM-DDTHH:MM:SSZ"` (a real date from year 1000, hours 00–23, minutes and seconds
   *  00–59) in epoch milliseconds. */
  instant(): number {
    const b = this.b;
    if (this.ws() !== QUOTE) throw NOT_PLAIN;
    const p = this.p + 1;
    if (b[p + 20] !== QUOTE || b[p + 4] !== MINUS || b[p + 7] !== MINUS || b[p + 10] !== 84
      || b[p + 13] !== COLON || b[p + 16] !== COLON || b[p + 19] !== 90) throw NOT_PLAIN;
    const year = this.digits(p, 4);
    const month = this.digits(p + 5, 2);
    const day = this.digits(p + 8, 2);
    const hour = this.digits(p + 11, 2);
    const minute = this.digits(p + 14, 2);
    const second = this.digits(p + 17, 2);
    if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)
      || hour > 23 || minute > 59 || second > 59) throw NOT_PLAIN;
    this.p = p + 21;
    return daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000;
  }

  private digits(at: number, count: number): number {
    const b = this.b;
    let value = 0;
    for (let i = at; i < at + count; i++) {
      const d = b[i]! - ZERO;
      if (!(d >= 0 && d <= 9)) throw NOT_PLAIN;
      value = value * 10 + d;
    }
    return value;
  }

  /** A string of printable ASCII without escapes. */
  string(): string {
    const [start, end] = this.stringSpan();
    return latin1(this.b, start, end);
  }

  /** A payment method: the previous one's string when the bytes are the same. */
  methodString(): string {
    const [start, end] = this.stringSpan();
    const b = this.b;
    if (end - start === this.methodEnd - this.methodStart) {
      let same = true;
      for (let i = 0; i < end - start; i++) {
        if (b[start + i] !== b[this.methodStart + i]) {
          same = false;
          break;
        }
      }
      if (same) return this.method;
    }
    this.methodStart = start;
    this.methodEnd = end;
    this.method = latin1(b, start, end);
    return this.method;
  }

  private stringSpan(): [number, number] {
    const b = this.b;
    if (this.ws() !== QUOTE) throw NOT_PLAIN;
    const start = this.p + 1;
    let p = start;
    let c = b[p]!;
    while (c !== QUOTE) {
      if (c < SPACE || c >= 127 || c === BACKSLASH || p >= b.length) throw NOT_PLAIN;
      c = b[++p]!;
    }
    this.p = p + 1;
    return [start, p];
  }

  /** The `results` array into `rates`. */
  results(rates: RatePageColumns): void {
    this.expect(LBRACKET);
    if (this.ws() === RBRACKET) {
      this.p++;
      return;
    }
    for (;;) {
      this.record(rates);
      const c = this.ws();
      this.p++;
      if (c === RBRACKET) return;
      if (c !== COMMA) throw NOT_PLAIN;
    }
  }

  private record(rates: RatePageColumns): void {
    this.expect(LBRACE);
    let seen = 0;
    let fields = 0;
    let exc = 0, inc = 0, from = 0, to = 0;
    let method: string | null = null;
    for (;;) {
      const k = this.key(RECORD_KEYS, fields++);
      const field = 1 << k;
      if (seen & field) throw NOT_PLAIN; // a repeated key: JSON.parse keeps the last one
      seen |= field;
      switch (field) {
        case F_EXC: exc = this.number(); break;
        case F_INC: inc = this.number(); break;
        case F_FROM: from = this.instant(); break;
        case F_TO: to = this.isNull() ? Number.NaN : this.instant(); break;
        default: method = this.isNull() ? null : this.methodString();
      }
      const c = this.ws();
      this.p++;
      if (c === RBRACE) break;
      if (c !== COMMA) throw NOT_PLAIN;
    }
    if ((seen & REQUIRED) !== REQUIRED) throw NOT_PLAIN;
    rates.push(from, to, exc, inc, method);
  }
}

const RECORD_KEYS = [EXC, INC, FROM, TO, PAYMENT];
const ENVELOPE_KEYS = [COUNT, NEXT, PREVIOUS, RESULTS];

/** The page in `bytes` (a response body) when it is in the supplier's plain form; else undefined. */
export function scanRatePage(bytes: Uint8Array): ScannedRatePage | undefined {
  const scanner = new Scanner(bytes);
  const rates = new RatePageColumns();
  let count = -1;
  let next: string | null = null;
  let previous: string | null = null;
  let seen = 0;
  let fields = 0;
  try {
    if (bytes[0] === 0xef) return undefined; // a byte-order mark: the general way skips it
    scanner.expect(LBRACE);
    for (;;) {
      const k = scanner.key(ENVELOPE_KEYS, fields++);
      if (seen & (1 << k)) return undefined;
      seen |= 1 << k;
      switch (k) {
        case 0: count = scanner.number(); break;
        case 1: next = scanner.isNull() ? null : scanner.string(); break;
        case 2: previous = scanner.isNull() ? null : scanner.string(); break;
        default: scanner.results(rates);
      }
      const c = scanner.ws();
      scanner.p++;
      if (c === RBRACE) break;
      if (c !== COMMA) return undefined;
    }
    if (scanner.ws() !== -1 || seen !== 15 || !(Number.isSafeInteger(count) && count >= 0)) return undefined;
  } catch (error) {
    if (error === NOT_PLAIN) return undefined;
    throw error;
  }
  return { count, next, previous, rates: rates.columns() };
}

function latin1(b: Uint8Array, start: number, end: number): string {
  return Buffer.from(b.buffer, b.byteOffset + start, end - start).toString('latin1');
}
