// The catalogue moves: each products refresh records what appeared in the supplier's list and
// what left it (product_changes; the first refresh is the baseline), `tariffs products --changes
// [--since]` lists them, and `status --check` names a tracked tariff whose product left the list
// and one whose rates stopped before today although its URL answers (the sandbox's own server).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { runCli } from './helpers/runCli.js';
import { ingest, query, tempDir } from './helpers/warehouseTools.js';

const GONE = { product: 'GONE-26-01-01', tariff: 'E-1R-GONE-26-01-01-A' };
const QUIET = { product: 'QUIET-26-01-01', tariff: 'E-1R-QUIET-26-01-01-A' };
const NEW = { product: 'SILVER-26-04-01', tariff: 'E-1R-SILVER-26-04-01-A' };
const rate = (exc: number, from: string, to: string | null) => ({ value_exc_vat: exc, value_inc_vat: exc * 1.05, valid_from: from, valid_to: to, payment_method: null });

let sandbox: Sandbox;
const tmp = tempDir('tariffs-catalogue-');
const db = tmp.file('catalogue.duckdb');
const FROM = new Date('2026-01-01T00:00:00Z');

beforeAll(async () => {
  sandbox = await startSandbox();
  sandbox.addTariff({ tariffCode: GONE.tariff, rates: [rate(20, '2026-01-01T00:00:00Z', null)] });
  // ends at London midnight (BST): its last day is 2026-03-31
  sandbox.addTariff({ tariffCode: QUIET.tariff, rates: [rate(18, '2026-01-01T00:00:00Z', '2026-03-31T23:00:00Z')] });
  // the baseline refresh, then the list moves: one product leaves, one appears
  expect((await ingest(db, sandbox.baseUrl, { tariffs: [GONE.tariff, QUIET.tariff], from: FROM })).status).toBe('ok');
  sandbox.setListed(GONE.product, false);
  sandbox.addTariff({ tariffCode: NEW.tariff, rates: [rate(21, '2026-04-01T00:00:00Z', null)] });
  expect((await ingest(db, sandbox.baseUrl, { tariffs: [GONE.tariff, QUIET.tariff], from: FROM })).status).toBe('ok');
});
afterAll(async () => {
  await sandbox.close();
  tmp.remove();
});

describe('product_changes', () => {
  it('the first refresh is a baseline; the second records one added and one withdrawn', async () => {
    expect(await query(db, 'SELECT product_code, change FROM product_changes ORDER BY change, product_code'))
      .toEqual([{ product_code: NEW.product, change: 'added' }, { product_code: GONE.product, change: 'withdrawn' }]);
    const [{ n }] = await query(db, 'SELECT count(DISTINCT seen_at) AS n FROM product_changes') as [{ n: number }];
    expect(n).toBe(1);
  });

  it('a refresh that sees no change records nothing, and a product listed again is added again', async () => {
    const copy = tmp.file('again.duckdb');
    await ingest(copy, sandbox.baseUrl, { tariffs: [] });
    await ingest(copy, sandbox.baseUrl, { tariffs: [] });
    expect(await query(copy, 'SELECT count(*) AS n FROM product_changes')).toEqual([{ n: 0 }]);
    sandbox.setListed(GONE.product, true);
    try {
      await ingest(copy, sandbox.baseUrl, { tariffs: [] });
    } finally {
      sandbox.setListed(GONE.product, false);
    }
    expect(await query(copy, 'SELECT product_code, change FROM product_changes')).toEqual([{ product_code: GONE.product, change: 'added' }]);
  });

  it('tariffs products --changes lists them; --since filters; --since alone is a usage error', async () => {
    const [all, later, alone] = await Promise.all([
      runCli(['products', '--changes', '--db', db, '--format', 'json']),
      runCli(['products', '--changes', '--since', '2099-01-01', '--db', db, '--format', 'json']),
      runCli(['products', '--since', '2026-01-01', '--db', db]),
    ]);
    expect(all.code).toBe(0);
    expect((JSON.parse(all.stdout) as { product_code: string; change: string }[]).map((r) => `${r.change} ${r.product_code}`))
      .toEqual([`added ${NEW.product}`, `withdrawn ${GONE.product}`]);
    expect(JSON.parse(later.stdout)).toEqual([]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--since goes with --changes');
  });
});

describe('status --check', () => {
  it('names the tracked tariff whose product left the list, and the quiet one with its last rate\'s day', async () => {
    const result = await runCli(['status', '--check', '--now', '2026-06-01T12:00:00Z', '--db', db, '--format', 'json']);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines.filter((l) => l.includes('left the supplier')).map((l) => l.split(':')[2]!.trim())).toEqual([GONE.tariff]);
    expect(lines.filter((l) => l.includes('quiet'))).toEqual([
      `tariffs: status: ${QUIET.tariff}: quiet: its rates stopped on 2026-03-31 although its URL still answers (a retired tariff?)`,
    ]);
    const status = JSON.parse(result.stdout) as { tariffs: { tariff: string; product_withdrawn_at: string | null; rates_stopped_on: string | null }[] };
    const byTariff = new Map(status.tariffs.map((t) => [t.tariff, t]));
    expect(byTariff.get(GONE.tariff)!.product_withdrawn_at).not.toBeNull();
    expect(byTariff.get(GONE.tariff)!.rates_stopped_on).toBeNull();
    expect(byTariff.get(QUIET.tariff)).toMatchObject({ product_withdrawn_at: null, rates_stopped_on: '2026-03-31' });
  });

  it('a product listed again after it left is not named: only its latest change counts', async () => {
    const relisted = tmp.file('relisted.duckdb');
    sandbox.setListed(GONE.product, true);
    try {
      expect((await ingest(relisted, sandbox.baseUrl, { tariffs: [GONE.tariff], from: FROM })).status).toBe('ok'); // baseline
      sandbox.setListed(GONE.product, false);
      expect((await ingest(relisted, sandbox.baseUrl, { tariffs: [GONE.tariff], from: FROM })).status).toBe('ok');
      sandbox.setListed(GONE.product, true);
      expect((await ingest(relisted, sandbox.baseUrl, { tariffs: [GONE.tariff], from: FROM })).status).toBe('ok');
    } finally {
      sandbox.setListed(GONE.product, false);
    }
    expect(await query(relisted, `SELECT change FROM product_changes WHERE product_code = '${GONE.product}' ORDER BY seen_at`))
      .toEqual([{ change: 'withdrawn' }, { change: 'added' }]);
    const result = await runCli(['status', '--check', '--now', '2026-06-01T12:00:00Z', '--db', relisted, '--format', 'json']);
    expect(result.stderr).not.toContain('left the supplier');
    const status = JSON.parse(result.stdout) as { tariffs: { tariff: string; product_withdrawn_at: string | null }[] };
    expect(status.tariffs.find((t) => t.tariff === GONE.tariff)).toMatchObject({ product_withdrawn_at: null });
  });

  it('the quiet tariff is named from the first day after its last rate, not on that day', async () => {
    const [lastDay, dayAfter] = await Promise.all(['2026-03-31T22:30:00+01:00', '2026-04-01T00:30:00+01:00']
      .map((now) => runCli(['status', '--check', '--now', now, '--db', db, '--format', 'json'])));
    const stopped = (r: { stdout: string }) => (JSON.parse(r.stdout) as { tariffs: { tariff: string; rates_stopped_on: string | null }[] })
      .tariffs.find((t) => t.tariff === QUIET.tariff)!.rates_stopped_on;
    expect(stopped(lastDay!)).toBeNull();
    expect(lastDay!.stderr).not.toContain('quiet');
    expect(stopped(dayAfter!)).toBe('2026-03-31');
    expect(dayAfter!.stderr).toContain(`${QUIET.tariff}: quiet: its rates stopped on 2026-03-31`);
  });

  it('before its rates ended the same tariff is not quiet', async () => {
    const result = await runCli(['status', '--check', '--now', '2026-03-15T12:00:00Z', '--db', db, '--format', 'json']);
    expect(result.stderr).not.toContain('quiet');
  });
});
