// The one pagination loop: follows `next` exactly as given, validates every record, and holds the
// stopping rules in one place — a `next` on another origin is refused (credentials must never go
// elsewhere), a repeated `next` is a loop, and the records seen must add up to `count`.
import type { Credentials, HttpClient } from './HttpClient.js';
import {
  CountMismatchError, ForeignNextUrlError, InvalidResponseError, PaginationLoopError, RecordValidationError,
} from './errors.js';
import { issuePath, pageEnvelopeSchema, type PageEnvelope, type RecordSchema } from './schemas.js';
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
  let url = new URL(first);
  const pageSize = options.pageSize === undefined ? PAGE_SIZE : options.pageSize;
  if (pageSize !== null && !url.searchParams.has('page_size')) url.searchParams.set('page_size', String(pageSize));
  const origin = url.origin;
  const visited = new Set<string>([url.href]);
  let expected: number | undefined;
  let seen = 0;
  for (let index = 0; ; index++) {
    const response = await http.getJson(url, { credentials: options.credentials, signal: options.signal });
    const context = { method: 'GET', url: redactUrl(url), attempts: response.attempts };
    const envelope = plainEnvelope(response.json) ?? pageEnvelopeSchema.safeParse(response.json);
    if (!envelope.success) {
      const issue = envelope.error.issues[0]!;
      throw new RecordValidationError(issuePath(issue), issue.message, undefined, context);
    }
    const { count, next, results } = envelope.data;
    if (expected === undefined) expected = count;
    else if (count !== expected) throw new CountMismatchError(expected, count, context);
    const records = new Array<T>(results.length);
    for (let i = 0; i < results.length; i++) {
      const parsed = recordSchema.safeParse(results[i]);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new RecordValidationError(issuePath(issue), issue.message, i, context);
      }
      records[i] = parsed.data;
    }
    seen += records.length;
    yield { index, url, count, records, attempts: response.attempts };
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
