// consumption has no primary key since migration 016 (issue 41: a portfolio's 175M readings in
// bounded memory): mergeConsumption keeps one row per meter, serial and half-hour with joins. An
// import beside a million stored readings needs no more than a small memory_limit (the key's index
// of those readings alone was bigger); a file made with the key is migrated with its rows; a
// reading the API repeats in one batch is stored once, its last value kept.
import { appendFileSync, cpSync, rmSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateMeters, mpanOf } from '../bench/generateMeters.js';
import { importConsumptionLong } from '../src/ingest/importConsumptionLong.js';
import { sqlDir } from '../src/paths.js';
import { writeConsumption } from '../src/store/writeConsumption.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { opened, tempDir } from './helpers/warehouseTools.js';

const tmp = tempDir('tariffs-unkeyed-');
afterAll(() => tmp.remove());

const HH = 1_800_000;
/** Meters of the long file that are not stored yet: a year of readings each (527,040 in all; the
 *  key's index of so many new rows needed more than 64 MB, and the import ran out of memory). */
const NEW_METERS = 30;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Each stored reading's key and kWh, and how many rows share a key (1 everywhere when unique). */
const readings = (w: Warehouse) => w.all(`SELECT meter_point, serial, epoch_ms(interval_start) AS at, kwh, local_date, settlement_period,
    count(*) OVER (PARTITION BY meter_point, serial, interval_start) AS copies
  FROM consumption ORDER BY meter_point, serial, interval_start`);

/** NEW_METERS meters (MPAN 29000000000000 + k) with a year of half-hours from 2023-03-01, written by DuckDB. */
async function newMetersCsv(file: string, meters: number): Promise<void> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`COPY (
        SELECT CAST(29000000000000 + k AS VARCHAR) AS meter_point, 'N' || k AS serial,
               strftime(TIMESTAMP '2023-03-01 00:00:00' + to_minutes(30 * i), '%Y-%m-%dT%H:%M:%SZ') AS interval_start,
               round((hash(k, i) % 1000) / 1000.0, 3) AS kwh
        FROM range(${meters}) AS a(k), range(17568) AS b(i)) TO '${file}' (HEADER, DELIMITER ',')`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** How many rows share each stored reading's key, as a relation (a million rows are not read into JS). */
const readingsSql = `SELECT count(*) OVER (PARTITION BY meter_point, serial, interval_start) AS copies FROM consumption`;

const consumptionConstraints = (w: Warehouse) => w.all(`SELECT constraint_type, constraint_text FROM duckdb_constraints()
  WHERE table_name = 'consumption' AND database_name = current_database() AND constraint_type <> 'NOT NULL' ORDER BY ALL`);

describe('a long import beside many stored readings', () => {
  it('stores half a million new readings, corrects and skips others within a 64 MB memory_limit, one row each', async () => {
    const db = tmp.file('many.duckdb');
    const meters = 60; // 1,054,080 readings: their key's index would be about 170 MB
    const stored = await opened(db, {}, (w) => generateMeters(w, meters, 'E-1R-GROWTH-A'));
    expect(stored.readings).toBe(meters * 17_568);
    // NEW_METERS meters' year, and meter 7's first week again (its first day's readings changed)
    const before = await opened(db, {}, (w) => w.all(`SELECT epoch_ms(interval_start) AS at, kwh, serial FROM consumption
      WHERE meter_point = $mp ORDER BY interval_start LIMIT 336`, { mp: mpanOf(7) }));
    const file = tmp.file('portfolio.csv');
    await newMetersCsv(file, NEW_METERS);
    const corrections = before.map((r, i) => `${mpanOf(7)},${String(r.serial)},${iso(Number(r.at))},${i < 48 ? Number(r.kwh) + 1 : Number(r.kwh)}`);
    appendFileSync(file, `${corrections.join('\n')}\n`);

    const summary = await opened(db, { memoryLimit: '64MB' }, (w) =>
      importConsumptionLong(w, { path: file, source: 'portfolio.csv', isExport: false, fuel: 'electricity' }));
    expect(summary).toMatchObject({ meters: NEW_METERS + 1, rows: NEW_METERS * 17_568 + 336, inserted: NEW_METERS * 17_568, updated: 48, unchanged: 288 });

    await opened(db, { readOnly: true }, async (w) => {
      const totals = await w.one(`SELECT count(*) AS n, max(copies) AS copies FROM (${readingsSql})`);
      expect({ n: Number(totals!.n), copies: Number(totals!.copies) }).toEqual({ n: (meters + NEW_METERS) * 17_568, copies: 1 });
      const week = await w.all(`SELECT epoch_ms(interval_start) AS at, kwh FROM consumption WHERE meter_point = $mp
        ORDER BY interval_start LIMIT 336`, { mp: mpanOf(7) });
      expect(week.map((r) => Number(r.kwh))).toEqual(before.map((r, i) => (i < 48 ? Number(r.kwh) + 1 : Number(r.kwh))));
      const revisions = await w.all(`SELECT epoch_ms(interval_start) AS at, old_kwh, new_kwh FROM consumption_revisions ORDER BY interval_start`);
      expect(revisions.map((r) => [Number(r.at), Number(r.old_kwh), Number(r.new_kwh)]))
        .toEqual(before.slice(0, 48).map((r) => [Number(r.at), Number(r.kwh), Number(r.kwh) + 1]));
      // a new meter's local days: 46 half-hours when the clocks go forward, 50 when they go back
      const days = await w.all(`SELECT count(*) AS days, count(*) FILTER (WHERE n = 48) AS ordinary,
          list(local_date::VARCHAR || ':' || n ORDER BY local_date) FILTER (WHERE n <> 48) AS others
        FROM (SELECT local_date, count(*) AS n FROM consumption WHERE meter_point = '29000000000003' GROUP BY ALL)`);
      expect(days.map((d) => [Number(d.days), Number(d.ordinary), d.others])).toEqual([[366, 364, ['2023-03-26:46', '2023-10-29:50']]]);
    });

    // the same file again changes nothing
    const again = await opened(db, { memoryLimit: '64MB' }, (w) =>
      importConsumptionLong(w, { path: file, source: 'portfolio.csv', isExport: false, fuel: 'electricity' }));
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: NEW_METERS * 17_568 + 336 });
  }, 120_000);
});

describe('a warehouse made while consumption had its key', () => {
  it('keeps every reading, column and check, without the key', async () => {
    // sql/ as it was before migration 016
    const oldSql = tmp.file('sql-015');
    cpSync(sqlDir(), oldSql, { recursive: true });
    rmSync(join(oldSql, 'migrations', '016_consumption_unkeyed.sql'));
    const db = tmp.file('keyed.duckdb');
    const now = new Date('2024-04-01T00:00:00Z');
    const batch = (kwh: (i: number) => number) => ({
      meterPoint: '1200000000009', serial: 'K1', source: 'api' as const, runId: 1, now,
      readings: Array.from({ length: 96 }, (_, i) => {
        const startMs = Date.parse('2024-03-30T00:00:00Z') + i * HH; // across the spring clock change
        return { startMs, endMs: startMs + HH, kwh: kwh(i), rawValue: kwh(i), rawUnit: 'kWh' as const };
      }),
    });
    const columnsOf = (w: Warehouse) => w.all(`SELECT column_name, data_type, is_nullable FROM information_schema.columns
      WHERE table_name = 'consumption' ORDER BY ordinal_position`);
    const keyed = await opened(db, { sqlDirectory: oldSql, template: false }, async (w) => {
      await w.transaction(() => writeConsumption(w, batch((i) => i / 10)));
      return { rows: await readings(w), columns: await columnsOf(w), constraints: await consumptionConstraints(w) };
    });
    expect(keyed.constraints.map((c) => c.constraint_type)).toContain('PRIMARY KEY');

    const migrated = await opened(db, {}, async (w) => ({
      rows: await readings(w), columns: await columnsOf(w), constraints: await consumptionConstraints(w),
      indexes: await w.all(`SELECT index_name FROM duckdb_indexes() WHERE table_name = 'consumption'`),
      migrations: await w.all('SELECT version FROM schema_migrations WHERE version = 16'),
    }));
    expect(migrated.rows).toEqual(keyed.rows);
    expect(migrated.rows).toHaveLength(96);
    expect(migrated.columns).toEqual(keyed.columns);
    expect(migrated.constraints).toEqual(keyed.constraints.filter((c) => c.constraint_type !== 'PRIMARY KEY'));
    expect(migrated.constraints.map((c) => c.constraint_type)).toEqual(['CHECK', 'CHECK', 'CHECK']);
    expect(migrated.indexes).toEqual([]);
    expect(migrated.migrations).toHaveLength(1);

    // the API reads the same half-hours again, one of them twice in the batch (its last value kept)
    const counts = await opened(db, {}, (w) => w.transaction(() => {
      const again = batch((i) => (i === 5 ? 9 : i / 10));
      return writeConsumption(w, { ...again, runId: 2, readings: [...again.readings, { ...again.readings[5]!, kwh: 7, rawValue: 7 }] });
    }));
    expect(counts).toEqual({ inserted: 0, updated: 1, unchanged: 95 });
    const after = await opened(db, { readOnly: true }, readings);
    expect(after.map((r) => [Number(r.at), Number(r.kwh), Number(r.copies)]))
      .toEqual(keyed.rows.map((r, i) => [Number(r.at), i === 5 ? 7 : Number(r.kwh), 1]));
  }, 60_000);
});
