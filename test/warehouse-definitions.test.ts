// Views and macros are created after those they name, so that a new file's definitions go in
// without failed attempts (names in comments aside); cycles are left to the retries.
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqlDir } from '../src/paths.js';
import { readDefinitions } from '../src/store/sqlDefinitions.js';
import { dependencyOrder, Warehouse } from '../src/store/Warehouse.js';
import { tempDir } from './helpers/warehouseTools.js';

const file = (name: string, sql: string) => ({ name, sql });

describe('dependencyOrder', () => {
  it('puts a definition after every definition it names, keeping the given order otherwise', () => {
    const a = file('a_view', 'CREATE OR REPLACE VIEW a_view AS SELECT * FROM c_macro(1)');
    const b = file('b_view', 'CREATE OR REPLACE VIEW b_view AS SELECT 1');
    const c = file('c_macro', 'CREATE OR REPLACE MACRO c_macro(x) AS TABLE SELECT * FROM b_view');
    expect(dependencyOrder([a, b, c]).map((f) => f.name)).toEqual(['b_view', 'c_macro', 'a_view']);
    // a cycle does not loop: every file once
    const x = file('x', 'SELECT * FROM y');
    const y = file('y', 'SELECT * FROM x');
    expect(dependencyOrder([x, y]).map((f) => f.name).sort()).toEqual(['x', 'y']);
  });

  it('orders the shipped views and macros so that each comes after what it names', () => {
    const files = readDefinitions(sqlDir()).map((d) => file(d.name, d.sql));
    const ordered = dependencyOrder(files);
    expect(ordered).toHaveLength(files.length);
    const position = new Map(ordered.map((f, i) => [f.name, i]));
    let constraints = 0;
    for (const f of files) {
      for (const g of files) {
        const code = (h: typeof f) => h.sql.replace(/--.*$/gm, '');
        if (g === f || !new RegExp(`\\b${g.name}\\b`).test(code(f)) || new RegExp(`\\b${f.name}\\b`).test(code(g))) continue;
        constraints++;
        expect(position.get(g.name)!, `${g.name} before ${f.name}`).toBeLessThan(position.get(f.name)!);
      }
    }
    expect(constraints).toBeGreaterThan(10);
  });
});

describe('a read-only open of a file with older definitions', () => {
  it("uses the build's newer definitions as TEMP objects, leaving the file as it was", async () => {
    const tmp = tempDir('older-');
    try {
      const file = join(tmp.dir, 'w.duckdb');
      const first = join(tmp.dir, 'sql-first');
      cpSync(sqlDir(), first, { recursive: true });
      (await Warehouse.open(file, { sqlDirectory: first })).close();
      const newer = join(tmp.dir, 'sql-newer');
      cpSync(sqlDir(), newer, { recursive: true });
      writeFileSync(join(newer, 'public', 'zz_probe.sql'), 'CREATE OR REPLACE VIEW zz_probe AS SELECT 42 AS answer;\n');
      const reader = await Warehouse.open(file, { readOnly: true, sqlDirectory: newer });
      try {
        expect(await reader.one('SELECT answer FROM zz_probe')).toEqual({ answer: 42 });
      } finally {
        reader.close();
      }
      const plain = await Warehouse.open(file, { readOnly: true, sqlDirectory: first });
      try {
        await expect(plain.one('SELECT answer FROM zz_probe')).rejects.toThrow(/zz_probe/);
      } finally {
        plain.close();
      }
    } finally {
      tmp.remove();
    }
  });
});
