// compare --ahead against the sandbox (issue 55): answering needs a products refresh and the rates of
// the tariffs compared, nothing per tariff beyond them, and compare itself asks the API nothing;
// the sandbox publishes the next day's half-hourly prices at 16:00 its (pinned) time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY, startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { HOUSEHOLD } from '../src/sandbox/loadSandboxData.js';
import { runCli } from './helpers/runCli.js';

const AGILE = 'E-1R-AGILE-18-02-21-J';
const AS_OF = '2023-10-28T17:00:00+01:00';
let dir = '';
let db = '';
let sandbox: Sandbox;
const env = { TARIFFS_API_KEY: SANDBOX_API_KEY };

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => new Date(AS_OF), dayAhead: true, onSaleAtClock: true });
  dir = mkdtempSync(join(tmpdir(), 'tariffs-ahead-requests-'));
  db = join(dir, 'household.duckdb');
  const ingest = await runCli(['ingest', '--account', SANDBOX_ACCOUNT, '--from', '2023-09-01', '--to', AS_OF,
    '--db', db, '--base-url', sandbox.baseUrl, '--format', 'json'], { env });
  expect(ingest.code, ingest.stderr).toBe(0);
}, 180_000);
afterAll(async () => {
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('compare --ahead and the sandbox', () => {
  it('a products refresh plus the rates of the tariffs compared, then no request at all', async () => {
    sandbox.resetRequests();
    const fetch = await runCli(['ingest', '--tariff', AGILE, '--from', '2023-09-29', '--to', '2023-10-31',
      '--db', db, '--base-url', sandbox.baseUrl, '--format', 'json'], { env });
    expect(fetch.code, fetch.stderr).toBe(0);
    const paths = sandbox.requests.map((r) => r.path.split('?')[0]);
    expect(paths.filter((p) => p === '/v1/products/')).toHaveLength(1);
    const rates = `/v1/products/AGILE-18-02-21/electricity-tariffs/${AGILE}/`;
    expect(paths.filter((p) => p !== '/v1/products/').every((p) => p!.startsWith(rates))).toBe(true);
    expect(paths.length).toBeLessThanOrEqual(3);
    const before = sandbox.requests.length;
    const answer = await runCli(['compare', '--meter', HOUSEHOLD.importMpan, '--ahead', 'tomorrow', '--as-of', AS_OF,
      '--tariff', AGILE, '--db', db, '--format', 'json']);
    expect(answer.code, answer.stderr).toBe(0);
    expect(sandbox.requests.length).toBe(before);
    const rows = JSON.parse(answer.stdout) as Record<string, unknown>[];
    const agile = rows.find((r) => r.tariff_code === AGILE)!;
    // 17:00 on the eve of the fall-back day: its 50 prices published at 16:00, all stored
    expect([agile.half_hours, agile.published_share, agile.missing_half_hours]).toEqual([50, 1, 0]);
    expect(rows.find((r) => r.is_current === true)!.tariff_code).toBe(HOUSEHOLD.importTariffs[1]);
  }, 120_000);

  it('publishes a day\'s half-hourly prices at 16:00 London the day before, by its clock', async () => {
    const early = await startSandbox({ now: () => new Date('2023-10-28T15:59:00+01:00'), dayAhead: true });
    try {
      const url = `${early.baseUrl}products/AGILE-18-02-21/electricity-tariffs/${AGILE}/standard-unit-rates/?period_from=2023-10-28T00:00:00Z&period_to=2023-10-31T00:00:00Z`;
      const body = await (await fetch(url)).json() as { count: number; results: { valid_from: string }[] };
      expect(body.results.map((r) => r.valid_from).sort().at(-1)).toBe('2023-10-28T22:30:00Z');
      const late = await fetch(url.replace(early.baseUrl, sandbox.baseUrl));
      const lateBody = await late.json() as { results: { valid_from: string }[] };
      expect(lateBody.results.map((r) => r.valid_from).sort().at(-1)).toBe('2023-10-29T23:30:00Z');
    } finally {
      await early.close();
    }
  });
});
