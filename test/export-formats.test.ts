// The demo's CSV exports as a reader's parser meets them (issue 54, readers): every column holds one
// class of value — a naive Europe/London wall time, an ISO instant in UTC, a date, a number, text …
// — and that class is the one docs/exports.md gives it. The deprecated mixed-offset columns are
// the only ones with an offset, and each has a wall-time twin holding the same wall time.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportReports } from '../src/report/exportReports.js';
import { copyOfDemoWarehouse } from './helpers/demoWarehouse.js';
import { tempDir } from './helpers/warehouseTools.js';

/** What each class's non-empty values look like (docs/exports.md, the classes table). */
const CLASSES: Record<string, RegExp> = {
  wall: /^\d{4}-\d\d-\d\d \d\d:\d\d$/,
  utc: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
  date: /^\d{4}-\d\d-\d\d$/,
  month: /^\d{4}-\d\d$/,
  number: /^-?\d+(\.\d+)?$/,
  boolean: /^(true|false)$/,
  identifier: /^\d{6,13}$/,
  text: /^(?!\d{4}-\d\d-\d\d[T ]\d\d:\d\d)(?!-?\d+(\.\d+)?$).+$/,
  offset: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/,
};

/** The deprecated columns and their wall-time twins. */
const TWINS: Record<string, string> = { local_start: 'start_wall', local_end: 'end_wall', day_start_local: 'day_start_wall' };

/** docs/exports.md's table between the csv-formats markers: column → class. */
function documentedClasses(): Map<string, string> {
  const doc = readFileSync(new URL('../docs/exports.md', import.meta.url), 'utf8');
  const table = /<!-- csv-formats -->([\s\S]*?)<!-- \/csv-formats -->/.exec(doc)![1]!;
  const classes = new Map<string, string>();
  for (const line of table.split('\n')) {
    const cells = /^\| `(\w+)` \| (\w+) \|/.exec(line.trim());
    if (cells) classes.set(cells[1]!, cells[2]!);
  }
  return classes;
}

/** RFC 4180 rows (csv-stringify quotes a field only when it must). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (ch === '"') quoted = false; else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; } else if (ch === '\n') { row.push(field); rows.push(row); row = []; field = ''; } else field += ch;
  }
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
  return rows;
}

describe("the demo's CSV exports: one class of value per column", () => {
  const tmp = tempDir('tariffs-formats-');
  const db = tmp.file('demo.duckdb');
  const out = tmp.file('reports');
  const files = new Map<string, { header: string[]; rows: string[][] }>();

  beforeAll(async () => {
    await copyOfDemoWarehouse(db);
    // as the demo exports them: every tariff, the whole time, cost reports included
    await exportReports({ db, outDir: out, formats: ['csv'] });
    for (const f of readdirSync(out).filter((n) => n.endsWith('.csv')).sort()) {
      const [header, ...rows] = parseCsv(readFileSync(join(out, f), 'utf8'));
      files.set(f.slice(0, -4), { header: header!, rows });
    }
  }, 900_000);
  afterAll(() => tmp.remove());

  it('gives every column of every file the class docs/exports.md documents, every value matching it', () => {
    const documented = documentedClasses();
    expect(files.size).toBe(10);
    const found: string[] = [];
    const mismatches: string[] = [];
    for (const [name, { header, rows }] of files) {
      expect(rows.length, name).toBeGreaterThan(0);
      header.forEach((column, i) => {
        const klass = documented.get(column);
        found.push(`${column}: ${klass ?? 'not documented'}`);
        if (klass === undefined) return;
        const bad = rows.map((r) => r[i]!).filter((v) => v !== '' && !CLASSES[klass]!.test(v));
        if (bad.length > 0) mismatches.push(`${name}.${column} (${klass}): ${bad.length} values like ${bad[0]}`);
      });
    }
    expect(found.filter((f) => f.endsWith('not documented'))).toEqual([]);
    expect(mismatches).toEqual([]);
    // every time column is a wall time or a UTC instant (or a day or month), except the deprecated ones
    const withOffset = [...documented].filter(([, k]) => k === 'offset').map(([c]) => c).sort();
    expect(withOffset).toEqual(Object.keys(TWINS).sort());
    expect(documented.get('meter_point')).toBe('identifier');
  }, 300_000);

  it('puts a wall-time twin beside each deprecated column, holding the same wall time', () => {
    let checked = 0;
    for (const [name, { header, rows }] of files) {
      for (const [deprecated, twin] of Object.entries(TWINS)) {
        const d = header.indexOf(deprecated);
        if (d < 0) continue;
        const t = header.indexOf(twin);
        expect(t - d, `${name}: ${twin} two columns after ${deprecated} (after its UTC instant)`).toBe(2);
        const differ = rows.filter((r) => r[t] !== r[d]!.slice(0, 16).replace('T', ' '));
        expect(differ.slice(0, 1), `${name}.${twin}`).toEqual([]);
        checked += rows.length;
      }
    }
    expect(checked).toBeGreaterThan(0);
  }, 300_000);
});
