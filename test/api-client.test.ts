// The platform client against the sandbox on port 0: paging, filters, every fault kind, foreign
// and looping `next`, the 400 envelope, unknown fields, credentials — and no secret in the logs.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError, ApiKeyCredentials, ApiValidationError, HttpClient, KrakenTokenCredentials, OctopusClient,
  RecordValidationError, RetriesExhaustedError, TokenCredentials, normaliseBaseUrl, paginate, redactUrl, unitRateSchema,
  type Credentials, type HttpClientOptions,
} from '../src/api/index.js';
import { createLogger } from '../src/log/createLogger.js';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY, startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { startProxy } from './helpers/proxy.js';

const AGILE_A = { product: 'AGILE-18-02-21', tariff: 'E-1R-AGILE-18-02-21-A' };
// 2020-10-20 … 2020-11-20 UTC: 31 days = 1488 half-hours, around the 2020-10-25 clock change.
const MONTH = { from: new Date('2020-10-20T00:00:00Z'), to: new Date('2020-11-20T00:00:00Z') };
const MONTH_SLOTS = 31 * 48;
const FAST: HttpClientOptions = { retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 4 } };

let sandbox: Sandbox;
const clients: OctopusClient[] = [];

function client(options: Partial<ConstructorParameters<typeof OctopusClient>[0]> = {}): OctopusClient {
  const c = new OctopusClient({ baseUrl: sandbox.baseUrl, ...FAST, ...options });
  clients.push(c);
  return c;
}

async function collect<T>(pages: AsyncGenerator<{ records: T[] }>): Promise<{ records: T[]; pages: number }> {
  const records: T[] = [];
  let count = 0;
  for await (const page of pages) {
    records.push(...page.records);
    count++;
  }
  return { records, pages: count };
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a failure');
}

function agileMonth(c: OctopusClient) {
  return collect(c.electricityRates(AGILE_A.product, AGILE_A.tariff, 'standard-unit-rates', MONTH));
}

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterEach(() => {
  sandbox.setFaults([]);
  sandbox.resetRequests();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox.close();
});

describe('base URL', () => {
  it('normalises to /v1/ and accepts plain http only for loopback hosts', () => {
    expect(normaliseBaseUrl('https://api.octopus.energy').href).toBe('https://api.octopus.energy/v1/');
    expect(normaliseBaseUrl('https://api.octopus.energy/v1').href).toBe('https://api.octopus.energy/v1/');
    expect(normaliseBaseUrl('http://127.0.0.9:8080/v1/').href).toBe('http://127.0.0.9:8080/v1/');
    expect(normaliseBaseUrl('http://localhost:1/').href).toBe('http://localhost:1/v1/');
    expect(normaliseBaseUrl('http://[::1]:9/v1/').href).toBe('http://[::1]:9/v1/');
    expect(() => normaliseBaseUrl('http://api.octopus.energy/v1/')).toThrow(/plain http:\/\/ is refused for api\.octopus\.energy/);
    expect(() => normaliseBaseUrl('http://10.0.0.1/v1/')).toThrow(/HTTPS only/);
    expect(() => normaliseBaseUrl('ftp://x/')).toThrow(/unsupported scheme/);
    expect(() => normaliseBaseUrl('not a url')).toThrow(/--base-url: 'not a url' is not a URL/);
  });
});

describe('pagination', () => {
  it('asks for 1500 a page, sends datetimes in UTC with Z, and gets every record newest first', async () => {
    const { records, pages } = await agileMonth(client());
    expect(records).toHaveLength(MONTH_SLOTS);
    expect(pages).toBe(1); // 1488 fit one page of 1500
    const first = new URL(sandbox.requests[0]!.path, sandbox.baseUrl);
    expect(first.searchParams.get('page_size')).toBe('1500');
    expect(first.searchParams.get('period_from')).toBe('2020-10-20T00:00:00Z');
    expect(first.searchParams.get('period_to')).toBe('2020-11-20T00:00:00Z');
    const starts = records.map((r) => Date.parse(r.valid_from));
    expect(starts.every((t, i) => i === 0 || t < starts[i - 1]!)).toBe(true);
  });

  it('follows next across many pages when no page_size is sent (100 a page)', async () => {
    const { records, pages } = await collect(client({ pageSize: null })
      .electricityRates(AGILE_A.product, AGILE_A.tariff, 'standard-unit-rates', MONTH));
    expect(pages).toBe(Math.ceil(MONTH_SLOTS / 100));
    expect(new Set(records.map((r) => r.valid_from)).size).toBe(MONTH_SLOTS);
    expect(sandbox.requests.every((r) => !r.path.includes('page_size'))).toBe(true);
  });

  it('works when the server ignores page_size', async () => {
    const proxy = await startProxy(sandbox.baseUrl, { ignorePageSize: true });
    try {
      const { records, pages } = await agileMonth(client({ baseUrl: proxy.baseUrl }));
      expect(records).toHaveLength(MONTH_SLOTS);
      expect(pages).toBe(15);
      expect(proxy.requests[0]).toContain('page_size=1500');
    } finally {
      await proxy.close();
    }
  });

  it('refuses a next on another origin before sending anything there', async () => {
    const proxy = await startProxy(sandbox.baseUrl, {
      rewrite: (page) => ({ ...page, next: 'https://evil.example/v1/products/?page=2' }),
    });
    try {
      const error = await failure(collect(client({ baseUrl: proxy.baseUrl, pageSize: null }).products()));
      expect(error.code).toBe('FOREIGN_NEXT_URL');
      expect(error.message).toContain('evil.example');
      expect(proxy.requests).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('detects a next that repeats a page', async () => {
    const proxy = await startProxy(sandbox.baseUrl, {
      rewrite: (page, origin) => ({ ...page, next: `${origin}/v1/products/?page=1` }),
    });
    try {
      const error = await failure(collect(client({ baseUrl: proxy.baseUrl, pageSize: null }).products()));
      expect(error.code).toBe('PAGINATION_LOOP');
      expect(proxy.requests).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });

  it('checks that the records seen add up to count', async () => {
    const proxy = await startProxy(sandbox.baseUrl, { rewrite: (page) => ({ ...page, count: (page.count as number) + 1 }) });
    try {
      const error = await failure(agileMonth(client({ baseUrl: proxy.baseUrl })));
      expect(error.code).toBe('COUNT_MISMATCH');
      expect(error.message).toContain(`held ${MONTH_SLOTS} records but 'count' said ${MONTH_SLOTS + 1}`);
    } finally {
      await proxy.close();
    }
  });

  it('a page holding more records than its count is refused', async () => {
    const proxy = await startProxy(sandbox.baseUrl, { rewrite: (page) => ({ ...page, count: (page.count as number) - 1 }) });
    try {
      const error = await failure(agileMonth(client({ baseUrl: proxy.baseUrl })));
      expect(error.code).toBe('COUNT_MISMATCH');
      expect(error.message).toContain(`held ${MONTH_SLOTS} records but 'count' said ${MONTH_SLOTS - 1}`);
    } finally {
      await proxy.close();
    }
  });

  it('a next pointing back to the first page is a loop, seen before asking for it again', async () => {
    const proxy = await startProxy(sandbox.baseUrl, {
      rewrite: (page, origin) => ({ ...page, next: `${origin}/v1/products/` }),
    });
    try {
      const error = await failure(collect(client({ baseUrl: proxy.baseUrl, pageSize: null }).products()));
      expect(error.code).toBe('PAGINATION_LOOP');
      expect(proxy.requests).toEqual(['/v1/products/']);
    } finally {
      await proxy.close();
    }
  });

  it('an envelope out of shape is refused, naming its field', async () => {
    const cases: [string, (page: Record<string, unknown>) => Record<string, unknown>][] = [
      ['count', (page) => ({ ...page, count: -1 })],
      ['count', (page) => ({ ...page, count: 1.5 })],
      ['count', (page) => ({ ...page, count: String(page.count) })],
      ['next', (page) => ({ ...page, next: 7 })],
      ['previous', ({ previous: _previous, ...page }) => page],
      ['results', (page) => ({ ...page, results: {} })],
    ];
    for (const [field, rewrite] of cases) {
      const proxy = await startProxy(sandbox.baseUrl, { rewrite });
      try {
        const error = await failure(agileMonth(client({ baseUrl: proxy.baseUrl })));
        expect(error).toBeInstanceOf(RecordValidationError);
        expect(error.message).toMatch(new RegExp(`: envelope: field '${field}' `));
      } finally {
        await proxy.close();
      }
    }
  });

  it('keeps fields the spec does not list', async () => {
    const proxy = await startProxy(sandbox.baseUrl, {
      rewrite: (page) => ({ ...page, results: (page.results as object[]).map((r) => ({ ...r, carbon_intensity: 42 })) }),
    });
    try {
      const { records } = await agileMonth(client({ baseUrl: proxy.baseUrl }));
      expect((records[0] as Record<string, unknown>).carbon_intensity).toBe(42);
      const detail = await client().product('AGILE-FLEX-22-11-25');
      expect(Object.keys(detail)).toContain('sample_quotes'); // undocumented, kept
    } finally {
      await proxy.close();
    }
  });
});

describe('products', () => {
  it('sends filters as true/false and gets a narrower list, with no credentials on public endpoints', async () => {
    const c = client({ credentials: new ApiKeyCredentials(SANDBOX_API_KEY) });
    const all = await collect(c.products());
    const green = await collect(c.products({ isGreen: true }));
    const brandGreen = await collect(c.products({ brand: 'OCTOPUS_ENERGY', isGreen: true }));
    expect(green.records.length).toBeGreaterThan(0);
    expect(green.records.length).toBeLessThan(all.records.length);
    expect(green.records.every((p) => p.is_green)).toBe(true);
    expect(brandGreen.records.every((p) => p.is_green && p.brand === 'OCTOPUS_ENERGY')).toBe(true);
    expect(brandGreen.records.length).toBeLessThanOrEqual(green.records.length);
    expect(sandbox.requests.some((r) => r.path.includes('is_green=true'))).toBe(true);
    expect(sandbox.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it('a 404 is not retried', async () => {
    const error = await failure(client().product('NO-SUCH-PRODUCT'));
    expect(error.code).toBe('HTTP_STATUS');
    expect(error.status).toBe(404);
    expect(sandbox.requests).toHaveLength(1);
  });
});

describe('faults', () => {
  // The client's clock and sleep are injected: the waits it asks for are recorded, not slept.
  it('429 with Retry-After in seconds is honoured, then succeeds', async () => {
    sandbox.setFaults(['429:retry_after=1,times=1']);
    const slept: number[] = [];
    const { records } = await agileMonth(client({ sleep: async (ms) => void slept.push(ms) }));
    expect(records).toHaveLength(MONTH_SLOTS);
    expect(slept).toEqual([1000]); // the server's wait, above the 5 ms backoff
    expect(sandbox.requests).toHaveLength(2);
  });

  it('429 with Retry-After as an HTTP date is honoured', async () => {
    // the server's clock and the client's agree, as the HTTP date is read against the client's
    const now = new Date('2026-03-29T00:59:30Z');
    const timed = await startSandbox({ now: () => now, faults: ['429:retry_after_date=2,times=1'] });
    try {
      const slept: number[] = [];
      const c = new OctopusClient({ baseUrl: timed.baseUrl, ...FAST, now: () => now.getTime(), sleep: async (ms) => void slept.push(ms) });
      clients.push(c);
      await agileMonth(c);
      expect(slept).toEqual([2000]);
      expect(timed.requests).toHaveLength(2);
    } finally {
      await timed.close();
    }
  });

  it('a Retry-After above the cap fails loudly instead of being shortened', async () => {
    sandbox.setFaults(['429:retry_after=3600']);
    const slept: number[] = [];
    const error = await failure(agileMonth(client({ retry: { maxRetryAfterMs: 60_000 }, sleep: async (ms) => void slept.push(ms) })));
    expect(error.code).toBe('RETRY_AFTER_TOO_LONG');
    expect(error.message).toMatch(/Retry-After 3600s, above the configured cap of 60s/);
    expect(slept).toEqual([]); // failed at once, without waiting
    expect(sandbox.requests).toHaveLength(1);
  });

  for (const status of ['500', '502', '503', '504']) {
    it(`${status} is retried with backoff, then succeeds`, async () => {
      sandbox.setFaults([`${status}:times=2`]);
      const { records } = await agileMonth(client());
      expect(records).toHaveLength(MONTH_SLOTS);
      expect(sandbox.requests).toHaveLength(3);
    });
  }

  it('a lasting 503 fails with RETRIES_EXHAUSTED after the attempt limit', async () => {
    sandbox.setFaults(['503']);
    const error = await failure(agileMonth(client()));
    expect(error).toBeInstanceOf(RetriesExhaustedError);
    expect(error.code).toBe('RETRIES_EXHAUSTED');
    expect(error.status).toBe(503);
    expect(error.attempts).toBe(4);
    expect(error.message).toMatch(/^GET \/v1\/products\/AGILE-18-02-21\/.*: 503 after 4 attempts/);
    expect(sandbox.requests).toHaveLength(4);
  });

  it('a connection reset is retried', async () => {
    sandbox.setFaults(['reset:times=1']);
    const { records } = await agileMonth(client());
    expect(records).toHaveLength(MONTH_SLOTS);
    expect(sandbox.requests.length).toBeGreaterThanOrEqual(2);
  });

  it('stalled headers time out, are retried, and fail (a client that waited for ever would outlive the test)', async () => {
    sandbox.setFaults(['stall-headers']);
    const error = await failure(agileMonth(client({ timeouts: { headersMs: 200 }, retry: { maxAttempts: 2, baseDelayMs: 5 } })));
    expect(error.code).toBe('RETRIES_EXHAUSTED');
    expect((error as RetriesExhaustedError).lastCode).toBe('TIMEOUT');
    expect(sandbox.requests).toHaveLength(2);
  });

  it('a stalled body times out and is retried', async () => {
    sandbox.setFaults(['stall-body:times=1']);
    const { records } = await agileMonth(client({ timeouts: { bodyMs: 200 } }));
    expect(records).toHaveLength(MONTH_SLOTS);
    expect(sandbox.requests).toHaveLength(2);
  });

  it('truncated JSON is retried; if it persists the last code is INVALID_RESPONSE', async () => {
    sandbox.setFaults(['truncate:times=1']);
    expect((await agileMonth(client())).records).toHaveLength(MONTH_SLOTS);
    sandbox.setFaults(['truncate']);
    const error = await failure(agileMonth(client()));
    expect((error as RetriesExhaustedError).lastCode).toBe('INVALID_RESPONSE');
  });

  it('an invalid record fails at once, naming URL, record index and field', async () => {
    sandbox.setFaults(['invalid-record:index=7,field=valid_from,value=yesterday']);
    const error = await failure(agileMonth(client()));
    expect(error).toBeInstanceOf(RecordValidationError);
    expect(error.code).toBe('INVALID_RECORD');
    expect((error as RecordValidationError).recordIndex).toBe(7);
    expect((error as RecordValidationError).field).toBe('valid_from');
    expect(error.url).toContain('/standard-unit-rates/');
    expect(error.message).toContain("record 7: field 'valid_from'");
    expect(sandbox.requests).toHaveLength(1); // validation failures are never retried
  });

  it('a 400 envelope keeps its code and each attr', async () => {
    const c = client();
    const url = c.url(`products/${AGILE_A.product}/electricity-tariffs/${AGILE_A.tariff}/standard-unit-rates/`, { period_from: 'last tuesday' });
    const error = await failure(collect(paginate(c.http, url, unitRateSchema)));
    expect(error).toBeInstanceOf(ApiValidationError);
    expect(error.code).toBe('API_VALIDATION');
    expect((error as ApiValidationError).apiCode).toBeTruthy();
    expect((error as ApiValidationError).attrs).toContain('period_from');
    expect(sandbox.requests).toHaveLength(1);
  });
});

describe('credentials', () => {
  it('reads an account with the API key as basic auth', async () => {
    const account = await client({ credentials: new ApiKeyCredentials(SANDBOX_API_KEY) }).account(SANDBOX_ACCOUNT);
    expect(account.number).toBe(SANDBOX_ACCOUNT);
    const header = sandbox.requests[0]!.headers.authorization!;
    expect(header).toBe(`Basic ${Buffer.from(`${SANDBOX_API_KEY}:`).toString('base64')}`);
  });

  it('a wrong key is an AUTH error, not retried', async () => {
    const error = await failure(client({ credentials: new ApiKeyCredentials('sk_wrong') }).account(SANDBOX_ACCOUNT));
    expect(error.code).toBe('AUTH');
    expect(error.status).toBe(401);
    expect(sandbox.requests).toHaveLength(1);
  });

  it('no credentials: the account call says which to set, without a request', async () => {
    const error = await failure(client().account(SANDBOX_ACCOUNT));
    expect(error.code).toBe('AUTH');
    expect(error.message).toMatch(/TARIFFS_API_KEY/);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('obtains a token from the key once, reuses it, and renews it before expiry', async () => {
    let now = Date.now();
    const credentials = new KrakenTokenCredentials(SANDBOX_API_KEY, new URL(sandbox.baseUrl), { now: () => now, renewBeforeMs: 60_000 });
    const c = client({ credentials });
    await c.account(SANDBOX_ACCOUNT);
    await c.account(SANDBOX_ACCOUNT);
    expect(credentials.obtained).toBe(1);
    const accountCalls = sandbox.requests.filter((r) => r.path.startsWith('/v1/accounts/'));
    expect(accountCalls.every((r) => /^Token \S+$/.test(r.headers.authorization ?? ''))).toBe(true);
    now += 3600_000; // past the sandbox token's lifetime: renewed before use
    await c.account(SANDBOX_ACCOUNT);
    expect(credentials.obtained).toBe(2);
  });

  it('keeps a token for its lifetime when the server\'s clock is two years behind ours', async () => {
    const behind = await startSandbox({ now: () => new Date(Date.now() - 730 * 86_400_000) });
    try {
      let now = Date.now();
      const credentials = new KrakenTokenCredentials(SANDBOX_API_KEY, new URL(behind.baseUrl), { now: () => now, renewBeforeMs: 60_000 });
      const c = client({ credentials, baseUrl: behind.baseUrl });
      await c.account(SANDBOX_ACCOUNT);
      await c.account(SANDBOX_ACCOUNT);
      expect(credentials.obtained).toBe(1); // its exp, by our clock two years past, is not read as expired
      now += 3600_000;
      await c.account(SANDBOX_ACCOUNT);
      expect(credentials.obtained).toBe(2);
    } finally {
      await behind.close();
    }
  });

  it('a given token is sent as Authorization: Token', async () => {
    const credentials = new KrakenTokenCredentials(SANDBOX_API_KEY, new URL(sandbox.baseUrl));
    const header = await credentials.authorization(new HttpClient());
    const token = header.replace(/^Token /, '');
    await client({ credentials: new TokenCredentials(token) }).account(SANDBOX_ACCOUNT);
    expect(sandbox.requests.at(-1)!.headers.authorization).toBe(`Token ${token}`);
  });

  it('a wrong key in the token flow is an AUTH error that does not echo the key', async () => {
    const credentials: Credentials = new KrakenTokenCredentials('sk_not_the_key_123', new URL(sandbox.baseUrl));
    const error = await failure(client({ credentials }).account(SANDBOX_ACCOUNT));
    expect(error.code).toBe('AUTH');
    expect(error.message).toMatch(/could not obtain a token/);
    expect(error.message).not.toContain('sk_not_the_key_123');
  });

  it('logs and errors never contain the API key or its basic-auth form', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const logger = createLogger({ level: 'trace', destination: sink });
    sandbox.setFaults(['503:path=/accounts/,times=2', '429:retry_after=0,path=/graphql/,times=1']);
    const c = client({ credentials: new ApiKeyCredentials(SANDBOX_API_KEY), logger });
    await c.account(SANDBOX_ACCOUNT);
    const tokenClient = client({ credentials: new KrakenTokenCredentials(SANDBOX_API_KEY, new URL(sandbox.baseUrl)), logger });
    await tokenClient.account(SANDBOX_ACCOUNT);
    sandbox.setFaults(['503:path=/accounts/']);
    const error = await failure(c.account(SANDBOX_ACCOUNT));
    logger.info({ credentials: new ApiKeyCredentials(SANDBOX_API_KEY), err: error }, 'logging the objects themselves');
    const text = lines.join('') + error.message + JSON.stringify(error) + String(error.stack);
    expect(lines.filter((l) => l.includes('retrying')).length).toBeGreaterThanOrEqual(3);
    expect(text).not.toContain(SANDBOX_API_KEY);
    expect(text).not.toContain(Buffer.from(`${SANDBOX_API_KEY}:`).toString('base64'));
  });
});

describe('secrets in what a server sends back', () => {
  it('a password in a URL is never shown in errors or logs', async () => {
    expect(redactUrl('https://user:s3cret-pw@api.example.com/v1/products/?api_key=k3y&page=2'))
      .toBe('https://api.example.com/v1/products/?api_key=%5Bredacted%5D&page=2');
    // a `next` on the same origin that carries a password: followed, failing, and never shown
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
    const logger = createLogger({ level: 'trace', destination: sink });
    const proxy = await startProxy(sandbox.baseUrl, {
      rewrite: (page, origin) => ({ ...page, next: `${origin.replace('//', '//user:s3cret-pw@')}/v1/no-such-page/` }),
    });
    try {
      const error = await failure(collect(client({ baseUrl: proxy.baseUrl, pageSize: null, logger }).products()));
      const text = lines.join('') + error.message + JSON.stringify(error) + String(error.stack) + String(error.url);
      expect(text).not.toContain('s3cret-pw');
    } finally {
      await proxy.close();
    }
  });

  /** A token endpoint on port 0 that echoes the key it was sent in its error message. */
  async function echoingTokenServer(status: number): Promise<{ baseUrl: URL; close(): Promise<void> }> {
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => (body += d)).on('end', () => {
        const key = (JSON.parse(body) as { variables: { input: { APIKey: string } } }).variables.input.APIKey;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(status === 200
          ? { errors: [{ message: `Invalid key ${key}` }] }
          : { detail: `the key ${key} is not valid`, code: 'invalid_key' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      baseUrl: new URL(`http://127.0.0.1:${port}/v1/`),
      close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
    };
  }

  for (const status of [200, 400]) {
    it(`a server that echoes the API key (HTTP ${status}) has it scrubbed from the error`, async () => {
      const key = 'sk_live_echoed_key_42';
      const server = await echoingTokenServer(status);
      try {
        const http = new HttpClient(FAST);
        try {
          const credentials = new KrakenTokenCredentials(key, server.baseUrl);
          const error = await failure(credentials.authorization(http));
          expect(error.code).toBe('AUTH');
          expect(error.message).toMatch(/could not obtain a token/);
          expect(error.message).toContain('[redacted]');
          expect(error.message).not.toContain(key);
        } finally {
          await http.close();
        }
      } finally {
        await server.close();
      }
    });
  }
});
