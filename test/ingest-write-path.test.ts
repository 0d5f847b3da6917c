// The backfill's fast path, held to the slow one: unit rates checked by hand accept and refuse
// exactly what zod does (naming the same field), instants read by character codes equal
// Date.parse, chunks cut into one-page windows tile their span, and groups of whole row groups
// split a chunk at a rate's start without losing or repeating one. End to end: a backfill of
// more than a row group stores every rate the server serves, once, with the local fields a
// brute force gives, and a re-run changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OctopusClient } from '../src/api/OctopusClient.js';
import { plainUtcMs } from '../src/time/plainUtc.js';
import { fastRecordSchema, unitRateSchema } from '../src/api/schemas.js';
import { pageWindowMs, pageWindows } from '../src/ingest/planFetches.js';
import { ROW_GROUP_ROWS, takeGroup, type Pending } from '../src/ingest/RateWriter.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { prepareStaging, writeRateBatches, type RateKind } from '../src/store/writeRates.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { RateColumns, RatePageColumns, type RateRecord } from '../src/rates/RateColumns.js';
import { HALF_HOUR_MS, localDateOf, settlementPeriod, utcOffsetMinutes } from '../src/time/index.js';
import { ingest, query, tempDir } from './helpers/warehouseTools.js';

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('plainUtcMs', () => {
  it('equals Date.parse on every half-hour of 1999-2031 (leap days, clock changes, year ends)', () => {
    let checked = 0;
    for (let t = Date.parse('1999-12-31T00:00:00Z'); t < Date.parse('2031-01-02T00:00:00Z'); t += HALF_HOUR_MS) {
      const text = iso(t);
      if (plainUtcMs(text) !== Date.parse(text)) throw new Error(`${text}: ${plainUtcMs(text)}`);
      checked++;
    }
    expect(checked).toBeGreaterThan(540_000);
  });

  it('is NaN for every other form, and for impossible dates and times', () => {
    for (const text of [
      '2023-02-29T00:00:00Z', '2100-02-29T00:00:00Z', '2024-04-31T00:00:00Z', '2024-13-01T00:00:00Z', '2024-00-10T00:00:00Z',
      '2024-01-00T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:60:00Z', '2024-01-01T00:00:60Z', '2024-01-01 00:00:00Z',
      '2024-01-01T00:00:00+00:00', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00Z', '2024-1a-01T00:00:00Z', '20240101T000000Z',
      '2024-01-01T00:00:00z', '', 'not a date at all!!!', '0050-01-01T00:00:00Z', '0999-12-31T23:30:00Z',
    ]) {
      expect(plainUtcMs(text), text).toBeNaN();
    }
    // the day part is remembered: a valid day after an invalid time on it is still read
    expect(plainUtcMs('2024-02-29T25:00:00Z')).toBeNaN();
    expect(plainUtcMs('2024-02-29T23:30:00Z')).toBe(Date.parse('2024-02-29T23:30:00Z'));
  });
});

describe('fastRecordSchema', () => {
  const good = { value_exc_vat: 12.5, value_inc_vat: 13.125, valid_from: '2024-03-31T00:30:00Z', valid_to: '2024-03-31T01:00:00Z', payment_method: null };
  const variants: unknown[] = [
    good, { ...good, payment_method: 'DIRECT_DEBIT' }, { ...good, extra: [1, 2] }, { ...good, valid_to: null },
    { ...good, valid_from: '2024-03-31T01:30:00+01:00' }, { ...good, valid_from: '2024-03-31T00:30:00.000Z' },
    { ...good, value_inc_vat: -3 }, { ...good, value_exc_vat: 0 }, (({ payment_method: _pm, ...rest }) => rest)(good),
    // refused, each in one field
    { ...good, value_inc_vat: '13.1' }, { ...good, value_exc_vat: null }, { ...good, value_inc_vat: Infinity },
    { ...good, valid_from: '2024-02-30T00:00:00Z' }, { ...good, valid_from: 1711845000000 }, { ...good, valid_to: 'soon' },
    { ...good, valid_to: undefined }, { ...good, payment_method: 3 }, (({ valid_from: _vf, ...rest }) => rest)(good),
    null, [], 'rate', 42,
  ];

  it('accepts and refuses exactly what zod does, with the same field and message', () => {
    const fast = fastRecordSchema(unitRateSchema);
    let refused = 0;
    for (const value of variants) {
      const a = fast.safeParse(value);
      const b = unitRateSchema.safeParse(value);
      expect(a.success, JSON.stringify(value)).toBe(b.success);
      if (!a.success && !b.success) {
        refused++;
        expect(a.error.issues[0]!.path).toEqual(b.error.issues[0]!.path);
        expect(a.error.issues[0]!.message).toBe(b.error.issues[0]!.message);
      }
    }
    expect(refused).toBe(13);
  });

  it('accepts after refusing (its memory of the last instants is only of accepted ones)', () => {
    const fast = fastRecordSchema(unitRateSchema);
    expect(fast.safeParse({ ...good, valid_from: '2024-02-30T00:00:00Z' }).success).toBe(false);
    expect(fast.safeParse({ ...good, valid_from: '2024-02-30T00:00:00Z', valid_to: '2024-02-30T00:00:00Z' }).success).toBe(false);
    expect(fast.safeParse(good).success).toBe(true);
    expect(fast.safeParse({ ...good, valid_to: '' }).success).toBe(false);
  });
});

describe('page windows', () => {
  const series = (n: number, step = HALF_HOUR_MS, start = Date.parse('2024-03-30T00:00:00Z')) => {
    const page = new RatePageColumns();
    for (let i = n - 1; i >= 0; i--) page.push(start + i * step, start + i * step + step, i, i, null);
    return page.columns();
  };

  it('a page of half-hours with no gap gives its length as the page; anything else gives none', () => {
    expect(pageWindowMs(series(1500))).toBe(1500 * HALF_HOUR_MS);
    expect(pageWindowMs(series(100))).toBe(100 * HALF_HOUR_MS);
    expect(pageWindowMs(series(10, 2 * HALF_HOUR_MS))).toBeUndefined();
    const gap = series(10);
    gap.validFrom[3]! -= HALF_HOUR_MS;
    expect(pageWindowMs(gap)).toBeUndefined();
    expect(pageWindowMs(series(1))).toBeUndefined();
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

  it('takeGroup: whole row groups of unit rates, the last chunk cut at a rate start, nothing lost or repeated', () => {
    const chunk = (i: number, kind = 'standard') => ({ kind, from: new Date(Date.parse('2020-01-01T00:00:00Z') + i * 9_000 * HALF_HOUR_MS), to: undefined }) as never;
    const queued = () => {
      const items: Pending[] = Array.from({ length: 30 }, (_, i) => ({
        chunk: chunk(i), rates: series(9_000, HALF_HOUR_MS, Date.parse('2020-01-01T00:00:00Z') + i * 9_000 * HALF_HOUR_MS), queuedAt: 0,
      }));
      items.splice(3, 0, { chunk: chunk(99, 'standing_charge'), rates: series(2, 86_400_000), queuedAt: 0 });
      return items;
    };
    const pending = queued();
    const total = pending.reduce((n, p) => n + p.rates.length, 0);
    const group = takeGroup(pending, true);
    const unit = group.filter((p) => (p.chunk as { kind: string }).kind !== 'standing_charge');
    expect(unit.reduce((n, p) => n + p.rates.length, 0)).toBe(2 * 122_880); // capped at two row groups
    const cut = group.at(-1)!;
    const rest = pending[0]!;
    expect(cut.until).toEqual(rest.from);
    expect(Math.min(...rest.rates.validFrom)).toBe(cut.until!.getTime());
    expect(Math.max(...cut.rates.validFrom)).toBe(cut.until!.getTime() - HALF_HOUR_MS);
    expect(group.reduce((n, p) => n + p.rates.length, 0) + pending.reduce((n, p) => n + p.rates.length, 0)).toBe(total);
    // without alignment: everything up to the cap, whole chunks
    const loose = takeGroup(pending, false);
    expect(loose.every((p) => p.until === undefined)).toBe(true);
    expect(loose.reduce((n, p) => n + p.rates.length, 0)).toBeLessThanOrEqual(2 * 122_880);
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
        await warehouse.transaction(() => insert(1_500, 2 * ROW_GROUP_ROWS));
        await warehouse.transaction(() => insert(1_500 + 2 * ROW_GROUP_ROWS, 10_000));
        await warehouse.checkpoint();
        const n = 11_500 + 2 * ROW_GROUP_ROWS;
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

describe('batches staged through one data chunk, filled across their boundaries', () => {
  const tmp = tempDir('tariffs-staging-');
  afterAll(() => tmp.remove());

  it('stores each rate as given: its batch, its value, its open end (null) and payment method', async () => {
    // 2,047 + 2,050 + 1 + 5,000 rates: the chunk of 2,048 rows fills across batch ends, and nulls
    // (open-ended rates) and payment methods fall in different rows of successive fills
    const start = Date.parse('2024-01-01T00:00:00Z');
    const spec: { tariff: string; kind: RateKind; n: number; openEvery: number; method: (i: number) => string | null }[] = [
      { tariff: 'E-1R-STAGE-24-01-01-A', kind: 'standard', n: 2047, openEvery: 2046, method: () => null },
      { tariff: 'E-1R-STAGE-24-01-01-B', kind: 'standard', n: 2050, openEvery: 3, method: (i) => (i % 2 === 0 ? 'DIRECT_DEBIT' : null) },
      { tariff: 'E-1R-STAGE-24-01-01-C', kind: 'standard', n: 1, openEvery: 1, method: () => 'NON_DIRECT_DEBIT' },
      { tariff: 'E-1R-STAGE-24-01-01-D', kind: 'standard', n: 5000, openEvery: 1000, method: () => null },
    ];
    const records = spec.map(({ n, openEvery, method }, b) => Array.from({ length: n }, (_, i): RateRecord => ({
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
        tariffCode: tariff, kind, runId: 1, rates: RateColumns.of(records[b]!),
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
