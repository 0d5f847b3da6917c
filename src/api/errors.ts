// Errors of the platform client. Each kind has a stable `code`; every error carries the method,
// the URL with credentials removed, the HTTP status (if any) and how many attempts were made.
import { ERROR_CODES, TariffsError } from '../errors.js';

export interface ApiErrorContext {
  method: string;
  /** Already redacted: never contains credentials. */
  url: string;
  status?: number;
  attempts?: number;
  cause?: unknown;
}

export class ApiError extends TariffsError {
  override readonly name: string = 'ApiError';
  readonly method: string;
  readonly url: string;
  readonly status: number | undefined;
  readonly attempts: number | undefined;

  constructor(code: string, message: string, context: ApiErrorContext) {
    super(code, `${context.method} ${shortUrl(context.url)}: ${message}`, { cause: context.cause });
    this.method = context.method;
    this.url = context.url;
    this.status = context.status;
    this.attempts = context.attempts;
  }
}

/** Path and query only, as messages show them (`/v1/products/X/...?page=3`). */
function shortUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** A non-retryable status (or a retryable one when retries are off), e.g. 404. */
export class HttpStatusError extends ApiError {
  override readonly name = 'HttpStatusError';
  /** `meaning`: what the status means for the request, in words (an account not found). */
  constructor(context: ApiErrorContext & { status: number }, meaning?: string) {
    super(ERROR_CODES.HTTP_STATUS, `HTTP ${context.status}${meaning === undefined ? '' : `: ${meaning}`}`, context);
  }
}

/** 401/403, or a token that could not be obtained. */
export class AuthError extends ApiError {
  override readonly name = 'AuthError';
  constructor(message: string, context: ApiErrorContext) {
    super(ERROR_CODES.AUTH, message, context);
  }
}

/** A 403 that is not the API's JSON error (an edge's HTML "Request blocked" page, an empty body):
 *  the address is refused for a while or rate limited, the key is not at fault. Retried like a 429. */
export class BlockedError extends ApiError {
  override readonly name = 'BlockedError';
  /** The message without the method and URL, as summaries repeat it. */
  readonly reason: string;
  constructor(title: string, context: ApiErrorContext) {
    const reason = `the API is refusing requests from this address: ${context.status ?? 403} ${title}; retrying later`;
    super(ERROR_CODES.BLOCKED, reason, context);
    this.reason = reason;
  }
}

/** The supplier's 400 envelope: keeps its machine-readable `code` and each error's `attr`. */
export class ApiValidationError extends ApiError {
  override readonly name = 'ApiValidationError';
  readonly apiCode: string | undefined;
  readonly detail: string | undefined;
  readonly errors: { code?: string; attr?: string; detail?: string }[];

  constructor(
    envelope: { detail?: string; code?: string; errors?: { code?: string; attr?: string; detail?: string }[] },
    context: ApiErrorContext,
  ) {
    const attrs = (envelope.errors ?? []).map((e) => `${e.attr ?? '?'} (${e.code ?? '?'})`).join(', ');
    super(
      ERROR_CODES.API_VALIDATION,
      `400 ${envelope.code ?? 'bad request'}${attrs ? `: ${attrs}` : ''}${envelope.detail ? ` — ${envelope.detail}` : ''}`,
      context,
    );
    this.apiCode = envelope.code;
    this.detail = envelope.detail;
    this.errors = envelope.errors ?? [];
  }

  get attrs(): string[] {
    return this.errors.flatMap((e) => (e.attr === undefined ? [] : [e.attr]));
  }
}

/** A connect, header or body timeout of one attempt. */
export class TimeoutError extends ApiError {
  override readonly name = 'TimeoutError';
  /** The message without the method and URL (it names the host), as summaries repeat it. */
  readonly reason: string;
  constructor(message: string, context: ApiErrorContext) {
    super(ERROR_CODES.TIMEOUT, message, context);
    this.reason = message;
  }
}

/** Connection refused, reset or closed early, a host not found, TLS refused. */
export class NetworkError extends ApiError {
  override readonly name = 'NetworkError';
  /** The message without the method and URL (it names the host and the cause), as summaries repeat it. */
  readonly reason: string;
  constructor(message: string, context: ApiErrorContext) {
    super(ERROR_CODES.NETWORK, message, context);
    this.reason = message;
  }
}

/** What went wrong in the user's words, naming the host: `connection refused by 127.0.0.1:9`,
 *  `host api.example.invalid not found (DNS)`, `TLS with …: …`. `code` is Node's (or undici's). */
export function describeTransportFailure(code: string, message: string, url: string): string {
  const { host, hostname } = hostOf(url);
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused by ${host} (nothing listening there?)`;
    case 'ENOTFOUND':
      return `host ${hostname} not found (DNS: no such name)`;
    case 'EAI_AGAIN':
      return `host ${hostname} could not be looked up (DNS did not answer)`;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return `connection to ${host} closed early (${code})`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} unreachable: no route to it (${code})`;
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return `connecting to ${host} timed out`;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return `${host} timed out in the middle of a response (${code})`;
    default:
      if (/^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/.test(code)) {
        // OpenSSL's own text (`…:SSL routines:…:wrong version number:…`) is for its developers: the code says it
        const said = /routines:/.test(message) ? code.replace(/^ERR_(?:SSL|TLS)_/, '').toLowerCase().replace(/_/g, ' ') : message.trim();
        const plain = code === 'ERR_SSL_WRONG_VERSION_NUMBER' ? ' (does it speak https?)' : '';
        return `TLS with ${host} failed: ${said}${plain} (${code})`;
      }
      return `request to ${host} failed: ${code ? `${code}: ` : ''}${message}`;
  }
}

function hostOf(url: string): { host: string; hostname: string } {
  try {
    const parsed = new URL(url);
    return { host: parsed.host, hostname: parsed.hostname };
  } catch {
    return { host: 'the server', hostname: 'the server' };
  }
}

/** The body was not the JSON document expected (truncated, not JSON, wrong envelope). */
export class InvalidResponseError extends ApiError {
  override readonly name = 'InvalidResponseError';
  constructor(message: string, context: ApiErrorContext) {
    super(ERROR_CODES.INVALID_RESPONSE, message, context);
  }
}

/** Retries ran out (attempts or total time); `cause` is the last failure. */
export class RetriesExhaustedError extends ApiError {
  override readonly name = 'RetriesExhaustedError';
  readonly lastCode: string | undefined;
  constructor(last: ApiError, attempts: number, why: string) {
    super(ERROR_CODES.RETRIES_EXHAUSTED, `${describeLast(last)} after ${attempts} attempts (${why})`, {
      method: last.method, url: last.url, status: last.status, attempts, cause: last,
    });
    this.lastCode = last.code;
  }
}

function describeLast(last: ApiError): string {
  if (last instanceof BlockedError) return last.reason;
  if (last instanceof GraphqlError && last.errorCode !== undefined) return `GraphQL ${last.errorCode}`;
  if (last.status !== undefined) return String(last.status);
  if (last instanceof NetworkError || last instanceof TimeoutError) return last.reason;
  return last.code.toLowerCase();
}

/** The server asked us to wait longer than we are configured to: fail loudly, don't shorten it. */
export class RetryAfterTooLongError extends ApiError {
  override readonly name = 'RetryAfterTooLongError';
  readonly retryAfterMs: number;
  /** `what` is what asked us to wait: a 429 unless said (a block's reason). */
  constructor(retryAfterMs: number, capMs: number, context: ApiErrorContext, what?: string) {
    const wait = `Retry-After ${Math.ceil(retryAfterMs / 1000)}s, above the configured cap of ${Math.round(capMs / 1000)}s`;
    super(ERROR_CODES.RETRY_AFTER_TOO_LONG, what === undefined ? `429 with ${wait}` : `${what} (${wait})`, context);
    this.retryAfterMs = retryAfterMs;
  }
}

export class ForeignNextUrlError extends ApiError {
  override readonly name = 'ForeignNextUrlError';
  constructor(next: string, context: ApiErrorContext) {
    super(ERROR_CODES.FOREIGN_NEXT_URL, `refusing to follow 'next' to another origin: ${next}`, context);
  }
}

export class PaginationLoopError extends ApiError {
  override readonly name = 'PaginationLoopError';
  constructor(next: string, context: ApiErrorContext) {
    super(ERROR_CODES.PAGINATION_LOOP, `'next' repeats a page already fetched: ${next}`, context);
  }
}

export class CountMismatchError extends ApiError {
  override readonly name = 'CountMismatchError';
  constructor(expected: number, seen: number, context: ApiErrorContext) {
    super(ERROR_CODES.COUNT_MISMATCH, `the pages held ${seen} records but 'count' said ${expected}`, context);
  }
}

/** A record (or the envelope) does not match the documented shape. Never retried. */
export class RecordValidationError extends ApiError {
  override readonly name = 'RecordValidationError';
  readonly recordIndex: number | undefined;
  readonly field: string;
  constructor(field: string, problem: string, recordIndex: number | undefined, context: ApiErrorContext) {
    super(
      ERROR_CODES.INVALID_RECORD,
      `${recordIndex === undefined ? 'envelope' : `record ${recordIndex}`}: field '${field}' ${problem}`,
      context,
    );
    this.recordIndex = recordIndex;
    this.field = field;
  }
}

export class BaseUrlError extends TariffsError {
  override readonly name = 'BaseUrlError';
  constructor(message: string) {
    super(ERROR_CODES.BASE_URL, message);
  }
}

/** One GraphQL error of an answer (HTTP 200 with `errors[]`): the platform's
 *  `extensions.errorCode` (KT-CT-4340 planned dispatches unavailable, KT-CT-1199 rate limited …)
 *  is kept as it is; the message is shown but never parsed. */
export class GraphqlError extends ApiError {
  override readonly name = 'GraphqlError';
  /** `extensions.errorCode` of the first error, when given. */
  readonly errorCode: string | undefined;
  readonly errorType: string | undefined;
  /** The field the error is about (`path[0]`), when given. */
  readonly field: string | undefined;

  constructor(
    errors: readonly {
      message?: string | undefined; path?: readonly unknown[] | undefined;
      extensions?: { errorCode?: string | undefined; errorType?: string | undefined } | null | undefined;
    }[],
    context: ApiErrorContext,
  ) {
    const first: (typeof errors)[number] = errors[0] ?? {};
    const errorCode = first.extensions?.errorCode;
    const head = first.path?.[0];
    const field = typeof head === 'string' ? head : undefined;
    super(ERROR_CODES.GRAPHQL, `GraphQL ${errorCode ?? first.extensions?.errorType ?? 'error'}${field ? ` on ${field}` : ''}${first.message ? ` (${first.message})` : ''}`, context);
    this.errorCode = errorCode;
    this.errorType = first.extensions?.errorType;
    this.field = field;
  }

  /** KT-CT-4340: the device's planned dispatches are not available (now). */
  get unavailable(): boolean {
    return this.errorCode === 'KT-CT-4340';
  }

  /** KT-CT-1199: too many requests. */
  get rateLimited(): boolean {
    return this.errorCode === 'KT-CT-1199';
  }
}

/** The API refused to serve now, whatever the key: a block (BLOCKED), a 429, KT-CT-1199, or
 *  retries that ran out on one of these. A later run may succeed; regenerating the key would not help. */
export function refusedByApi(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BlockedError) return true;
    if (e instanceof GraphqlError && e.rateLimited) return true;
    if (e instanceof HttpStatusError && e.status === 429) return true;
    if (e instanceof RetryAfterTooLongError) return true;
  }
  return false;
}
