// The report files as readers' own tools meet them (issue 43): every CSV and Parquet file read
// back with DuckDB's read_csv/read_parquet has the types docs/exports.md documents (its
// column-types table), the CSV read with those types holds the Parquet's rows, and the CSV's wall times parse as
// naive timestamps that give the UTC instants (wall − offset) and sort like them, clock changes included.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportReports } from '../src/report/exportReports.js';
import { copyOfDemoWarehouse } from './helpers/demoWarehouse.js';
import { query, tempDir } from './helpers/warehouseTools.js';

/** docs/exports.md's table: `| `TYPE` … | `col`, `col` |` rows between the column-types markers. */
function documentedTypes(): Map<string, string> {
  const page = readFileSync(new URL('../docs/exports.md', import.meta.url), 'utf8');
  const marked = /<!-- column-types[^>]*-->([\s\S]*?)<!-- \/column-types -->/.exec(page);
  if (!marked) throw new Error('docs/exports.md: no <!-- column-types --> … <!-- /column-types --> table');
  const table = marked[1]!;
  const types = new Map<string, string>();
  for (const line of table.split('\n')) {
    const cells = /^\| `([A-Z ]+)`[^|]*\| (`.*`) \|$/.exec(line.trim());
    if (!cells) continue;
    for (const [, column] of cells[2]!.matchAll(/`(\w+)`/g)) types.set(column!, cells[1]!);
  }
  return types;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item); else groups.set(key(item), [item]);
  }
  return groups;
}

describe('report files as other tools read them', () => {
  const tmp = tempDir('tariffs-readers-');
  const db = tmp.file('demo.duckdb');
  const out = tmp.file('out');
  const types = documentedTypes();
  const file = (name: string) => join(out, name).replaceAll("'", "''");

  beforeAll(async () => {
    await copyOfDemoWarehouse(db);
    // The household's year: an import and an export tariff, both clock changes of 2023, cost reports.
    await exportReports({
      db, outDir: out, formats: ['csv', 'parquet'], tariffs: ['E-1R-AGILE-18-02-21-J', 'E-1R-AGILE-OUTGOING-19-05-13-C'],
      from: new Date('2023-03-01T00:00:00Z'), to: new Date('2024-03-01T00:00:00Z'),
    });
  }, 300_000);
  afterAll(() => tmp.remove());

  const reports = () => readdirSync(out).filter((f) => f.endsWith('.parquet')).map((f) => f.slice(0, -'.parquet'.length)).sort();

  it('the README documents a type for every column, and each Parquet column has it', async () => {
    expect(types.size).toBeGreaterThan(40);
    expect(reports()).toEqual(expect.arrayContaining(['half_hourly_prices', 'monthly_costs', 'tariff_comparison', 'daily_stats']));
    for (const name of reports()) {
      const columns = await query(db, `DESCRIBE SELECT * FROM read_parquet('${file(`${name}.parquet`)}')`);
      const found = Object.fromEntries(columns.map((c) => [c.column_name as string, c.column_type as string]));
      const documented = Object.fromEntries(Object.keys(found).map((c) => [c, types.get(c) ?? 'undocumented']));
      expect({ name, types: found }).toEqual({ name, types: documented });
    }
  });

  it('each CSV read with the documented types holds the same rows as its Parquet file', async () => {
    for (const name of reports()) {
      const header = readFileSync(join(out, `${name}.csv`), 'utf8').split('\n', 1)[0]!.split(',');
      const typed = header.map((c) => `'${c}': '${types.get(c)}'`).join(', ');
      const csv = `read_csv('${file(`${name}.csv`)}', header = true, types = {${typed}})`;
      const parquet = `read_parquet('${file(`${name}.parquet`)}')`;
      const [counts] = await query(db, `SELECT (SELECT count(*) FROM ${csv}) AS csv, (SELECT count(*) FROM ${parquet}) AS parquet,
          (SELECT count(*) FROM (SELECT * FROM ${csv} EXCEPT ALL SELECT * FROM ${parquet})) AS only_csv,
          (SELECT count(*) FROM (SELECT * FROM ${parquet} EXCEPT ALL SELECT * FROM ${csv})) AS only_parquet`);
      const n = Object.fromEntries(Object.entries(counts!).map(([k, v]) => [k, Number(v)]));
      expect(n.csv, name).toBeGreaterThan(0);
      expect({ name, ...n }).toEqual({ name, csv: n.parquet, parquet: n.parquet, only_csv: 0, only_parquet: 0 });
    }
  });

  it('identifiers stay text, and a column empty in every row still has its documented type in Parquet', async () => {
    const [row] = await query(db, `SELECT min(meter_point) AS meter FROM read_parquet('${file('monthly_costs.parquet')}')`);
    expect(row!.meter).toMatch(/^\d{10,13}$/);
    const empty: string[] = [];
    for (const name of reports()) {
      const [header, ...lines] = readFileSync(join(out, `${name}.csv`), 'utf8').trimEnd().split('\n').map((l) => l.split(','));
      const columns = header!.filter((_, i) => lines.every((l) => l[i] === ''));
      for (const c of columns) {
        const [type] = await query(db, `SELECT typeof("${c}") AS t FROM read_parquet('${file(`${name}.parquet`)}') LIMIT 1`);
        expect({ name, c, type: type!.t }).toEqual({ name, c, type: types.get(c)!.split(' (')[0] });
        empty.push(`${name}.${c}`);
      }
    }
    expect(empty).toContain('half_hourly_prices.payment_method'); // J and Agile Outgoing: one price for every payment method
  });

  it('the CSV wall times are naive timestamps; wall − offset is the UTC instant, and they sort like it', async () => {
    // DuckDB's own sniffing, no types given: the wall columns are TIMESTAMP (no zone), the offsets integers.
    const sniffed = await query(db, `DESCRIBE SELECT * FROM read_csv('${file('half_hourly_prices.csv')}')`);
    const sniffedType = (c: string) => sniffed.find((s) => s.column_name === c)!.column_type;
    expect([sniffedType('start_wall'), sniffedType('end_wall'), sniffedType('start_utc_offset_minutes')]).toEqual(['TIMESTAMP', 'TIMESTAMP', 'BIGINT']);

    const [header, ...lines] = readFileSync(join(out, 'half_hourly_prices.csv'), 'utf8').trimEnd().split('\n');
    const at = Object.fromEntries(header!.split(',').map((c, i) => [c, i]));
    const rows = lines.map((line) => line.split(',')).map((v) => ({
      series: `${v[at.tariff_code!]} ${v[at.payment_method!]} ${v[at.rate_type!]}`,
      date: v[at.local_date!]!, wall: v[at.start_wall!]!, offset: Number(v[at.start_utc_offset_minutes!]), utc: Date.parse(v[at.start_utc!]!),
      endWall: v[at.end_wall!]!, endOffset: Number(v[at.end_utc_offset_minutes!]), endUtc: Date.parse(v[at.end_utc!]!),
    }));
    expect(rows.length).toBeGreaterThan(17_000);
    /** A naive `YYYY-MM-DD HH:MM` as if it were UTC (ms), failing on anything else. */
    const naive = (text: string): number => {
      const m = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d)$/.exec(text);
      expect(m, text).not.toBeNull();
      return Date.UTC(Number(m![1]), Number(m![2]) - 1, Number(m![3]), Number(m![4]), Number(m![5]));
    };
    const offsets = new Set<number>();
    for (const r of rows) {
      expect(naive(r.wall) - r.offset * 60_000).toBe(r.utc);
      expect(naive(r.endWall) - r.endOffset * 60_000).toBe(r.endUtc);
      expect(r.wall.slice(0, 10)).toBe(r.date);
      offsets.add(r.offset);
    }
    expect([...offsets].sort()).toEqual([0, 60]);
    // Per series, the file is in UTC order; wall − offset sorts the same, and the wall alone does
    // too except on the fall-back day, whose repeated hour is the only place it cannot.
    const bySeries = groupBy(rows, (r) => r.series);
    const fallBackDays = new Set<string>();
    const perDay = groupBy(rows, (r) => `${r.series} ${r.date}`);
    for (const day of perDay.values()) if (new Set(day.map((r) => r.offset)).size > 1 && day[0]!.offset === 60) fallBackDays.add(day[0]!.date);
    expect([...fallBackDays]).toEqual(['2023-10-29']);
    for (const series of bySeries.values()) {
      const utc = series.map((r) => r.utc);
      expect(utc).toEqual([...utc].sort((a, b) => a - b));
      const byWallAndOffset = [...series].sort((a, b) => (naive(a.wall) - a.offset * 60_000) - (naive(b.wall) - b.offset * 60_000));
      expect(byWallAndOffset.map((r) => r.utc)).toEqual(utc);
      const ordinary = series.filter((r) => !fallBackDays.has(r.date));
      const byWall = [...ordinary].sort((a, b) => naive(a.wall) - naive(b.wall));
      expect(byWall.map((r) => r.utc)).toEqual(ordinary.map((r) => r.utc));
      // The spring-forward day (2023-03-26) is among them: its wall times skip 01:00-02:00 and still sort.
      expect(ordinary.some((r) => r.date === '2023-03-26')).toBe(true);
      expect(ordinary.some((r) => r.date === '2023-03-26' && r.wall.startsWith('2023-03-26 01:'))).toBe(false);
    }
  });
});
