// Blocks are not auth failures: a 403 HTML page, empty body or JSON without the API's `detail` from
// the sandbox's `blocked` fault, and KT-CT-1199 on the token call (its Retry-After honoured), back
// off like a 429 and keep the token; a run that meets a
// block says so (never "the API key was not accepted") and stores everything once it clears.
// API keys of 32 and 40 characters, read from the environment, a key file and the token exchange.
import { chmodSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError, ApiKeyCredentials, HttpClient, KrakenTokenCredentials, OctopusClient, credentialsFrom, type HttpClientOptions,
} from '../src/api/index.js';
import { refusedByApi } from '../src/api/errors.js';
import { loadConfig } from '../src/config/loadConfig.js';
import {
  SANDBOX_ACCOUNT, SANDBOX_API_KEY, SANDBOX_API_KEY_32, SANDBOX_API_KEY_40, startSandbox, type Sandbox,
} from '../src/sandbox/startSandbox.js';
import { runCli } from './helpers/runCli.js';
import { ingest, query, ratesFingerprint, tempDir } from './helpers/warehouseTools.js';

const A = 'E-1R-AGILE-18-02-21-A';
const RANGE = { from: new Date('2020-10-20T00:00:00Z'), to: new Date('2020-10-27T00:00:00Z') };
const BLOCKED_TEXT = 'the API is refusing requests from this address: 403 Request blocked; retrying later';
const KEY_MESSAGE = /not accepted|regenerat|invalid api key/i;

let sandbox: Sandbox;
const tmp = tempDir('tariffs-blocks-');
const clients: { close(): Promise<void> }[] = [];

/** A client whose waits are recorded, not slept. */
function fastClient(waits: number[], extra: Partial<ConstructorParameters<typeof OctopusClient>[0]> = {}): OctopusClient {
  const http: HttpClientOptions = {
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 4 },
    sleep: async (ms) => { waits.push(ms); },
  };
  const c = new OctopusClient({ baseUrl: sandbox.baseUrl, ...http, ...extra });
  clients.push(c);
  return c;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a failure');
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
  tmp.remove();
});

describe('a 403 that is not the API\'s JSON error is a block, not a rejected key', () => {
  it('the HTML "Request blocked" page: retried honouring Retry-After, the token kept, then served', async () => {
    const waits: number[] = [];
    const credentials = new KrakenTokenCredentials(SANDBOX_API_KEY, new URL(sandbox.baseUrl));
    sandbox.setFaults(['blocked:path=/accounts/,times=2,retry_after=7']);
    const account = await fastClient(waits, { credentials }).account(SANDBOX_ACCOUNT);
    expect(account.number).toBe(SANDBOX_ACCOUNT);
    expect(waits).toEqual([7000, 7000]);
    expect(credentials.obtained).toBe(1);
    expect(sandbox.requests.filter((r) => r.path.startsWith('/v1/accounts/'))).toHaveLength(3);
  });

  it('an empty 403 that never clears: BLOCKED as the last failure, never AUTH, nor the key in the message', async () => {
    const waits: number[] = [];
    sandbox.setFaults(['blocked:path=/accounts/,body=empty']);
    const error = await failure(fastClient(waits, { credentials: new ApiKeyCredentials(SANDBOX_API_KEY) }).account(SANDBOX_ACCOUNT));
    expect(error.code).toBe('RETRIES_EXHAUSTED');
    expect((error as ApiError & { lastCode?: string }).lastCode).toBe('BLOCKED');
    expect(error.message).toContain(BLOCKED_TEXT);
    expect(error.message).not.toMatch(KEY_MESSAGE);
    expect(refusedByApi(error)).toBe(true);
    expect(waits).toHaveLength(3);
  });

  it('a Retry-After above the cap fails at once with the block\'s words', async () => {
    sandbox.setFaults(['blocked:retry_after=3600']);
    const error = await failure(fastClient([]).products().next());
    expect(error.code).toBe('RETRY_AFTER_TOO_LONG');
    expect(error.message).toContain(BLOCKED_TEXT);
    expect(sandbox.requests).toHaveLength(1);
  });

  it('a 403 with a JSON body that is not the API\'s error (no detail) is a block too: retried, then served', async () => {
    const waits: number[] = [];
    sandbox.setFaults(['blocked:path=/accounts/,times=2,retry_after=3,body=json']);
    const account = await fastClient(waits, { credentials: new ApiKeyCredentials(SANDBOX_API_KEY) }).account(SANDBOX_ACCOUNT);
    expect(account.number).toBe(SANDBOX_ACCOUNT);
    expect(waits).toEqual([3000, 3000]);
    expect(sandbox.requests.filter((r) => r.path.startsWith('/v1/accounts/'))).toHaveLength(3);
    sandbox.resetRequests();
    sandbox.setFaults(['blocked:path=/accounts/,body=json']);
    const error = await failure(fastClient([], { credentials: new ApiKeyCredentials(SANDBOX_API_KEY) }).account(SANDBOX_ACCOUNT));
    expect((error as ApiError & { lastCode?: string }).lastCode).toBe('BLOCKED');
    expect(error.message).toContain(BLOCKED_TEXT);
    expect(error.message).not.toMatch(KEY_MESSAGE);
    expect(sandbox.requests).toHaveLength(4);
  });

  it('a wrong key is still AUTH (401), not a block', async () => {
    const error = await failure(fastClient([], { credentials: new ApiKeyCredentials('sk_live_wrongwrongwrongwrong0000') }).account(SANDBOX_ACCOUNT));
    expect(error.code).toBe('AUTH');
    expect(refusedByApi(error)).toBe(false);
  });
});

describe('KT-CT-1199 (too many requests) on the token call', () => {
  it('backs off and then obtains the token', async () => {
    const waits: number[] = [];
    const http = new HttpClient({ retry: { baseDelayMs: 5, maxDelayMs: 20 }, sleep: async (ms) => { waits.push(ms); } });
    clients.push(http);
    sandbox.setFaults(['graphql-error:field=obtainKrakenToken,code=KT-CT-1199,times=2']);
    const credentials = new KrakenTokenCredentials(SANDBOX_API_KEY, new URL(sandbox.baseUrl));
    expect(await credentials.authorization(http)).toMatch(/^Token \S+$/);
    expect(waits).toHaveLength(2);
    expect(sandbox.requests.filter((r) => r.path.startsWith('/v1/graphql/'))).toHaveLength(3);
  });

  it('honours the Retry-After its answer carries, and fails at once when that is above the cap', async () => {
    const waits: number[] = [];
    const http = new HttpClient({ retry: { baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 60_000 }, sleep: async (ms) => { waits.push(ms); } });
    clients.push(http);
    sandbox.setFaults(['graphql-error:field=obtainKrakenToken,code=KT-CT-1199,times=2,retry_after=9']);
    const credentials = new KrakenTokenCredentials(SANDBOX_API_KEY, new URL(sandbox.baseUrl));
    expect(await credentials.authorization(http)).toMatch(/^Token \S+$/);
    expect(waits).toEqual([9000, 9000]);
    sandbox.resetRequests();
    sandbox.setFaults(['graphql-error:field=obtainKrakenToken,code=KT-CT-1199,retry_after=3600']);
    const error = await failure(new KrakenTokenCredentials(SANDBOX_API_KEY, new URL(sandbox.baseUrl)).authorization(http));
    expect(error.code).toBe('RETRY_AFTER_TOO_LONG');
    expect(error.message).toMatch(/Retry-After 3600s, above the configured cap of 60s/);
    expect(waits).toEqual([9000, 9000]); // no wait more
    expect(sandbox.requests).toHaveLength(1);
  });

  it('when it never clears: rate limited, not "could not obtain a token"', async () => {
    const http = new HttpClient({ retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 3 }, sleep: async () => {} });
    clients.push(http);
    sandbox.setFaults(['graphql-error:field=obtainKrakenToken,code=KT-CT-1199']);
    const error = await failure(new KrakenTokenCredentials(SANDBOX_API_KEY, new URL(sandbox.baseUrl)).authorization(http));
    expect(error.code).toBe('RETRIES_EXHAUSTED');
    expect(error.message).toContain('KT-CT-1199');
    expect(error.message).not.toMatch(/could not obtain a token/);
    expect(refusedByApi(error)).toBe(true);
  });
});

describe('a run that meets a block', () => {
  it('tariffs ingest exits with the block\'s message (not the key\'s), and stores everything once it clears', async () => {
    const db = tmp.file('blocked.duckdb');
    const server = await startSandbox({ faults: ['blocked:path=/accounts/,retry_after=3600'] });
    try {
      const args = ['ingest', '--account', SANDBOX_ACCOUNT, '--no-products', '--from', '2024-01-01', '--to', '2024-01-03',
        '--db', db, '--base-url', server.baseUrl, '--format', 'json'];
      const env = { TARIFFS_API_KEY: SANDBOX_API_KEY_40 };
      const blocked = await runCli(args, { env });
      expect(blocked.code).toBe(1);
      expect(blocked.stderr).toContain(BLOCKED_TEXT);
      expect(blocked.stderr).not.toMatch(KEY_MESSAGE);
      expect(blocked.stderr + blocked.stdout).not.toContain(SANDBOX_API_KEY_40);
      server.setFaults([]);
      const cleared = await runCli(args, { env });
      expect(cleared.stderr).toBe('');
      expect(cleared.code).toBe(0);
      const [row] = await query(db, 'SELECT count(*) AS n FROM consumption');
      expect(Number(row!.n)).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  it('a block on consumption that never clears fails the meter with the block\'s words, not "not available"', async () => {
    const db = tmp.file('consumption-blocked.duckdb');
    const http: HttpClientOptions = { retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 3 }, sleep: async () => {} };
    sandbox.setFaults(['blocked:path=/consumption/']);
    const summary = await ingest(db, sandbox.baseUrl, {
      accounts: [SANDBOX_ACCOUNT], noProducts: true, from: new Date('2024-01-01T00:00:00Z'), to: new Date('2024-01-02T00:00:00Z'),
    }, { apiKey: SANDBOX_API_KEY }, http);
    expect(summary.status).toBe('partial');
    expect(summary.warnings).toEqual([]);
    expect(summary.errors.length).toBeGreaterThan(0);
    for (const e of summary.errors) expect(e).toContain(BLOCKED_TEXT);
    sandbox.setFaults([]);
    const cleared = await ingest(db, sandbox.baseUrl, {
      accounts: [SANDBOX_ACCOUNT], noProducts: true, from: new Date('2024-01-01T00:00:00Z'), to: new Date('2024-01-02T00:00:00Z'),
    }, { apiKey: SANDBOX_API_KEY }, http);
    expect(cleared.status).toBe('ok');
    expect(cleared.consumption_inserted).toBeGreaterThan(0);
  });

  it('an in-process run backs off through blocks on the rates (Retry-After honoured) and stores what a clean run does', async () => {
    const clean = tmp.file('clean.duckdb');
    const hit = tmp.file('hit.duckdb');
    const waits: number[] = [];
    const http: HttpClientOptions = { retry: { baseDelayMs: 5, maxDelayMs: 20 }, sleep: async (ms) => { waits.push(ms); } };
    await ingest(clean, sandbox.baseUrl, { tariffs: [A], ...RANGE }, {}, http);
    expect(waits).toEqual([]);
    sandbox.setFaults(['blocked:path=/standard-unit-rates/,times=2,retry_after=2', 'blocked:path=/standing-charges/,times=1,body=empty']);
    const summary = await ingest(hit, sandbox.baseUrl, { tariffs: [A], ...RANGE }, {}, http);
    expect(summary.status).toBe('ok');
    expect(waits.filter((w) => w === 2000)).toHaveLength(2);
    expect(waits).toHaveLength(3);
    expect(await ratesFingerprint(hit)).toEqual(await ratesFingerprint(clean));
  });
});

describe('API keys of 32 and 40 characters', () => {
  const keys = { 32: SANDBOX_API_KEY_32, 40: SANDBOX_API_KEY_40 } as const;
  for (const [length, key] of Object.entries(keys)) {
    it(`a ${length}-character key works from the environment, a key file and the token exchange`, async () => {
      expect(key).toHaveLength(Number(length));
      const file = tmp.file(`key-${length}`);
      writeFileSync(file, `${key}\n`);
      chmodSync(file, 0o600);
      const base = new URL(sandbox.baseUrl);
      // as a run picks them: the key from the config, the mode from TARIFFS_AUTH
      const from = (config: Awaited<ReturnType<typeof loadConfig>>) => credentialsFrom(config, base, config.authMode);
      const ways = {
        environment: from(await loadConfig({}, { TARIFFS_API_KEY: key })),
        'key file': from(await loadConfig({ apiKeyFile: file }, {})),
        'token exchange': from(await loadConfig({}, { TARIFFS_API_KEY: key, TARIFFS_AUTH: 'token' })),
      };
      for (const [way, credentials] of Object.entries(ways)) {
        sandbox.resetRequests();
        const account = await fastClient([], { credentials: credentials! }).account(SANDBOX_ACCOUNT);
        expect(account.number, way).toBe(SANDBOX_ACCOUNT);
        const sent = sandbox.requests.map((r) => r.headers.authorization ?? r.body ?? '');
        if (way === 'token exchange') {
          expect(sent[0], way).toContain(key); // the key goes in the mutation's input, and only there
          expect(sent[1], way).toMatch(/^Token /);
        } else {
          expect(sent, way).toEqual([`Basic ${Buffer.from(`${key}:`).toString('base64')}`]);
        }
      }
    });
  }
  it('a 40-character key works end to end: tariffs ingest --account with TARIFFS_API_KEY', async () => {
    const db = tmp.file('key40.duckdb');
    const result = await runCli(['ingest', '--account', SANDBOX_ACCOUNT, '--no-products', '--no-consumption',
      '--db', db, '--base-url', sandbox.baseUrl, '--format', 'json'], { env: { TARIFFS_API_KEY: SANDBOX_API_KEY_40 } });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(await query(db, `SELECT account_number FROM meter_points LIMIT 1`)).toEqual([{ account_number: SANDBOX_ACCOUNT }]);
  });
});
