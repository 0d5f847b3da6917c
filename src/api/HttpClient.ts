// One JSON request with bounded retries: 429 (honouring Retry-After), 5xx, resets and connect,
// header, body and attempt timeouts are retried with exponential backoff and jitter, within an
// attempt and a total-time budget. Each attempt has a hard deadline (the smaller of a per-attempt
// cap and what is left of the budget): a body that trickles in never goes idle, so the idle
// timeouts alone would let it run forever. A 403 that is not the API's JSON error (a block) and a
// GraphQL KT-CT-1199 (too many requests) back off as a 429 does; 400/401/404, a JSON 403 and
// invalid records are never retried.
// undici's RetryAgent is not used because it silently shortens a Retry-After above its cap.
import { Agent, request, type Dispatcher } from 'undici';
import type { Logger } from 'pino';
import { anySignal, deadlineSignal } from '../abortSignals.js';
import { silentLogger } from '../log/createLogger.js';
import {
  ApiError, ApiValidationError, AuthError, BlockedError, GraphqlError, HttpStatusError, InvalidResponseError, NetworkError,
  RetriesExhaustedError, RetryAfterTooLongError, describeTransportFailure, TimeoutError,
} from './errors.js';
import { RequestSlots } from './RequestSlots.js';
import { errorEnvelopeSchema } from './schemas.js';
import { redactUrl } from './urls.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest Retry-After we are willing to wait; a longer one fails with RETRY_AFTER_TOO_LONG. */
  maxRetryAfterMs: number;
  /** Budget for one request across all its attempts and waits. */
  maxTotalMs: number;
}

export interface Timeouts {
  connectMs: number;
  /** Idle limits: reset by every byte received. */
  headersMs: number;
  bodyMs: number;
  /** Hard limit on one attempt, from sending to the last byte (capped by what is left of maxTotalMs). */
  attemptMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 6, baseDelayMs: 500, maxDelayMs: 20_000, maxRetryAfterMs: 120_000, maxTotalMs: 300_000,
};
export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000, attemptMs: 60_000 };

/** Supplies the Authorization header of authenticated requests. */
export interface Credentials {
  readonly kind: string;
  authorization(http: HttpClient): Promise<string>;
  /** Called after a 401: forget a cached token; return true if a new one may succeed. */
  invalidate?(): boolean;
}

export interface HttpClientOptions {
  retry?: Partial<RetryPolicy>;
  timeouts?: Partial<Timeouts>;
  logger?: Logger;
  /** Requests sent at once, and connections per origin (the ingest's concurrency). */
  connections?: number;
  dispatcher?: Dispatcher;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  userAgent?: string;
}

export interface JsonResponse {
  json: unknown;
  attempts: number;
  url: URL;
}

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const NETWORK_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN',
  'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

class Retryable {
  constructor(readonly error: ApiError, readonly minDelayMs = 0) {}
}

export class HttpClient {
  readonly retry: RetryPolicy;
  readonly timeouts: Timeouts;
  private readonly logger: Logger;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly userAgent: string;
  /** Requests sent (attempts included), for benchmarks and summaries. */
  requestCount = 0;
  private readonly slots: RequestSlots;

  constructor(options: HttpClientOptions = {}) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.logger = options.logger ?? silentLogger();
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent({
      connections: options.connections ?? 8,
      connect: { timeout: this.timeouts.connectMs },
      keepAliveTimeout: 10_000,
    });
    this.sleep = options.sleep ?? sleepMs;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.userAgent = options.userAgent ?? 'tariffs (+https://github.com/)';
    this.slots = new RequestSlots(options.connections ?? 8);
  }

  async getJson(url: URL, options: { credentials?: Credentials; signal?: AbortSignal } = {}): Promise<JsonResponse> {
    return this.send('GET', url, undefined, options);
  }

  async postJson(url: URL, body: unknown, options: { credentials?: Credentials; signal?: AbortSignal } = {}): Promise<JsonResponse> {
    return this.send('POST', url, JSON.stringify(body), options);
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** Backoff before attempt `attempt + 1`: exponential, capped, with "equal jitter" (half fixed, half random). */
  backoffMs(attempt: number): number {
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + (this.random() * ceiling) / 2);
  }

  private async send(
    method: 'GET' | 'POST',
    url: URL,
    body: string | undefined,
    options: { credentials?: Credentials; signal?: AbortSignal },
  ): Promise<JsonResponse> {
    const started = this.now();
    const shownUrl = redactUrl(url);
    let reauthorised = false;
    for (let attempt = 1; ; attempt++) {
      let outcome: unknown;
      try {
        // outside the slot: obtaining a token is a request of its own
        const authorization = options.credentials ? await options.credentials.authorization(this) : undefined;
        const json = await this.slots.run(() => {
          const remainingMs = this.retry.maxTotalMs - (this.now() - started);
          return this.attempt(method, url, body, { ...options, authorization }, attempt, remainingMs);
        });
        return { json, attempts: attempt, url };
      } catch (error) {
        outcome = error;
      }
      if (outcome instanceof AuthError && options.credentials?.invalidate && !reauthorised && outcome.status === 401) {
        reauthorised = true;
        if (options.credentials.invalidate()) continue; // a fresh token may fix it, once
      }
      if (!(outcome instanceof Retryable)) throw outcome;
      const last = outcome.error;
      if (attempt >= this.retry.maxAttempts) throw new RetriesExhaustedError(last, attempt, 'attempt limit');
      const delay = Math.max(outcome.minDelayMs, this.backoffMs(attempt));
      if (this.now() - started + delay > this.retry.maxTotalMs) {
        throw new RetriesExhaustedError(last, attempt, `time budget of ${Math.round(this.retry.maxTotalMs / 1000)}s`);
      }
      // Throttling (429) is the server's ordinary flow control, not a problem: info, not a warning.
      this.logger[last.status === 429 || last instanceof GraphqlError ? 'info' : 'warn'](
        { method, url: shownUrl, attempt, status: last.status, reason: last.code, delay_ms: delay },
        `retrying ${method} after ${last.code}${last.status ? ` ${last.status}` : ''}` +
          (last instanceof NetworkError || last instanceof TimeoutError ? `: ${last.reason}` : ''),
      );
      await this.sleep(delay, options.signal);
    }
  }

  /** One attempt: resolves with the body parsed as JSON, throws Retryable for what may succeed
   *  next time. */
  private async attempt(
    method: 'GET' | 'POST',
    url: URL,
    body: string | undefined,
    options: { credentials?: Credentials; signal?: AbortSignal; authorization?: string | undefined },
    attempt: number,
    remainingMs: number,
  ): Promise<unknown> {
    const context = { method, url: redactUrl(url), attempts: attempt };
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    let response: Dispatcher.ResponseData;
    let text: string;
    this.requestCount++;
    const limitMs = Math.max(0, Math.min(this.timeouts.attemptMs, remainingMs));
    const deadline = deadlineSignal(limitMs, () => new Error('attempt deadline'));
    const signal = anySignal([options.signal, deadline.signal]);
    try {
      response = await request(url, {
        method, headers, body, dispatcher: this.dispatcher, signal: signal.signal,
        headersTimeout: this.timeouts.headersMs, bodyTimeout: this.timeouts.bodyMs,
      });
      text = await response.body.text();
    } catch (error) {
      if (deadline.expired() && !options.signal?.aborted) {
        const why = limitMs < this.timeouts.attemptMs ? 'what was left of the time budget' : 'the per-attempt limit';
        throw new Retryable(new TimeoutError(
          `${url.host} timed out: no complete response within ${formatSeconds(limitMs)} (${why})`, { ...context, cause: error },
        ));
      }
      if (options.signal?.aborted) throw error; // the caller stopped: not a failure of the server
      throw this.transportFailure(error, context);
    } finally {
      deadline.dispose();
      signal.dispose();
    }
    const status = response.statusCode;
    const waitFor = (error: ApiError, what?: string): Retryable => {
      const waitMs = parseRetryAfter(headerValue(response.headers['retry-after']), this.now());
      if (waitMs !== undefined && waitMs > this.retry.maxRetryAfterMs) {
        throw new RetryAfterTooLongError(waitMs, this.retry.maxRetryAfterMs, { ...context, status, cause: error }, what);
      }
      return new Retryable(error, waitMs ?? 0);
    };
    if (status >= 200 && status < 300) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        // A cut-off body is a transport failure in disguise: worth another attempt.
        throw new Retryable(new InvalidResponseError(`body is not valid JSON (${(error as Error).message})`, { ...context, status, cause: error }));
      }
      const throttled = rateLimitedGraphql(json, { ...context, status });
      if (throttled) throw waitFor(throttled);
      return json;
    }
    const withStatus = { ...context, status };
    if (status === 429) throw waitFor(new HttpStatusError(withStatus));
    if (status === 403 && !isApiErrorBody(text)) {
      const blocked = new BlockedError(blockTitle(text), withStatus);
      throw waitFor(blocked, blocked.reason);
    }
    if (RETRYABLE_STATUS.has(status)) throw new Retryable(new HttpStatusError(withStatus));
    if (status === 400) {
      const envelope = errorEnvelopeSchema.safeParse(safeJson(text));
      if (envelope.success) throw new ApiValidationError(envelope.data, withStatus);
    }
    if (status === 401 || status === 403) {
      throw new AuthError(
        `${status} ${status === 401 ? 'unauthorised' : 'forbidden'}: ${options.credentials
          ? `the ${options.credentials.kind} was not accepted`
          : 'this endpoint needs credentials (TARIFFS_API_KEY, --api-key-file or TARIFFS_TOKEN)'}`,
        withStatus,
      );
    }
    throw new HttpStatusError(withStatus);
  }

  private transportFailure(error: unknown, context: { method: string; url: string; attempts: number }): unknown {
    const code = (error as { code?: string }).code ?? '';
    if ((error as Error).name === 'AbortError' || code === 'UND_ERR_ABORTED') return error;
    const message = (error as Error).message ?? String(error);
    const reason = describeTransportFailure(code, message, context.url);
    if (TIMEOUT_CODES.has(code)) return new Retryable(new TimeoutError(reason, { ...context, cause: error }));
    if (NETWORK_CODES.has(code)) return new Retryable(new NetworkError(reason, { ...context, cause: error }));
    return new NetworkError(reason, { ...context, cause: error });
  }
}

function formatSeconds(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)}s` : `${Math.round(ms / 100) / 10}s`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The API's own errors are JSON with a `detail` (DRF); an edge's block page is HTML or empty. */
function isApiErrorBody(text: string): boolean {
  const json = safeJson(text);
  return typeof json === 'object' && json !== null && typeof (json as { detail?: unknown }).detail === 'string';
}

/** What a block page calls itself (its <title>, less a leading status), else "Request blocked". */
function blockTitle(text: string): string {
  const title = /<title>([^<]{1,80})<\/title>/i.exec(text)?.[1]?.trim().replace(/^403\s*/, '');
  return title ? title : 'Request blocked';
}

/** A GraphQL answer (HTTP 200) whose errors say KT-CT-1199, too many requests. */
function rateLimitedGraphql(json: unknown, context: { method: string; url: string; attempts: number; status: number }): GraphqlError | undefined {
  const errors = (json as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0) return undefined;
  const limited = errors.find((e) => (e as { extensions?: { errorCode?: unknown } } | null)?.extensions?.errorCode === 'KT-CT-1199');
  return limited === undefined ? undefined : new GraphqlError([limited as ConstructorParameters<typeof GraphqlError>[0][number]], context);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Retry-After as delta-seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export function sleepMs(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
