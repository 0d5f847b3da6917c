// The one pagination loop: follows `next` exactly as given, validates every record, and holds the
// stopping rules in one place — a `next` on another origin is refused (credentials must never go
// elsewhere), a repeated `next` is a loop, and the records seen must add up to `count`.
import type { BodyScanner, Credentials, HttpClient, ScannedResponse } from './HttpClient.js';
import { RateColumns } from '../rates/RateColumns.js';
import { scanRatePage, type ScannedRatePage } from './scanRatePage.js';
import {
  CountMismatchError, ForeignNextUrlError, InvalidResponseError, PaginationLoopError, RecordValidationError,
} from './errors.js';
import { issuePath, pageEnvelopeSchema, type PageEnvelope, type RecordSchema, type UnitRate } from './schemas.js';
import { redactUrl } from './urls.js';

export const PAGE_SIZE = 1500;

export interface Page<T> {
  /** 0-based position of this page in the walk. */
  index: number;
  url: URL;
  count: number;
  records: T[];
  /** Attempts this page took (1 when nothing was retried). */
  attempts: number;
}

export interface PaginateOptions {
  credentials?: Credentials;
  /** Ask for this many records a page (the server may ignore it); null sends no page_size. */
  pageSize?: number | null;
  signal?: AbortSignal;
}

export async function* paginate<T>(
  http: HttpClient,
  first: URL,
  recordSchema: RecordSchema<T>,
  options: PaginateOptions = {},
): AsyncGenerator<Page<T>> {
  for await (const page of walk(http, first, options, undefined, (response, context) => readRecords(response.json, recordSchema, context))) {
    yield { index: page.index, url: page.url, count: page.count, records: page.items, attempts: page.attempts };
  }
}

/** A page of rates as columns (see scanRatePage). */
export interface RatePage {
  index: number;
  url: URL;
  count: number;
  rates: RateColumns;
  attempts: number;
}

/** paginate for rates: each page read from its bytes into columns when it is in the supplier's
 *  plain form, else parsed and validated record by record with `recordSchema` as paginate does
 *  (the same pages accepted, the same values, the same errors). */
export async function* paginateRates(
  http: HttpClient,
  first: URL,
  recordSchema: RecordSchema<UnitRate>,
  options: PaginateOptions = {},
): AsyncGenerator<RatePage> {
  const read = (response: ScannedResponse<ScannedRatePage>, context: PageContext) => {
    const scanned = response.scanned;
    if (scanned !== undefined) return { count: scanned.count, next: scanned.next, items: () => scanned.rates };
    const page = readRecords(response.json, recordSchema, context);
    return { ...page, items: () => RateColumns.of(page.items()) };
  };
  for await (const page of walk(http, first, options, scanRatePage, read)) {
    yield { index: page.index, url: page.url, count: page.count, rates: page.items, attempts: page.attempts };
  }
}

type PageContext = { method: string; url: string; attempts: number };

/** The one pagination loop: pages read by `read` (from a body `scan` read, or else its JSON). */
async function* walk<S, I extends { length: number }>(
  http: HttpClient,
  first: URL,
  options: PaginateOptions,
  scan: BodyScanner<S> | undefined,
  read: (response: ScannedResponse<S>, context: PageContext) => { count: number; next: string | null; items: () => I },
): AsyncGenerator<{ index: number; url: URL; count: number; items: I; attempts: number }> {
  let url = new URL(first);
  const pageSize = options.pageSize === undefined ? PAGE_SIZE : options.pageSize;
  if (pageSize !== null && !url.searchParams.has('page_size')) url.searchParams.set('page_size', String(pageSize));
  const origin = url.origin;
  const visited = new Set<string>([url.href]);
  let expected: number | undefined;
  let seen = 0;
  for (let index = 0; ; index++) {
    const request = { credentials: options.credentials, signal: options.signal };
    const response: ScannedResponse<S> = scan
      ? await http.getScanned(url, scan, request)
      : { ...await http.getJson(url, request), scanned: undefined };
    const context = { method: 'GET', url: redactUrl(url), attempts: response.attempts };
    const page = read(response, context);
    const { count, next } = page;
    if (expected === undefined) expected = count;
    else if (count !== expected) throw new CountMismatchError(expected, count, context);
    const items = page.items();
    seen += items.length;
    yield { index, url, count, items, attempts: response.attempts };
    if (next === null) break;
    let nextUrl: URL;
    try {
      nextUrl = new URL(next, url);
    } catch {
      throw new InvalidResponseError(`'next' is not a URL: ${next}`, context);
    }
    if (nextUrl.origin !== origin) throw new ForeignNextUrlError(redactUrl(nextUrl), context);
    if (visited.has(nextUrl.href)) throw new PaginationLoopError(redactUrl(nextUrl), context);
    visited.add(nextUrl.href);
    url = nextUrl;
  }
  if (seen !== expected) {
    throw new CountMismatchError(expected ?? 0, seen, { method: 'GET', url: redactUrl(url) });
  }
}

/** A page's envelope, validated, and its records to validate (after the count is checked): the
 *  first invalid one named by field and index. */
function readRecords<T>(json: unknown, recordSchema: RecordSchema<T>, context: PageContext): { count: number; next: string | null; items: () => T[] } {
  const envelope = plainEnvelope(json) ?? pageEnvelopeSchema.safeParse(json);
  if (!envelope.success) {
    const issue = envelope.error.issues[0]!;
    throw new RecordValidationError(issuePath(issue), issue.message, undefined, context);
  }
  const { count, next, results } = envelope.data;
  return { count, next, items: () => validRecords(results, recordSchema, context) };
}

function validRecords<T>(results: unknown[], recordSchema: RecordSchema<T>, context: PageContext): T[] {
  const records = new Array<T>(results.length);
  for (let i = 0; i < results.length; i++) {
    const parsed = recordSchema.safeParse(results[i]);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new RecordValidationError(issuePath(issue), issue.message, i, context);
    }
    records[i] = parsed.data;
  }
  return records;
}

/** The envelope as parsed when it is plainly valid (zod would copy its 1,500 results to check
 *  that each is `unknown`); undefined for zod to accept or to name the field. */
function plainEnvelope(json: unknown): { success: true; data: PageEnvelope } | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const e = json as Record<string, unknown>;
  const ok = typeof e.count === 'number' && Number.isSafeInteger(e.count) && e.count >= 0
    && (e.next === null || typeof e.next === 'string') && (e.previous === null || typeof e.previous === 'string')
    && Array.isArray(e.results);
  return ok ? { success: true, data: e as PageEnvelope } : undefined;
}
