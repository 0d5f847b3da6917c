// The local sandbox of the supplier interface, over real HTTP on port 0: paging, filters, DST
// periods, products, errors, auth and tokens, every fault kind, and the `tariffs sandbox` command.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import {
  SANDBOX_ACCOUNT, SANDBOX_API_KEY, halfHourlyRates, parseFaultSpec, startSandbox, type Sandbox,
} from '../src/sandbox/startSandbox.js';
import { CLI, runCli } from './helpers/runCli.js';

type Page<T = Rate> = { count: number; next: string | null; previous: string | null; results: T[] };
type Rate = { value_exc_vat: number; value_inc_vat: number; valid_from: string; valid_to: string | null; payment_method: string | null };
type Product = { code: string; brand: string; is_green: boolean; is_prepay: boolean; links: { href: string; rel: string }[] };

const AGILE_A = 'products/AGILE-18-02-21/electricity-tariffs/E-1R-AGILE-18-02-21-A/standard-unit-rates/';
const AGILE_C = 'products/AGILE-18-02-21/electricity-tariffs/E-1R-AGILE-18-02-21-C/standard-unit-rates/';
const VAR_A = 'products/VAR-17-01-11/electricity-tariffs/E-1R-VAR-17-01-11-A/standard-unit-rates/';
const REAL = new URL('../data/sandbox/', import.meta.url);

async function getJson<T = any>(url: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: T }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Follows `next` from the first page; returns every record and the URLs visited. */
async function allPages<T = Rate>(first: string): Promise<{ count: number; records: T[]; urls: string[] }> {
  const records: T[] = [];
  const urls: string[] = [];
  let url: string | null = first;
  let count = -1;
  while (url) {
    urls.push(url);
    const { status, body }: { status: number; body: Page<T> } = await getJson<Page<T>>(url);
    expect(status, url).toBe(200);
    if (count === -1) count = body.count;
    expect(body.count).toBe(count);
    records.push(...body.results);
    url = body.next;
  }
  return { count, records, urls };
}

function expectNewestFirst(records: Rate[]): void {
  for (let i = 1; i < records.length; i++) {
    expect(Date.parse(records[i]!.valid_from)).toBeLessThanOrEqual(Date.parse(records[i - 1]!.valid_from));
  }
}

let sandbox: Sandbox;
let base: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  base = sandbox.baseUrl;
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  sandbox.setFaults([]);
  sandbox.setLatency(0);
  sandbox.setVisibleUntil(undefined);
});

describe('sandbox rates: paging', () => {
  it('listens on 127.0.0.1 with a /v1/ base URL', () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/$/);
  });

  it('chains 100-row pages via next, covering exactly count records, newest first, equal to the recording', async () => {
    const { count, records, urls } = await allPages(`${base}${AGILE_C}`);
    expect(count).toBe(200);
    expect(urls).toHaveLength(2);
    expect(records).toHaveLength(200);
    expect(new Set(records.map((r) => r.valid_from)).size).toBe(200);
    expectNewestFirst(records);
    const recorded = [
      ...JSON.parse(readFileSync(new URL('domdfcoding-octo-api/tests_responses/agile_unit_rates.json', REAL), 'utf8')).results,
      ...JSON.parse(readFileSync(new URL('domdfcoding-octo-api/tests_responses/agile_unit_rates_page2.json', REAL), 'utf8')).results,
    ];
    expect(records.map(({ payment_method: _p, ...r }) => r)).toEqual(recorded);
    expect(records.every((r) => r.payment_method === null)).toBe(true);
  });

  it('honours page_size and keeps the other query parameters in next/previous', async () => {
    const first = `${base}${AGILE_A}?period_from=2020-10-20T00:00:00Z&period_to=2020-10-27T00:00:00Z&page_size=37`;
    const { count, records, urls } = await allPages(first);
    expect(count).toBe(7 * 48);
    expect(records).toHaveLength(count);
    expect(urls).toHaveLength(Math.ceil(count / 37));
    expectNewestFirst(records);
    expect(records[0]!.valid_from).toBe('2020-10-26T23:30:00Z');
    expect(records.at(-1)!.valid_from).toBe('2020-10-20T00:00:00Z');
    const second = new URL(urls[1]!);
    expect(second.origin + '/v1/').toBe(base);
    expect(second.searchParams.get('page')).toBe('2');
    expect(second.searchParams.get('page_size')).toBe('37');
    expect(second.searchParams.get('period_from')).toBe('2020-10-20T00:00:00Z');
    const page2 = await getJson<Page>(urls[1]!);
    expect(page2.body.previous).not.toBeNull();
    expect(new URL(page2.body.previous!).searchParams.has('page')).toBe(false);
    expect(new URL(page2.body.previous!).searchParams.get('period_to')).toBe('2020-10-27T00:00:00Z');
  });

  it('serves the whole region A series (81,403 rows) in 1500-row pages', async () => {
    const { count, records } = await allPages(`${base}${AGILE_A}?page_size=1500`);
    expect(count).toBe(81_403);
    expect(records).toHaveLength(81_403);
    expect(records[0]!.valid_from).toBe('2021-08-23T21:30:00Z');
    expect(records.at(-1)!.valid_from).toBe('2017-01-01T00:30:00Z');
    expectNewestFirst(records);
    // value_exc_vat is derived from the CSV's inc-VAT price: inc / 1.05 to 4 dp.
    for (const r of records.slice(0, 500)) {
      expect(r.value_exc_vat).toBe(Math.round((r.value_inc_vat / 1.05) * 10_000) / 10_000);
    }
  });

  it('keeps DIRECT_DEBIT and NON_DIRECT_DEBIT rows of a long-validity tariff, open-ended latest', async () => {
    const { body } = await getJson<Page>(
      `${base}products/VAR-22-11-01/electricity-tariffs/E-1R-VAR-22-11-01-A/standing-charges/`,
    );
    expect(body.count).toBe(8);
    expect(body.results.slice(0, 2).map((r) => [r.payment_method, r.valid_to])).toEqual([
      ['DIRECT_DEBIT', null],
      ['NON_DIRECT_DEBIT', null],
    ]);
    const night = await getJson<Page>(`${base}products/VAR-22-11-01/electricity-tariffs/E-2R-VAR-22-11-01-A/night-unit-rates/`);
    expect(night.body.count).toBe(4);
    expect(night.body.results[0]).toEqual({
      value_exc_vat: 12.588, value_inc_vat: 13.2174, valid_from: '2024-03-31T23:00:00Z', valid_to: null, payment_method: 'DIRECT_DEBIT',
    });
  });
});

describe('sandbox rates: period filters', () => {
  const count = async (path: string, query: string) => (await getJson<Page>(`${base}${path}?${query}`)).body;

  it.each([
    // [period_from, period_to, expected valid_from of the rates returned]
    ['2019-06-01T00:00:00Z', '2019-06-02T00:00:00Z', ['2019-04-30T23:00:00Z']],
    // period_to equal to a valid_from excludes that rate; period_from equal to a valid_to excludes that one
    ['2020-01-15T00:00:00Z', '2020-11-01T00:00:00Z', ['2020-01-15T00:00:00Z']],
    // an open-ended rate (valid_to null) overlaps everything after its valid_from
    ['2030-01-01T00:00:00Z', '', ['2020-11-01T00:00:00Z']],
    ['', '2017-01-11T10:00:01Z', ['2017-01-11T10:00:00Z']],
    ['', '2017-01-11T10:00:00Z', []],
  ])('VAR-17-01-11 period_from=%s period_to=%s → overlap', async (from, to, expected) => {
    const q = [from && `period_from=${from}`, to && `period_to=${to}`].filter(Boolean).join('&');
    const body = await count(VAR_A, q);
    expect(body.results.map((r) => r.valid_from)).toEqual(expected);
    expect(body.count).toBe(expected.length);
  });

  it.each([
    // Europe/London local days read from naive datetimes: 48 slots, 50 on the autumn change, 46 in spring
    ['2020-10-24T00:00', '2020-10-25T00:00', 48, '2020-10-23T23:00:00Z'],
    ['2020-10-25T00:00', '2020-10-26T00:00', 50, '2020-10-24T23:00:00Z'],
    ['2020-10-26T00:00:00', '2020-10-27T00:00:00', 48, '2020-10-26T00:00:00Z'],
    ['2021-03-28T00:00', '2021-03-29T00:00', 46, '2021-03-28T00:00:00Z'],
    ['2019-03-31', '2019-04-01', 46, '2019-03-31T00:00:00Z'],
    ['2019-07-01', '2019-07-02', 48, '2019-06-30T23:00:00Z'],
  ])('naive %s → %s is a London day of %i slots starting %s', async (from, to, slots, firstUtc) => {
    const body = await count(AGILE_A, `period_from=${from}&period_to=${to}&page_size=100`);
    expect(body.count).toBe(slots);
    expect(body.results.at(-1)!.valid_from).toBe(firstUtc);
  });

  it('reads offsets exactly and serves the negative prices of the repeated hour on 2020-10-25', async () => {
    const q = `period_from=${encodeURIComponent('2020-10-25T01:00:00+01:00')}&period_to=${encodeURIComponent('2020-10-25T01:00:00+00:00')}`;
    const body = await count(AGILE_A, q);
    expect(body.results.map((r) => [r.valid_from, r.value_inc_vat])).toEqual([
      ['2020-10-25T00:30:00Z', -6.615],
      ['2020-10-25T00:00:00Z', -8.6415],
    ]);
  });

  it('AGILE-24-10-01-G spring-forward night 2025-03-30: the skipped-hour row is the 00:30Z slot', async () => {
    const body = await count(
      'products/AGILE-24-10-01/electricity-tariffs/E-1R-AGILE-24-10-01-G/standard-unit-rates/',
      'period_from=2025-03-30&period_to=2025-03-31',
    );
    expect(body.count).toBe(46);
    const slot = body.results.find((r) => r.valid_from === '2025-03-30T00:30:00Z')!;
    expect(slot).toMatchObject({ valid_to: '2025-03-30T01:00:00Z', value_inc_vat: 2.8 });
    expect(body.results.filter((r) => r.value_inc_vat < 0)).toHaveLength(18);
  });

  it('hides rates not yet published (visibleUntil) and shows them again', async () => {
    const all = (await count(AGILE_A, 'page_size=1')).count;
    sandbox.setVisibleUntil(new Date('2021-08-23T00:00:00Z'));
    const hidden = await count(AGILE_A, 'page_size=1');
    expect(hidden.count).toBe(all - 44);
    expect(hidden.results[0]!.valid_from).toBe('2021-08-22T23:30:00Z');
    sandbox.setVisibleUntil(undefined);
    expect((await count(AGILE_A, 'page_size=1')).count).toBe(all);
  });
});

describe('sandbox products', () => {
  it('lists products with self links on the sandbox, filters narrowing when combined', async () => {
    const all = (await getJson<Page<Product>>(`${base}products/`)).body;
    expect(all.count).toBe(all.results.length);
    expect(all.results.map((p) => p.code)).toEqual(expect.arrayContaining(['AGILE-18-02-21', 'AGILE-24-10-01', 'VAR-17-01-11', 'VAR-22-11-01']));
    const octopus = (await getJson<Page<Product>>(`${base}products?brand=OCTOPUS_ENERGY`)).body;
    const green = (await getJson<Page<Product>>(`${base}products/?is_green=true`)).body;
    const both = (await getJson<Page<Product>>(`${base}products/?brand=OCTOPUS_ENERGY&is_green=true`)).body;
    const expected = all.results.filter((p) => p.brand === 'OCTOPUS_ENERGY' && p.is_green).map((p) => p.code);
    expect(both.results.map((p) => p.code)).toEqual(expected);
    expect(both.count).toBeGreaterThan(0);
    expect(both.count).toBeLessThan(octopus.count);
    expect(both.count).toBeLessThan(green.count);
    const prepay = (await getJson<Page<Product>>(`${base}products/?is_prepay=true&is_business=false`)).body;
    expect(prepay.count).toBeGreaterThan(0);
    expect(prepay.results.every((p) => p.is_prepay)).toBe(true);
    const at2018 = (await getJson<Page<Product>>(`${base}products/?available_at=2018-01-01T00:00:00Z`)).body;
    expect(at2018.results.map((p) => p.code)).toContain('VAR-17-01-11');
    expect(at2018.results.map((p) => p.code)).not.toContain('AGILE-FLEX-22-11-25');
    for (const product of all.results) {
      const self = product.links.find((l) => l.rel === 'self')!;
      expect(self.href).toBe(`${base}products/${product.code}/`);
    }
  });

  it('pages the product list too', async () => {
    const { count, records } = await allPages(`${base}products/?page_size=10`);
    expect(records).toHaveLength(count);
    expect(count).toBeGreaterThan(10);
  });

  it('every tariff link of the served product details resolves to a rates page on the sandbox', async () => {
    const list = (await getJson<Page<Product>>(`${base}products/`)).body.results;
    let links = 0;
    for (const code of ['AGILE-18-02-21', 'AGILE-24-10-01', 'AGILE-FLEX-22-11-25', 'VAR-17-01-11', 'VAR-22-11-01']) {
      const self = list.find((p) => p.code === code)!.links[0]!.href;
      const detail = await getJson<Record<string, any>>(self);
      expect(detail.status).toBe(200);
      expect(detail.body.code).toBe(code);
      for (const group of ['single_register_electricity_tariffs', 'dual_register_electricity_tariffs', 'single_register_gas_tariffs']) {
        for (const region of Object.values(detail.body[group] ?? {}) as Record<string, { code: string; links: { href: string; rel: string }[] }>[]) {
          for (const tariff of Object.values(region)) {
            for (const link of tariff.links) {
              expect(link.href.startsWith(`${base}products/${code}/`)).toBe(true);
              expect(link.href).toContain(`/${tariff.code}/`);
              const page = await getJson<Page>(link.href);
              expect(page.status, link.href).toBe(200);
              expect(page.body.results).toHaveLength(Math.min(page.body.count, 100));
              links += 1;
            }
          }
        }
      }
    }
    expect(links).toBeGreaterThan(100);
    const detail = (await getJson<Record<string, any>>(`${base}products/AGILE-18-02-21/`)).body;
    expect(Object.keys(detail.single_register_electricity_tariffs)).toEqual(
      ['_A', '_B', '_C', '_D', '_E', '_F', '_G', '_H', '_J', '_K', '_L', '_M', '_N', '_P'],
    );
    const a = detail.single_register_electricity_tariffs._A.direct_debit_monthly;
    expect(a.code).toBe('E-1R-AGILE-18-02-21-A');
    expect(a.links.map((l: { rel: string }) => l.rel).sort()).toEqual(['standard_unit_rates', 'standing_charges']);
    const var22 = (await getJson<Record<string, any>>(`${base}products/VAR-22-11-01/`)).body;
    expect(var22.dual_register_electricity_tariffs._A.varying.links.map((l: { rel: string }) => l.rel))
      .toEqual(['standing_charges', 'day_unit_rates', 'night_unit_rates']);
  });
});

describe('sandbox errors', () => {
  it.each([
    ['products/NO-SUCH-PRODUCT/'],
    ['products/AGILE-18-02-21/electricity-tariffs/E-1R-NOPE-A/standard-unit-rates/'],
    // product/tariff mismatch
    ['products/VAR-17-01-11/electricity-tariffs/E-1R-AGILE-18-02-21-A/standard-unit-rates/'],
    // a gas path for an electricity tariff, and day rates of a single-register tariff
    ['products/AGILE-18-02-21/gas-tariffs/E-1R-AGILE-18-02-21-A/standard-unit-rates/'],
    ['products/AGILE-18-02-21/electricity-tariffs/E-1R-AGILE-18-02-21-A/day-unit-rates/'],
    ['no-such-endpoint/'],
  ])('404 Not found. for %s', async (path) => {
    const { status, body, headers } = await getJson(`${base}${path}`);
    expect(status).toBe(404);
    expect(headers.get('content-type')).toBe('application/json');
    expect(body).toEqual({ detail: 'Not found.' });
  });

  it('400 envelope naming each bad parameter', async () => {
    const { status, body } = await getJson(`${base}${AGILE_A}?period_from=yesterday&period_to=2020-13-01T00:00:00Z&page_size=0`);
    expect(status).toBe(400);
    expect(body.code).toBe('invalid_parameters');
    expect(typeof body.detail).toBe('string');
    expect(body.errors.map((e: { attr: string; code: string }) => [e.attr, e.code])).toEqual([
      ['period_from', 'invalid'], ['period_to', 'invalid'], ['page_size', 'invalid'],
    ]);
    expect((await getJson(`${base}${AGILE_A}?page_size=1501`)).status).toBe(400);
    expect((await getJson(`${base}${AGILE_A}?page_size=1500`)).status).toBe(200);
    // a '+' left unencoded arrives as a space: not a datetime
    expect((await getJson(`${base}${AGILE_A}?period_from=2020-10-25T01:00:00+01:00`)).body.errors[0].attr).toBe('period_from');
    expect((await getJson(`${base}products/?is_green=maybe`)).body.errors[0].attr).toBe('is_green');
  });

  it('404 Invalid page. beyond the last page', async () => {
    expect(await getJson(`${base}${AGILE_C}?page=3`)).toMatchObject({ status: 404, body: { detail: 'Invalid page.' } });
    expect((await getJson(`${base}${AGILE_C}?page=2`)).status).toBe(200);
    expect((await getJson(`${base}${AGILE_C}?page=0`)).status).toBe(404);
    const empty = await getJson<Page>(`${base}${AGILE_C}?period_from=2030-01-01T00:00:00Z`);
    expect(empty).toMatchObject({ status: 200, body: { count: 0, next: null, previous: null, results: [] } });
  });

  it('redirects a missing trailing slash and refuses other methods', async () => {
    const res = await request(`${base}${AGILE_C.slice(0, -1)}?page_size=5`);
    await res.body.dump();
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe(`${base}${AGILE_C}?page_size=5`);
    const post = await getJson(`${base}products/`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('sandbox accounts and tokens', () => {
  const basic = (user: string) => `Basic ${Buffer.from(`${user}:`).toString('base64')}`;
  const obtainToken = async (body: unknown) =>
    getJson(`${base}graphql/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('401 without or with wrong credentials, 200 with the API key, 404 for another account', async () => {
    const url = `${base}accounts/${SANDBOX_ACCOUNT}/`;
    expect(await getJson(url)).toMatchObject({ status: 401, body: { detail: 'Authentication credentials were not provided.' } });
    expect(await getJson(url, { headers: { authorization: basic('sk_live_wrong') } }))
      .toMatchObject({ status: 401, body: { detail: 'Invalid API key.' } });
    const ok = await getJson(url, { headers: { authorization: basic(SANDBOX_API_KEY) } });
    expect(ok.status).toBe(200);
    expect(ok.body.number).toBe(SANDBOX_ACCOUNT);
    const agreements = ok.body.properties[0].electricity_meter_points[0].agreements;
    expect(agreements).toEqual([
      { tariff_code: 'E-1R-AGILE-18-02-21-A', valid_from: '2019-01-01T00:00:00Z', valid_to: '2020-01-01T00:00:00Z' },
      { tariff_code: 'E-1R-VAR-17-01-11-A', valid_from: '2020-01-01T00:00:00Z', valid_to: null },
    ]);
    expect(ok.body.properties[1].electricity_meter_points[0].agreements[0].tariff_code).toBe('E-2R-VAR-22-11-01-A');
    expect((await getJson(`${base}accounts/A-00000000/`, { headers: { authorization: basic(SANDBOX_API_KEY) } })).status).toBe(404);
  });

  it('obtainKrakenToken: a token that opens the account; a wrong key is a GraphQL error with HTTP 200', async () => {
    const bad = await obtainToken({ query: 'mutation { obtainKrakenToken(input: {APIKey: "sk_live_nope"}) { token } }' });
    expect(bad.status).toBe(200);
    expect(bad.body.data).toEqual({ obtainKrakenToken: null });
    expect(bad.body.errors[0]).toMatchObject({ message: 'Invalid API key.', extensions: { errorCode: 'KT-CT-1119' } });

    const before = Math.floor(Date.now() / 1000);
    const literal = await obtainToken({ query: `mutation { obtainKrakenToken(input: {APIKey: "${SANDBOX_API_KEY}"}) { token payload refreshToken refreshExpiresIn } }` });
    const viaVariables = await obtainToken({
      query: 'mutation Obtain($input: ObtainJSONWebTokenInput!) { obtainKrakenToken(input: $input) { token } }',
      variables: { input: { APIKey: SANDBOX_API_KEY } },
    });
    const issued = literal.body.data.obtainKrakenToken;
    expect(typeof issued.token).toBe('string');
    expect(issued.payload.exp - issued.payload.iat).toBe(3600);
    expect(issued.payload.iat).toBeGreaterThanOrEqual(before);
    expect(viaVariables.body.data.obtainKrakenToken.token).not.toBe(issued.token);

    const url = `${base}accounts/${SANDBOX_ACCOUNT}/`;
    expect((await getJson(url, { headers: { authorization: `Token ${issued.token}` } })).status).toBe(200);
    expect(await getJson(url, { headers: { authorization: 'Token not-a-token' } })).toMatchObject({ status: 401 });
    const refreshed = await obtainToken({ query: `mutation { obtainKrakenToken(input: {refreshToken: "${issued.refreshToken}"}) { token } }` });
    const again = refreshed.body.data.obtainKrakenToken.token as string;
    expect((await getJson(url, { headers: { authorization: `Token ${again}` } })).status).toBe(200);
    // a refresh token is good once
    const reused = await obtainToken({ query: `mutation { obtainKrakenToken(input: {refreshToken: "${issued.refreshToken}"}) { token } }` });
    expect(reused.body.data.obtainKrakenToken).toBeNull();
  });

  it('tokens expire after tokenTtlSeconds (clock injected)', async () => {
    let now = new Date('2026-01-01T12:00:00Z');
    const timed = await startSandbox({ tokenTtlSeconds: 60, now: () => now });
    try {
      const res = await getJson(`${timed.baseUrl}graphql`, {
        method: 'POST',
        body: JSON.stringify({ query: 'mutation($k: String!) { obtainKrakenToken(input: {APIKey: $k}) { token } }', variables: { k: SANDBOX_API_KEY } }),
      });
      const { token, payload } = res.body.data.obtainKrakenToken;
      expect(payload.exp).toBe(Date.parse('2026-01-01T12:01:00Z') / 1000);
      const url = `${timed.baseUrl}accounts/${SANDBOX_ACCOUNT}/`;
      now = new Date('2026-01-01T12:00:59Z');
      expect((await getJson(url, { headers: { authorization: `Token ${token}` } })).status).toBe(200);
      now = new Date('2026-01-01T12:01:00Z');
      expect(await getJson(url, { headers: { authorization: `Token ${token}` } }))
        .toMatchObject({ status: 401, body: { detail: 'Token has expired.' } });
    } finally {
      await timed.close();
    }
  });
});

describe('sandbox request log', () => {
  it('records method, path with query, headers and bodies; resetRequests empties it', async () => {
    sandbox.resetRequests();
    await getJson(`${base}${AGILE_C}?page_size=5`);
    await getJson(`${base}graphql/`, { method: 'POST', body: '{"query":"{ x }"}' });
    expect(sandbox.requests).toHaveLength(2);
    const [rates, graphql] = sandbox.requests;
    expect(rates).toMatchObject({ method: 'GET', path: `/v1/${AGILE_C}?page_size=5` });
    expect(rates!.headers.authorization).toBeUndefined();
    expect(rates!.headers.host).toBe(new URL(base).host);
    expect(graphql).toMatchObject({ method: 'POST', path: '/v1/graphql/', body: '{"query":"{ x }"}' });
    const same = sandbox.requests;
    sandbox.resetRequests();
    expect(same).toHaveLength(0);
  });
});

describe('sandbox addTariff', () => {
  it('serves a million added rates, paged, under a made-up product that is listed', async () => {
    const extra = await startSandbox();
    try {
      const rates = halfHourlyRates('2000-01-01T00:00:00Z', 1_000_000, (i) => (i % 97) / 4);
      extra.addTariff({ tariffCode: 'E-1R-BENCH-00-01-01-B', rates, product: { full_name: 'Benchmark tariff' } });
      const path = `${extra.baseUrl}products/BENCH-00-01-01/electricity-tariffs/E-1R-BENCH-00-01-01-B/standard-unit-rates/`;
      const page = await getJson<Page>(`${path}?period_from=2030-01-01T00:00:00Z&period_to=2030-02-01T00:00:00Z&page_size=1500&page=1`);
      expect(page.body.count).toBe(31 * 48);
      expect(page.body.results[0]!.valid_from).toBe('2030-01-31T23:30:00Z');
      const last = await getJson<Page>(`${path}?page_size=1500&page=667`);
      expect(last.body.count).toBe(1_000_000);
      expect(last.body.results.at(-1)!.valid_from).toBe('2000-01-01T00:00:00Z');
      const listed = await getJson<Page<Product>>(`${extra.baseUrl}products/?brand=OCTOPUS_ENERGY`);
      expect(listed.body.results.find((p) => p.code === 'BENCH-00-01-01')).toMatchObject({ full_name: 'Benchmark tariff' });
      const detail = await getJson<Record<string, any>>(`${extra.baseUrl}products/BENCH-00-01-01/`);
      const href = detail.body.single_register_electricity_tariffs._B.direct_debit_monthly.links
        .find((l: { rel: string }) => l.rel === 'standard_unit_rates').href;
      expect(href).toBe(path);
      // the other sandbox does not see it
      expect((await getJson(`${base}products/BENCH-00-01-01/`)).status).toBe(404);
    } finally {
      await extra.close();
    }
  });
});

describe('sandbox faults', () => {
  const rates = () => `${base}${AGILE_C}`;

  it('parses the grammar and names a malformed spec', () => {
    expect(parseFaultSpec('503:path=page=2,after=1,every=2,times=3,retry_after=5')).toMatchObject({
      kind: '503', path: 'page=2', after: 1, every: 2, times: 3, retryAfter: 5,
    });
    for (const bad of ['bogus', 'latency', 'reset:ms=5', '429:retry_after=soon', '503:times=0', 'truncate:', '500:every', '429:retry_after=1,retry_after_date=2']) {
      expect(() => parseFaultSpec(bad)).toThrow(`'${bad}'`);
    }
    sandbox.setFaults(['500']);
    expect(() => sandbox.setFaults(['500', 'nope'])).toThrow("'nope'");
  });

  it('rejects a malformed spec at start', async () => {
    await expect(startSandbox({ faults: ['stall'] })).rejects.toThrow("'stall'");
  });

  it('latency delays matching requests only', async () => {
    sandbox.setFaults(['latency:ms=250,path=AGILE-18-02-21-C']);
    let t = performance.now();
    expect((await getJson(rates())).status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(240);
    await getJson(`${base}products/`); // not matched: served at once (how fast is the machine's business)
    sandbox.setFaults([]);
    sandbox.setLatency(150);
    t = performance.now();
    await getJson(`${base}products/`);
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
  });

  it('429 with Retry-After seconds, once', async () => {
    sandbox.setFaults(['429:retry_after=7,times=1']);
    const first = await getJson(rates());
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    expect(first.body.detail).toContain('7 seconds');
    expect((await getJson(rates())).status).toBe(200);
  });

  it("profileFaults take the place of the spec profile's own throttling", async () => {
    const spec = await startSandbox({ profile: 'spec', profileFaults: ['429:retry_after=0,every=3'] });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 6; i++) {
        const res = await getJson(`${spec.baseUrl}products/`);
        statuses.push(res.status);
        if (res.status === 429) retryAfter = res.headers.get('retry-after');
      }
      // every third request throttled, told to retry at once; none of the profile's own faults
      expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
      expect(retryAfter).toBe('0');
    } finally {
      await spec.close();
    }
    await expect(startSandbox({ profile: 'spec', profileFaults: ['429:retry_after=soon'] })).rejects.toThrow(/retry_after/);
  });

  it('429 with Retry-After as an HTTP date', async () => {
    const now = new Date('2026-03-29T00:59:30Z');
    const timed = await startSandbox({ now: () => now, faults: ['429:retry_after_date=45'] });
    try {
      const res = await getJson(`${timed.baseUrl}products/`);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('Sun, 29 Mar 2026 01:00:15 GMT');
    } finally {
      await timed.close();
    }
  });

  it.each([
    ['500', 'text/html'],
    ['502', 'text/html'],
    ['503', 'application/json'],
    ['504', 'text/html'],
  ])('%s answers that status (%s body)', async (kind, type) => {
    sandbox.setFaults([`${kind}:retry_after=3`]);
    const res = await fetch(rates());
    const text = await res.text();
    expect(res.status).toBe(Number(kind));
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('retry-after')).toBe('3');
    if (type === 'application/json') expect(JSON.parse(text).detail).toMatch(/unavailable/);
    else expect(text).toMatch(/<html/);
  });

  it('reset destroys the connection before any response', async () => {
    sandbox.setFaults(['reset:times=1']);
    const error = await fetch(rates()).then(() => undefined, (e: unknown) => e as Error & { cause?: { code?: string } });
    expect(error).toBeInstanceOf(TypeError);
    expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain(error!.cause?.code);
    expect((await getJson(rates())).status).toBe(200);
  });

  it('stall-headers never answers; the client times out and close() does not hang', async () => {
    const stalled = await startSandbox({ faults: ['stall-headers'] });
    const error = await fetch(`${stalled.baseUrl}products/`, { signal: AbortSignal.timeout(300) })
      .then(() => undefined, (e: unknown) => e as Error);
    expect(error?.name).toBe('TimeoutError');
    await stalled.close(); // a close() that hung would outlive the test's timeout
  });

  it('stall-body sends headers and part of the body, then stalls', async () => {
    sandbox.setFaults(['stall-body:bytes=40,times=1']);
    const controller = new AbortController();
    const res = await fetch(rates(), { signal: controller.signal });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(40);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.value?.length).toBe(40);
    const timer = setTimeout(() => controller.abort(), 300);
    await expect(reader.read()).rejects.toThrow();
    clearTimeout(timer);
  });

  it('truncate ends the response cleanly with a cut JSON body', async () => {
    const full = await (await fetch(rates())).text();
    sandbox.setFaults(['truncate:times=1']);
    const res = await fetch(rates());
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text.length).toBe(Math.floor(full.length / 2));
    expect(full.startsWith(text)).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('invalid-record corrupts one record of a page with records', async () => {
    sandbox.setFaults(['invalid-record:times=1', 'invalid-record:field=valid_from,value=missing,index=3,path=page=2']);
    const page1 = await getJson<Page>(rates());
    expect(page1.body.results[0]!.value_inc_vat).toBe('abc');
    expect(page1.body.results.slice(1).every((r) => typeof r.value_inc_vat === 'number')).toBe(true);
    const page2 = await getJson<Page>(page1.body.next!);
    expect('valid_from' in page2.body.results[3]!).toBe(false);
    expect(page2.body.results[2]!.valid_from).toBeTypeOf('string');
    expect((await getJson<Page>(rates())).body.results[0]!.value_inc_vat).toBeTypeOf('number');
  });

  it('selectors: path, after, every, times pick requests deterministically', async () => {
    const statuses = async (n: number, url = rates()) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const res = await fetch(url);
        await res.arrayBuffer();
        out.push(res.status);
      }
      return out;
    };
    sandbox.setFaults(['503:after=2']);
    expect(await statuses(4)).toEqual([200, 200, 503, 503]);
    sandbox.setFaults(['500:every=3']);
    expect(await statuses(6)).toEqual([200, 200, 500, 200, 200, 500]);
    sandbox.setFaults(['502:times=2']);
    expect(await statuses(3)).toEqual([502, 502, 200]);
    sandbox.setFaults(['504:after=1,every=2,times=2']);
    expect(await statuses(8)).toEqual([200, 200, 504, 200, 504, 200, 200, 200]);
    sandbox.setFaults(['503:path=E-1R-VAR-17-01-11-A']);
    expect(await statuses(2)).toEqual([200, 200]);
    expect(await statuses(1, `${base}${VAR_A}`)).toEqual([503]);
  });
});

describe('sandbox close', () => {
  it('closes with idle keep-alive connections open', async () => {
    const s = await startSandbox();
    const res = await request(`${s.baseUrl}products/`);
    await res.body.json();
    expect(res.headers.connection).toBe('keep-alive');
    await s.close();
    await s.close(); // twice: the second is a no-op; a hang would outlive the test's timeout
  });
});

describe('tariffs sandbox (CLI)', () => {
  it('prints its base URL, serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--fault', 'latency:ms=1'], {
      env: { ...process.env, TARIFFS_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: string) => {
        stdout += d;
        if (stdout.includes('\n')) resolve(stdout.trim());
      });
      child.on('exit', () => reject(new Error(`sandbox exited early: ${stdout}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/$/);
    const { status, body } = await getJson<Page>(`${url}${VAR_A}`);
    expect(status).toBe(200);
    expect(body.count).toBe(6);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 naming a malformed --fault', async () => {
    const result = await runCli(['sandbox', '--port', '0', '--fault', '503:times=x']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("'503:times=x'");
  });
});
