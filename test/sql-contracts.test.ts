// The public SQL interface and its reference (issue 53, item 1): every view and macro of
// sql/public opens with a contract (src/store/sqlContracts.ts), whose columns are the relation's
// real ones (DESCRIBE the view, or the macro's @example, on the demo's warehouse), whose
// arguments are the macro's, and docs/sql.md is those contracts rendered. A scalar macro's
// @returns is the type of its @example's one column.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlDir } from '../src/paths.js';
import { expectedSqlDocs, internalNames, isScalarMacro, readContracts, sqlDocsPath } from '../src/store/sqlContracts.js';
import { readDefinitions } from '../src/store/sqlDefinitions.js';
import { Warehouse } from '../src/store/Warehouse.js';
import { copyOfDemoWarehouse } from './helpers/demoWarehouse.js';
import { tempDir } from './helpers/warehouseTools.js';

const contracts = readContracts(sqlDir());
const definitions = readDefinitions(sqlDir());

/** A macro's parameters as its CREATE statement declares them: `name` or `name := default`. */
function parametersOf(sql: string): string[] {
  const code = sql.replace(/--.*$/gm, '');
  const m = (/CREATE\s+OR\s+REPLACE\s+MACRO\s+\w+\s*\(([\s\S]*?)\)\s+AS\s+TABLE\b/i.exec(code)
    ?? /CREATE\s+OR\s+REPLACE\s+MACRO\s+\w+\s*\(([\s\S]*?)\)\s+AS\b/i.exec(code))!;
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of m[1]!) {
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  out.push(current);
  return out.map((p) => p.replace(/\s+/g, ' ').trim());
}

const typeOf = (duckdbType: string) => duckdbType.replace(/TIMESTAMP WITH TIME ZONE/g, 'TIMESTAMPTZ');

describe('contracts of sql/public', () => {
  it('every public file has one: what it answers and its columns (a scalar macro: what it returns); a macro its arguments and an example', () => {
    const publicOnes = definitions.filter((d) => d.scope === 'public');
    expect(contracts.map((c) => c.name)).toEqual(publicOnes.map((d) => d.name));
    for (const definition of publicOnes) {
      const contract = contracts.find((c) => c.name === definition.name)!;
      expect(contract.answers.length, definition.name).toBeGreaterThan(20);
      if (isScalarMacro(definition)) {
        expect(contract.columns, definition.name).toEqual([]);
        expect(contract.returns?.type, definition.name).toMatch(/\S/);
        expect(contract.returns?.description, definition.name).not.toBe('');
      } else {
        expect(contract.returns, definition.name).toBeUndefined();
        expect(contract.columns.length, definition.name).toBeGreaterThan(0);
      }
      for (const field of [...contract.args, ...contract.columns]) expect(field.description, `${definition.name}.${field.name}`).not.toBe('');
      if (definition.kind === 'macro') {
        expect(contract.example, definition.name).toMatch(new RegExp(`\\b${definition.name}\\(`));
        const declared = contract.args.map((a) => (a.default === undefined ? a.name : `${a.name} := ${a.default}`));
        expect(declared, `${definition.name}: its @arg lines`).toEqual(parametersOf(definition.sql));
      } else {
        expect(contract.args, definition.name).toEqual([]);
      }
    }
  });

  describe('on the demo warehouse', () => {
    const tmp = tempDir('tariffs-contracts-');
    let warehouse: Warehouse;
    beforeAll(async () => {
      const db = tmp.file('demo.duckdb');
      await copyOfDemoWarehouse(db);
      warehouse = await Warehouse.open(db, { readOnly: true });
    }, 900_000);
    afterAll(() => {
      warehouse?.close();
      tmp.remove();
    });

    for (const contract of contracts) {
      const returns = contract.returns;
      if (returns) {
        it(`${contract.name}: the documented type is what it returns`, async () => {
          const described = await warehouse.all<{ column_name: string; column_type: string }>(`DESCRIBE ${contract.example!}`);
          expect(described.map((d) => typeOf(d.column_type)), `${contract.name}: its @example selects its value alone`).toEqual([returns.type]);
        });
        continue;
      }
      it(`${contract.name}: the documented columns are the relation's, named and typed`, async () => {
        const query = contract.kind === 'view' ? `SELECT * FROM ${contract.name}` : contract.example!;
        const described = await warehouse.all<{ column_name: string; column_type: string }>(`DESCRIBE ${query}`);
        expect(contract.columns.map((c) => `${c.name} ${c.type}`))
          .toEqual(described.map((d) => `${d.column_name} ${typeOf(d.column_type)}`));
      });
    }
  });
});

describe('docs/sql.md', () => {
  const docs = readFileSync(sqlDocsPath(), 'utf8');

  it('is the contracts rendered (npm run build && npm run docs:sql rewrites it)', () => {
    expect(docs).toBe(expectedSqlDocs());
  });

  it('lists every public relation with its columns, and names the internal ones', () => {
    for (const contract of contracts) {
      const section = docs.slice(docs.indexOf(`### \`${contract.name}\``));
      expect(section, contract.name).not.toBe(docs);
      for (const column of contract.columns) expect(section).toContain(`| \`${column.name}\` |`);
    }
    const internal = docs.slice(docs.indexOf('## Internal building blocks'));
    for (const name of internalNames(sqlDir())) expect(internal).toContain(`\`${name}\``);
  });
});
