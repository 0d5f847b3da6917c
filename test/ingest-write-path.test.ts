// The rates' write path: one-page windows tile their span; a backfill of more than a commit stores
// every rate the server serves, once, with the local fields a brute force gives, and a re-run
// changes nothing; a batch stores each rate as given (open ends, payment methods, repeats).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OctopusClient } from '../src/api/OctopusClient.js';
import { pageWindowMs, pageWindows } from '../src/ingest/planFetches.js';
import { RATES_PER_COMMIT } from '../src/store/commitSize.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { prepareStaging, stagedRates, writeRateBatch, writeRateBatches, type Rate, type RateKind } from '../src/store/writeRates.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { HALF_HOUR_MS, localDateOf, settlementPeriod, utcOffsetMinutes } from '../src/time/index.js';
import { ingest, query, tempDir } from './helpers/warehouseTools.js';

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('page windows', () => {
  const series = (n: number, step = HALF_HOUR_MS, start = Date.parse('2024-03-30T00:00:00Z')): Rate[] =>
    Array.from({ length: n }, (_, k) => {
      const i = n - 1 - k; // newest first, as pages come
      return { valid_from: iso(start + i * step), valid_to: iso(start + i * step + step), value_exc_vat: i, value_inc_vat: i, payment_method: null };
    });

  it('a page of half-hours with no gap gives its length as the page; anything else gives none', () => {
    const windowOf = (rates: Rate[]) => pageWindowMs(stagedRates(rates));
    expect(windowOf(series(1500))).toBe(1500 * HALF_HOUR_MS);
    expect(windowOf(series(100))).toBe(100 * HALF_HOUR_MS);
    expect(windowOf(series(10, 2 * HALF_HOUR_MS))).toBeUndefined();
    const gap = series(10);
    gap[3] = { ...gap[3]!, valid_from: iso(Date.parse(gap[3]!.valid_from) - HALF_HOUR_MS) };
    expect(windowOf(gap)).toBeUndefined();
    expect(windowOf(series(1))).toBeUndefined();
  });

  it('windows tile a span exactly, the last one shorter; an open span stays whole', () => {
    const from = new Date('2024-01-01T00:00:00Z');
    const to = new Date(from.getTime() + 9_000 * HALF_HOUR_MS + 7 * HALF_HOUR_MS);
    const windows = pageWindows({ from, to }, 1500 * HALF_HOUR_MS);
    expect(windows).toHaveLength(7);
    expect(windows[0]!.from).toEqual(from);
    expect(windows.at(-1)!.to).toEqual(to);
    for (let i = 1; i < windows.length; i++) expect(windows[i]!.from).toEqual(windows[i - 1]!.to);
    expect(windows.at(-1)!.to!.getTime() - windows.at(-1)!.from.getTime()).toBe(7 * HALF_HOUR_MS);
    expect(pageWindows({ from, to: undefined }, 1500 * HALF_HOUR_MS)).toEqual([{ from, to: undefined }]);
    expect(pageWindows({ from, to }, undefined)).toEqual([{ from, to }]);
  });
});

describe("the ingest's session keeps row groups as committed", () => {
  const tmp = tempDir('tariffs-row-groups-');
  afterAll(() => tmp.remove());

  // How DuckDB lays out row groups is its business (and changes between versions): what is ours is
  // that the ingest's session asks for no vacuum at checkpoint, and that what was committed in
  // commits of 1,500 rows, two row groups and 10,000 is all there, once, after a CHECKPOINT.
  it('asks DuckDB for no vacuum tasks, and a checkpoint keeps every committed row once', async () => {
    for (const keepRowGroups of [true, false]) {
      const warehouse = await Warehouse.open(tmp.file(`keep-${keepRowGroups}.duckdb`), { keepRowGroups, threads: 1 });
      try {
        expect(await warehouse.one("SELECT current_setting('max_vacuum_tasks') = 0 AS kept")).toEqual({ kept: keepRowGroups });
        await warehouse.run('CREATE TABLE t (i BIGINT, x DOUBLE, s VARCHAR)');
        await warehouse.run('CHECKPOINT');
        const insert = (from: number, n: number) => warehouse.run(`INSERT INTO t SELECT i, i / 7, 'r' || (i % 48) FROM range(${from}, ${from + n}) r(i)`);
        await warehouse.transaction(() => insert(0, 1_500));
        await warehouse.transaction(() => insert(1_500, 2 * RATES_PER_COMMIT));
        await warehouse.transaction(() => insert(1_500 + 2 * RATES_PER_COMMIT, 10_000));
        await warehouse.checkpoint();
        const n = 11_500 + 2 * RATES_PER_COMMIT;
        expect(await warehouse.one('SELECT count(*) AS n, count(DISTINCT i) AS d, sum(i) AS s FROM t')).toEqual({ n, d: n, s: (n * (n - 1)) / 2 });
      } finally {
        warehouse.close();
      }
    }
  });
});

describe('a backfill of more than a row group', () => {
  const A = 'E-1R-AGILE-18-02-21-A';
  const J = 'E-1R-AGILE-18-02-21-J';
  const FROM = new Date('2018-01-01T00:00:00Z');
  let sandbox: Sandbox;
  const tmp = tempDir('tariffs-write-path-');
  const db = tmp.file('backfill.duckdb');

  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
    tmp.remove();
  });

  it('stores every served rate once, localised as a brute force says; a re-run changes nothing', async () => {
    const summary = await ingest(db, sandbox.baseUrl, { tariffs: [A, J], from: FROM, noProducts: true });
    expect(summary.status).toBe('ok');
    expect(summary.inserted).toBeGreaterThan(122_880);

    // what the server serves, walked the slow way: one open request per tariff, following `next`
    const client = new OctopusClient({ baseUrl: sandbox.baseUrl });
    for (const tariff of [A, J]) {
      const served = new Map<number, { exc: number; inc: number }>();
      for await (const page of client.electricityRates('AGILE-18-02-21', tariff, 'standard-unit-rates', { from: FROM })) {
        for (const r of page.records) served.set(Date.parse(r.valid_from), { exc: r.value_exc_vat, inc: r.value_inc_vat });
      }
      const rows = await query(db, `SELECT epoch_ms(valid_from) AS t, value_exc_vat AS exc, value_inc_vat AS inc, CAST(local_date AS VARCHAR) AS d,
          settlement_period AS sp, utc_offset_minutes AS off
        FROM unit_rates WHERE tariff_code = '${tariff}' ORDER BY valid_from`);
      expect(rows.length).toBe(served.size);
      for (const row of rows) {
        const t = Number(row.t);
        const want = served.get(t);
        if (!want || want.exc !== row.exc || want.inc !== row.inc) throw new Error(`${tariff} ${iso(t)}: ${JSON.stringify(row)} vs ${JSON.stringify(want)}`);
        const at = new Date(t);
        if (row.d !== localDateOf(at) || row.sp !== settlementPeriod(at).period || row.off !== utcOffsetMinutes(at)) {
          throw new Error(`${tariff} ${iso(t)}: local fields ${JSON.stringify(row)}`);
        }
      }
      const [cursor] = await query(db, `SELECT epoch_ms(fetched_from) AS f, epoch_ms(earliest_valid_from) AS e, epoch_ms(latest_valid_from) AS l
        FROM ingest_cursors WHERE tariff_code = '${tariff}' AND rate_kind = 'standard'`);
      expect(Number(cursor!.f)).toBe(FROM.getTime());
      expect(Number(cursor!.e)).toBe(Math.min(...served.keys()));
      expect(Number(cursor!.l)).toBe(Math.max(...served.keys()));
    }
    await client.http.close();

    const again = await ingest(db, sandbox.baseUrl, { tariffs: [A, J], noProducts: true });
    expect(again.status).toBe('ok');
    expect({ inserted: again.inserted, updated: again.updated }).toEqual({ inserted: 0, updated: 0 });
    expect(await query(db, `SELECT count(*) AS n FROM unit_rate_revisions`)).toEqual([{ n: 0 }]);
  });
});

describe('batches staged through data chunks', () => {
  const tmp = tempDir('tariffs-staging-');
  afterAll(() => tmp.remove());

  it('stores each rate as given: its batch, its value, its open end (null) and payment method', async () => {
    // 2,047 + 2,050 + 1 + 5,000 rates: batches of a data chunk's 2,048 rows and more, with nulls
    // (open-ended rates) and payment methods in different rows of successive chunks
    const start = Date.parse('2024-01-01T00:00:00Z');
    const spec: { tariff: string; kind: RateKind; n: number; openEvery: number; method: (i: number) => string | null }[] = [
      { tariff: 'E-1R-STAGE-24-01-01-A', kind: 'standard', n: 2047, openEvery: 2046, method: () => null },
      { tariff: 'E-1R-STAGE-24-01-01-B', kind: 'standard', n: 2050, openEvery: 3, method: (i) => (i % 2 === 0 ? 'DIRECT_DEBIT' : null) },
      { tariff: 'E-1R-STAGE-24-01-01-C', kind: 'standard', n: 1, openEvery: 1, method: () => 'NON_DIRECT_DEBIT' },
      { tariff: 'E-1R-STAGE-24-01-01-D', kind: 'standard', n: 5000, openEvery: 1000, method: () => null },
    ];
    const records = spec.map(({ n, openEvery, method }, b) => Array.from({ length: n }, (_, i): Rate => ({
      valid_from: new Date(start + i * HALF_HOUR_MS).toISOString(),
      // every openEvery-th rate open-ended (it never overlaps the next: the test reads rows back, not slots)
      valid_to: (i + 1) % openEvery === 0 ? null : new Date(start + (i + 1) * HALF_HOUR_MS).toISOString(),
      value_exc_vat: b * 100 + i / 1000,
      value_inc_vat: -(b * 100 + i / 1000),
      payment_method: method(i),
    })));
    const db = tmp.file('staged.duckdb');
    const warehouse = await Warehouse.open(db);
    try {
      await prepareStaging(warehouse);
      await writeRateBatches(warehouse, spec.map(({ tariff, kind }, b) => ({
        tariffCode: tariff, kind, runId: 1, rates: stagedRates(records[b]!),
        window: { from: new Date(start), until: new Date(start + 6000 * HALF_HOUR_MS) },
      })));
    } finally {
      warehouse.close();
    }
    const rows = await query(db, `SELECT tariff_code, epoch_ms(valid_from) AS f, epoch_ms(valid_to) AS t,
        value_exc_vat AS exc, value_inc_vat AS inc, payment_method AS pm FROM unit_rates`);
    const stored = new Map(rows.map((r) => [`${r.tariff_code as string} ${Number(r.f)} ${r.pm as string}`, r]));
    expect(rows.length).toBe(spec.reduce((n, s) => n + s.n, 0));
    spec.forEach(({ tariff }, b) => {
      for (const r of records[b]!) {
        const row = stored.get(`${tariff} ${Date.parse(r.valid_from)} ${r.payment_method}`);
        const want = { t: r.valid_to === null ? null : Date.parse(r.valid_to), exc: r.value_exc_vat, inc: r.value_inc_vat };
        const got = row && { t: row.t === null ? null : Number(row.t), exc: row.exc, inc: row.inc };
        if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${tariff} ${r.valid_from}: stored ${JSON.stringify(got)}, given ${JSON.stringify(want)}`);
      }
    });
  });
});

describe('what a batch stores', () => {
  const tmp = tempDir('tariffs-batch-');
  afterAll(() => tmp.remove());
  const rate = (from: string, to: string | null, price: number, pm: string | null = null): Rate => ({
    valid_from: from, valid_to: to, value_exc_vat: price, value_inc_vat: price * 1.05, payment_method: pm,
  });

  it('reads instants with an offset, keeps the last of a repeated rate and both payment methods of one instant', async () => {
    const db = tmp.file('batch.duckdb');
    const warehouse = await Warehouse.open(db);
    const window = { from: new Date('2024-01-01T00:00:00Z'), until: new Date('2024-04-01T00:00:00Z') };
    try {
      await prepareStaging(warehouse);
      await writeRateBatch(warehouse, {
        tariffCode: 'E-1R-BATCH-24-01-01-A', kind: 'standard', runId: 1, window, rates: stagedRates([
          rate('2024-03-31T01:30:00Z', '2024-03-31T02:00:00Z', 3),
          rate('2024-03-31T00:30:00+00:00', '2024-03-31T01:00:00Z', 1),
          rate('2024-01-01T00:30:00Z', '2024-01-01T01:00:00Z', 4),
          rate('2024-01-01T00:00:00Z', '2024-01-01T00:30:00Z', 5),
          rate('2024-01-01T00:30:00Z', '2024-01-01T01:00:00Z', 6), // a page overlap repeats it: the last wins
          rate('2024-02-01T00:00:00Z', null, 20, 'DIRECT_DEBIT'),
          rate('2024-02-01T00:00:00Z', null, 21, 'NON_DIRECT_DEBIT'),
        ]),
      });
    } finally {
      warehouse.close();
    }
    const rows = await query(db, `SELECT strftime(valid_from AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M') AS f,
        strftime(valid_to AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M') AS t, value_exc_vat AS exc, payment_method AS pm
      FROM unit_rates ORDER BY valid_from, payment_method`);
    expect(rows).toEqual([
      { f: '2024-01-01T00:00', t: '2024-01-01T00:30', exc: 5, pm: null },
      { f: '2024-01-01T00:30', t: '2024-01-01T01:00', exc: 6, pm: null },
      { f: '2024-02-01T00:00', t: null, exc: 20, pm: 'DIRECT_DEBIT' },
      { f: '2024-02-01T00:00', t: null, exc: 21, pm: 'NON_DIRECT_DEBIT' },
      { f: '2024-03-31T00:30', t: '2024-03-31T01:00', exc: 1, pm: null },
      { f: '2024-03-31T01:30', t: '2024-03-31T02:00', exc: 3, pm: null },
    ]);
  });
});
