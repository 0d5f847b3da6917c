// What the sandbox answers, before and after serialisation: replies of routes and faults, list
// pages in the API's pagination style, and writing a reply (whole or cut short by a fault).
import type { ServerResponse } from 'node:http';
import type { FaultSpec } from './faults.js';
import { readPage } from './queryParams.js';
import { REAL_BASE_URL } from './SandboxCatalog.js';

/** What a route answers, before faults and serialisation. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  /** A non-JSON body (HTML error pages of the fault kinds). */
  text?: string;
  contentType?: string;
  /** Links in the body point at the real host and must be rewritten to this sandbox's origin. */
  rewriteHosts?: boolean;
}

/** A reply serialised. */
export interface PreparedReply {
  status: number;
  headers: Record<string, string | number>;
  body: Buffer;
}

export const NOT_FOUND: Reply = { status: 404, json: { detail: 'Not found.' } };
const INVALID_PAGE: Reply = { status: 404, json: { detail: 'Invalid page.' } };

/** The Retry-After header a fault's retry_after or retry_after_date asks for (none: empty). */
export function retryAfterHeaders(fault: FaultSpec, now: Date): Record<string, string> {
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['Retry-After'] = String(fault.retryAfter);
  if (fault.retryAfterDate !== undefined) {
    headers['Retry-After'] = new Date(now.getTime() + fault.retryAfterDate * 1000).toUTCString();
  }
  return headers;
}

export function statusFault(fault: FaultSpec, now: Date): Reply {
  const headers = retryAfterHeaders(fault, now);
  const html = (title: string) => ({
    status: Number(fault.kind),
    headers,
    contentType: 'text/html',
    text: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n</body>\r\n</html>\r\n`,
  });
  switch (fault.kind) {
    case '429': {
      const wait = fault.retryAfter ?? fault.retryAfterDate ?? 60;
      return { status: 429, headers, json: { detail: `Request was throttled. Expected available in ${wait} seconds.` } };
    }
    case '500':
      return {
        status: 500,
        headers,
        contentType: 'text/html',
        text: '\n<!doctype html>\n<html lang="en">\n<head>\n  <title>Server Error (500)</title>\n</head>\n<body>\n  <h1>Server Error (500)</h1><p></p>\n</body>\n</html>\n',
      };
    case '502':
      return html('502 Bad Gateway');
    case '503':
      return { status: 503, headers, json: { detail: 'Service temporarily unavailable, try again later.' } };
    case 'blocked':
      // what an edge in front of the API sends (not DRF's JSON): the key is not what it refuses
      return fault.body === 'empty' ? { status: 403, headers, contentType: 'text/html', text: '' }
        : fault.body === 'json' ? { status: 403, headers, json: { message: 'Request blocked', reason: 'rate_limited' } }
          : { ...html('Request blocked'), status: 403 };
    default:
      return html('504 Gateway Time-out');
  }
}


/** A reply as the bytes and headers to send (links rewritten to `origin`, the sandbox as the client reached it). */
export function prepareReply(reply: Reply, origin: string): PreparedReply {
  let text: string;
  let contentType: string;
  if (reply.json !== undefined) {
    text = JSON.stringify(reply.json);
    if (reply.rewriteHosts) text = text.replaceAll(REAL_BASE_URL, `${origin}/v1/`);
    contentType = 'application/json';
  } else {
    text = reply.text ?? '';
    contentType = reply.contentType ?? 'text/plain; charset=utf-8';
  }
  return { status: reply.status, headers: { 'Content-Type': contentType, ...reply.headers }, body: Buffer.from(text, 'utf8') };
}


export function writeReply(res: ServerResponse, { status, headers, body }: PreparedReply, mode?: FaultSpec): void {
  const part = (fault: FaultSpec) => body.subarray(0, Math.min(fault.bytes ?? Math.floor(body.length / 2), Math.max(0, body.length - 1)));
  if (mode?.kind === 'truncate') {
    // No Content-Length: the response ends cleanly (chunked) and only the JSON is broken.
    res.writeHead(status, headers);
    res.end(part(mode));
    return;
  }
  if (mode?.kind === 'stall-body') {
    res.writeHead(status, { ...headers, 'Content-Length': body.length });
    res.write(part(mode));
    return;
  }
  res.writeHead(status, { ...headers, 'Content-Length': body.length });
  res.end(body);
}

/** One page of a list, DRF PageNumberPagination style: absolute next/previous keeping other params. */
export function paginate(url: URL, origin: string, count: number, size: number, item: (k: number) => unknown): Reply {
  const requested = readPage(url.searchParams);
  const lastPage = Math.max(1, Math.ceil(count / size));
  const page = requested === Infinity ? lastPage : requested;
  if (page === undefined || page > lastPage) return INVALID_PAGE;
  const start = (page - 1) * size;
  const end = Math.min(count, start + size);
  const results: unknown[] = [];
  for (let k = start; k < end; k++) results.push(item(k));
  return {
    status: 200,
    json: {
      count,
      next: page < lastPage ? pageUrl(url, origin, page + 1) : null,
      previous: page > 1 ? pageUrl(url, origin, page - 1) : null,
      results,
    },
  };
}

function pageUrl(url: URL, origin: string, page: number): string {
  const target = new URL(`${url.pathname}${url.search}`, origin);
  if (page === 1) target.searchParams.delete('page');
  else target.searchParams.set('page', String(page));
  return target.toString();
}

export function hasRecords(json: unknown): json is { results: unknown[] } {
  const results = (json as { results?: unknown } | undefined)?.results;
  return Array.isArray(results) && results.length > 0;
}

export function redirectToSlash(url: URL): Reply {
  return { status: 301, headers: { Location: `${url.origin}${url.pathname}/${url.search}` }, text: '' };
}

export function methodNotAllowed(method: string, allow: string): Reply {
  return { status: 405, headers: { Allow: allow }, json: { detail: `Method "${method}" not allowed.` } };
}
