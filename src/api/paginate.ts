// The one pagination loop, with every stopping rule: follows `next` exactly as given; a `next` on
// another origin is refused (credentials must never go elsewhere), one that repeats a page is a
// loop, and the records seen must add up to `count`. Each page is JSON.parse'd and checked by zod.
import type { Credentials, HttpClient } from './HttpClient.js';
import {
  CountMismatchError, ForeignNextUrlError, InvalidResponseError, PaginationLoopError, RecordValidationError,
} from './errors.js';
import { issuePath, pageEnvelopeSchema, type RecordSchema } from './schemas.js';
import { redactUrl } from './urls.js';

export const PAGE_SIZE = 1500;

export interface Page<T> {
  /** 0-based position of this page in the walk. */
  index: number;
  url: URL;
  count: number;
  /** Whether a page follows this one. */
  more: boolean;
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

type PageContext = { method: string; url: string; attempts: number };

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
    const context: PageContext = { method: 'GET', url: redactUrl(url), attempts: response.attempts };
    const envelope = pageEnvelopeSchema.safeParse(response.json);
    if (!envelope.success) {
      const issue = envelope.error.issues[0]!;
      throw new RecordValidationError(issuePath(issue), issue.message, undefined, context);
    }
    const { count, next, results } = envelope.data;
    if (expected === undefined) expected = count;
    else if (count !== expected) throw new CountMismatchError(expected, count, context);
    seen += results.length;
    const records = results.map((record, i) => {
      const parsed = recordSchema.safeParse(record);
      if (parsed.success) return parsed.data;
      const issue = parsed.error.issues[0]!;
      throw new RecordValidationError(issuePath(issue), issue.message, i, context);
    });
    yield { index, url, count, more: next !== null, records, attempts: response.attempts };
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
  if (seen !== expected) throw new CountMismatchError(expected ?? 0, seen, { method: 'GET', url: redactUrl(url) });
}
