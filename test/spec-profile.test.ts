// Against a server of only the documented interface (`tariffs sandbox --profile spec`): what the
// profile serves and refuses, and the ingest's required/optional resource rules — a whole real
// series stored with one warning per tariff about its standing charges, exit 0, the same
// unit_rates as against the full sandbox; a second run costs one rates request per tariff;
// `tariffs status` names what is missing; empty rates are reported, never a silent success.
// Runs only in the `spec` project of vitest.config.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hintFor } from '../src/ingest/emptyRates.js';
import { targetFromCode } from '../src/ingest/resolveTargets.js';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY, startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { runCli, type CliResult } from './helpers/runCli.js';
import { UNHURRIED_SPEC_FAULTS } from './helpers/testProfile.js';
import { ingest, query, ratesFingerprint, tempDir } from './helpers/warehouseTools.js';

const A = 'E-1R-AGILE-18-02-21-A';
const J = 'E-1R-AGILE-18-02-21-J';
const FROM = '2017-01-01';

let spec: Sandbox;
let full: Sandbox;
/** The backfill's own spec server, so that it runs while the profile's cases below count their
 *  own requests on `spec`; throttled as the profile is, told to retry at once (testProfile.ts). */
let backfillSpec: Sandbox;
let backfillRun: Promise<CliResult>;
const tmp = tempDir('tariffs-spec-');
const db = tmp.file('spec.duckdb');
const reference = tmp.file('full.duckdb');

function ingestArgs(target: string, baseUrl: string, ...extra: string[]): string[] {
  return ['ingest', '--tariff', A, '--tariff', J, '--db', target, '--base-url', baseUrl, '--format', 'json', ...extra];
}

/** pino JSON lines of stderr. */
function logLines(stderr: string): Record<string, unknown>[] {
  return stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function get(sandbox: Sandbox, path: string): Promise<{ status: number; headers: Headers; json: any }> {
  const response = await fetch(new URL(path, sandbox.baseUrl));
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text.startsWith('{') ? JSON.parse(text) : text };
}

/** Asks until an answer is not throttled (the profile's 429/503 come by request order). */
async function getUnthrottled(sandbox: Sandbox, path: string): Promise<{ status: number; headers: Headers; json: any }> {
  for (;;) {
    const reply = await get(sandbox, path);
    if (reply.status !== 429 && reply.status !== 503) return reply;
  }
}

beforeAll(async () => {
  [spec, full, backfillSpec] = await Promise.all([startSandbox({ profile: 'spec' }), startSandbox(), startSandbox({ profile: 'spec', profileFaults: UNHURRIED_SPEC_FAULTS })]);
  backfillRun = runCli(ingestArgs(db, backfillSpec.baseUrl, '--from', FROM));
  backfillRun.catch(() => {}); // awaited by the ingest cases' beforeAll
  await ingest(reference, full.baseUrl, { tariffs: [A, J], from: new Date(`${FROM}T00:00:00Z`), noProducts: true });
});
afterAll(async () => {
  await backfillRun?.catch(() => {});
  await Promise.all([spec, full, backfillSpec].map((s) => s?.close()));
  tmp.remove();
});

describe('tariffs sandbox --profile spec', () => {
  const rates = (kind: string) => `products/AGILE-18-02-21/electricity-tariffs/${A}/${kind}/`;

  it('serves products (25 a page, with undocumented fields), detail, standard unit rates (100 a page, page_size ignored)', async () => {
    const products = await getUnthrottled(spec, 'products/?page_size=1500');
    expect(products.status).toBe(200);
    expect(products.json.results).toHaveLength(25);
    expect(products.json.count).toBeGreaterThan(25);
    expect(products.json.next).toMatch(/page=2/);
    // fields the spec does not list, on the envelope and on each record
    expect(Object.keys(products.json).sort()).not.toEqual(['count', 'next', 'previous', 'results']);
    const documented = ['code', 'direction', 'full_name', 'display_name', 'description', 'is_variable', 'is_green',
      'is_tracker', 'is_prepay', 'is_business', 'is_restricted', 'term', 'available_from', 'available_to', 'links', 'brand'];
    for (const product of products.json.results) {
      expect(Object.keys(product).filter((k) => !documented.includes(k)).length).toBeGreaterThan(0);
    }
    expect((await getUnthrottled(spec, 'products/AGILE-18-02-21/')).json.code).toBe('AGILE-18-02-21');
    const page = await getUnthrottled(spec, `${rates('standard-unit-rates')}?page_size=1500&period_from=2020-01-01T00:00Z`);
    expect(page.status).toBe(200);
    expect(page.json.results).toHaveLength(100);
    expect(page.json.count).toBeGreaterThan(1500);
  });

  it('answers 404 to what the spec does not document', async () => {
    for (const path of [rates('standing-charges'), rates('day-unit-rates'), rates('night-unit-rates'),
      'products/VAR-17-01-11/gas-tariffs/G-1R-VAR-17-01-11-A/standing-charges/']) {
      expect((await getUnthrottled(spec, path)).status, path).toBe(404);
    }
    const graphql = await fetch(new URL('graphql/', spec.baseUrl), { method: 'POST', body: '{}' });
    await graphql.text();
    expect([404, 429, 503]).toContain(graphql.status);
    // and the full sandbox serves the same standing charges
    expect((await get(full, rates('standing-charges'))).status).toBe(200);
  });

  it('throttles a share of requests with Retry-After: 1, and now and then answers 503', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 200; i++) {
      const reply = await get(spec, 'products/AGILE-18-02-21/');
      statuses.push(reply.status);
      if (reply.status === 429) retryAfter = reply.headers.get('retry-after');
    }
    const throttled = statuses.filter((s) => s === 429).length;
    expect(throttled).toBeGreaterThanOrEqual(5);
    expect(throttled).toBeLessThanOrEqual(20);
    expect(retryAfter).toBe('1');
    expect(statuses).toContain(503);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(170);
  });
});

describe('ingest against a server of only the documented interface', () => {
  let backfill: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    backfill = await backfillRun; // started in the file's beforeAll, on backfillSpec
  }, 120_000);

  it('stores every half-hour of the whole real series and exits 0, with one warning per tariff about its standing charges', async () => {
    expect(backfill.code).toBe(0);
    const summary = JSON.parse(backfill.stdout)[0];
    expect(summary).toMatchObject({ status: 'ok', tariffs: 2, tariffs_failed: 0, errors: [] });
    expect(summary.missing_optional.map((m: any) => [m.tariff, m.resource, m.status]).sort()).toEqual([
      [A, 'standing_charges', 404], [J, 'standing_charges', 404],
    ]);
    const warnings = logLines(backfill.stderr).filter((l) => l.resource !== undefined);
    expect(warnings.map((w) => [w.tariff, w.resource, w.status, w.level]).sort()).toEqual([
      [A, 'standing_charges', 404, 40], [J, 'standing_charges', 404, 40],
    ]);
    for (const w of warnings) expect(w.url).toMatch(/\/standing-charges\//);
    expect(logLines(backfill.stderr).filter((l) => (l.level as number) >= 50)).toEqual([]);
    // every half-hour the server has, and the same unit_rates as against the full interface
    const served = backfillSpec.tariffs().filter((t) => t.kind === 'standard-unit-rates' && [A, J].includes(t.tariffCode));
    const stored = await query(db, 'SELECT tariff_code, count(*) AS n FROM unit_rates GROUP BY 1 ORDER BY 1');
    expect(stored).toEqual(served.map((t) => ({ tariff_code: t.tariffCode, n: t.rows })).sort((a, b) => a.tariff_code.localeCompare(b.tariff_code)));
    expect(await ratesFingerprint(db)).toEqual(await ratesFingerprint(reference));
    expect(await query(db, 'SELECT count(*) AS n FROM standing_charges')).toEqual([{ n: 0 }]);
    const runs = await query(db, 'SELECT status, missing_optional FROM ingest_runs');
    expect(runs).toHaveLength(1);
    expect(runs[0]!.status).toBe('ok');
    expect(JSON.parse(runs[0]!.missing_optional as string)).toHaveLength(2);
  });

  it('a second run changes nothing and costs one rates request per tariff (standing charges not asked again today)', async () => {
    backfillSpec.resetRequests();
    const second = await runCli(ingestArgs(db, backfillSpec.baseUrl, '--no-products'));
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)[0]).toMatchObject({ status: 'ok', inserted: 0, updated: 0, pages: 2, missing_optional: [] });
    const asked = backfillSpec.requests.map((r) => r.path);
    expect(asked.filter((p) => p.includes('standing-charges'))).toEqual([]);
    expect(new Set(asked.filter((p) => p.includes('/standard-unit-rates/'))).size).toBe(2);
    expect(await ratesFingerprint(db)).toEqual(await ratesFingerprint(reference));
  });

  it('a day later the missing resource is asked for again, without re-fetching the stored rates', async () => {
    const copy = tmp.file('day-later.duckdb');
    await ingest(copy, spec.baseUrl, { tariffs: [A], from: new Date('2021-08-01T00:00:00Z'), noProducts: true });
    const writer = await import('../src/store/Warehouse.js').then((m) => m.Warehouse.open(copy));
    await writer.run(`UPDATE optional_resources SET checked_at = checked_at - INTERVAL 25 HOUR`);
    writer.close();
    spec.resetRequests();
    const summary = await ingest(copy, spec.baseUrl, { tariffs: [A], noProducts: true });
    expect(summary).toMatchObject({ status: 'ok', inserted: 0, updated: 0 });
    expect(summary.missing_optional.map((m) => m.resource)).toEqual(['standing_charges']);
    expect(new Set(spec.requests.map((r) => r.path).filter((p) => p.includes('standing-charges'))).size).toBe(1);
  });

  it('tariffs status shows the missing optional resource, as a table and as JSON', async () => {
    const table = await runCli(['status', '--db', db, '--format', 'table']);
    expect(table.code).toBe(0);
    const header = table.stdout.split('\n').find((l) => l.startsWith('tariff '))!;
    expect(header).toContain('missing_optional');
    for (const code of [A, J]) {
      expect(table.stdout.split('\n').find((l) => l.startsWith(code))).toContain('standing_charges (404)');
    }
    const json = await runCli(['status', '--db', db, '--format', 'json']);
    const status = JSON.parse(json.stdout);
    for (const t of status.tariffs) {
      expect(t.missing_optional).toEqual([expect.objectContaining({ resource: 'standing_charges', status: 404 })]);
    }
  });

  it("an account's consumption, which the spec does not document, is one warning per meter (events one more); its rates are stored, exit 0", async () => {
    const target = tmp.file('account.duckdb');
    const env = { TARIFFS_API_KEY: SANDBOX_API_KEY };
    const run = await runCli(['ingest', '--account', SANDBOX_ACCOUNT, '--from', '2023-06-10', '--to', '2023-06-12', '--db', target,
      '--base-url', spec.baseUrl, '--no-products', '--format', 'json'], { env });
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout)[0];
    expect(summary.status).toBe('ok');
    expect(summary.consumption_inserted).toBe(0);
    // the household's import, export and gas meters (and the account's older ones): each named once, with its URL and the 404
    const consumptionWarnings = summary.warnings.filter((w: string) => w.startsWith('consumption of '));
    expect(consumptionWarnings.length, summary.warnings.join('\n')).toBe(summary.consumption_meters);
    // and Power Up / Power Down events (GraphQL, which the spec does not document either): one more
    expect(summary.warnings.filter((w: string) => !w.startsWith('consumption of ') && /events not available/.test(w))).toHaveLength(1);
    expect(summary.warnings.length).toBe(summary.consumption_meters + 1);
    for (const meter of ['2000000000011:23J0000001', '2000000000012:23J0000001', '3000000001:G4P0000001']) {
      expect(summary.warnings.filter((w: string) => w.includes(` meter ${meter} not available`) && /: 404\); skipped$/.test(w))).toHaveLength(1);
    }
    expect(run.stderr).not.toContain(SANDBOX_API_KEY);
    // the agreements' tariffs' rates over the range (the account's Agile J import agreement among them)
    const stored = await query(target, `SELECT tariff_code, count(*) AS n FROM unit_rates
      WHERE tariff_code = 'E-1R-AGILE-18-02-21-J' GROUP BY 1`);
    expect(stored).toEqual([{ tariff_code: 'E-1R-AGILE-18-02-21-J', n: 96 }]);
    expect(await query(target, 'SELECT count(*) AS n FROM meter_points')).not.toEqual([{ n: 0 }]);
    expect(await query(target, 'SELECT count(*) AS n FROM consumption')).toEqual([{ n: 0 }]);
  });

  it('a tariff whose standard rates are empty is reported as such, not as a silent success', async () => {
    const empty = await runCli(['ingest', '--tariff', A, '--from', '2030-01-01', '--to', '2030-02-01', '--db', tmp.file('empty.duckdb'),
      '--base-url', spec.baseUrl, '--no-products', '--format', 'json']);
    expect(empty.code).toBe(0);
    const summary = JSON.parse(empty.stdout)[0];
    expect(summary.inserted).toBe(0);
    expect(summary.empty).toEqual([{ tariff: A, kind: 'standard', hint: null }]);
    expect(logLines(empty.stderr).some((l) => l.tariff === A && /no standard rates/.test(String(l.msg)))).toBe(true);
    const runs = await query(tmp.file('empty.duckdb'), 'SELECT empty_required FROM ingest_runs');
    expect(JSON.parse(runs[0]!.empty_required as string)).toEqual([{ tariff: A, kind: 'standard', hint: null }]);
  });
});

describe('the hint for empty rates, from the product detail', () => {
  const entry = (code: string, rels: string[]) => ({ code, links: rels.map((rel) => ({ href: 'x', method: 'GET', rel })) });
  it('points at --product/--region when the detail lists other rate kinds for the tariff', () => {
    const target = targetFromCode('E-1R-EV-FOUR-24-01-01-C', 'tariff');
    const detail = {
      code: 'EV-FOUR-24-01-01',
      four_rate_ev_electricity_tariffs: { _C: { direct_debit_monthly: entry(target.tariffCode, ['day_unit_rates', 'night_unit_rates', 'standing_charges']) } },
    };
    expect(hintFor(target, detail)).toMatch(/four_rate_ev_electricity_tariffs.*--product EV-FOUR-24-01-01 --region C/);
  });

  it('says nothing when the detail lists the tariff with the kinds asked for, and names a code it does not list', () => {
    const target = targetFromCode(A, 'tariff');
    const listed = { code: 'AGILE-18-02-21', single_register_electricity_tariffs: { _A: { direct_debit_monthly: entry(A, ['standard_unit_rates', 'standing_charges']) } } };
    expect(hintFor(target, listed)).toBeNull();
    expect(hintFor(target, { code: 'AGILE-18-02-21', single_register_electricity_tariffs: {} })).toMatch(/does not list E-1R-AGILE-18-02-21-A/);
    expect(hintFor(target, undefined)).toBeNull();
  });
});
