// Every SQL example of README.md and docs/ (```sql blocks and `tariffs sql "…"` commands) run against the
// demo's warehouse (issue 43, item 5): each returns at least one row, or is listed here as needing
// other data and says so ("needs …") in the comment right above it; and each answer of several
// rows is ordered by a total order (its ORDER BY keys never tie, so LIMIT cuts at one place).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Warehouse } from '../src/store/Warehouse.js';
import { copyOfDemoWarehouse } from './helpers/demoWarehouse.js';
import { markdownFiles, REPO } from './helpers/markdownBlocks.js';
import { tempDir } from './helpers/warehouseTools.js';

interface Example {
  file: string;
  line: number;
  sql: string;
  /** The comment lines right above it (or its table row): where it says what data it needs. */
  above: string;
}

/** Examples that need data the demo does not hold, each found by a piece of its text. */
const NEEDS_OTHER_DATA = [
  'FROM gaps', // the demo's prices have no missing half-hours
  'FROM supplier_cost_check', // consumption imported from the supplier's CSV with cost columns
  'FROM effective_rates', // an Intelligent Octopus Go account's dispatches
  'FROM event_agreements', // events loaded
  'FROM event_rejects', // events loaded, some rejected
  "read_csv('data/reports/", // the demo's report files, relative to the checkout
];

function readmeExamples(): Example[] {
  return markdownFiles().flatMap((file) => examplesOf(file));
}

function examplesOf(file: string): Example[] {
  const all = readFileSync(join(REPO, file), 'utf8').split('\n');
  // docs/sql.md's generated reference: its examples are the contracts', run by sql-contracts.test.ts
  const generated = all.findIndex((line) => line.startsWith('<!-- reference: generated'));
  const lines = generated < 0 ? all : all.slice(0, generated);
  const examples: Example[] = [];
  let fence: string | undefined;
  let comments: string[] = [];
  let statement: { line: number; text: string[] } | undefined;
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    if (/^```/.test(line)) {
      fence = fence === undefined ? line.slice(3) : undefined;
      comments = [];
      return;
    }
    if (fence === 'sql') {
      if (statement) statement.text.push(line);
      else if (/^\s*--/.test(line)) comments.push(line);
      else if (line.trim() === '') comments = [];
      else statement = { line: i + 1, text: [line] };
      if (statement && line.endsWith(';')) {
        examples.push({ file, line: statement.line, sql: statement.text.join('\n').slice(0, -1), above: comments.join('\n') });
        statement = undefined;
        comments = [];
      }
      return;
    }
    // `tariffs sql "…"` in a shell block (its # comments above) or a table row (the row itself)
    const start = /tariffs sql (?:--[\w-]+ [^\s"]+ )*"/.exec(line);
    if (start) {
      let text = line.slice(start.index + start[0].length);
      let j = i;
      while (!text.includes('"')) text += `\n${lines[++j]}`;
      const sql = text.slice(0, text.indexOf('"')).trim();
      if (/\bFROM\b/i.test(sql)) examples.push({ file, line: i + 1, sql, above: fence === undefined ? line : comments.join('\n') });
    }
    if (fence !== undefined) comments = /^\s*#/.test(line) ? [...comments, line] : [];
  });
  return examples;
}

/** The last ORDER BY outside parentheses and quotes: the statement before it and its keys. */
function outerOrder(sql: string): { inner: string; keys: string[] } | undefined {
  let depth = 0;
  let quoted = false;
  let at = -1;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i]!;
    if (ch === "'") quoted = !quoted;
    else if (!quoted && ch === '(') depth++;
    else if (!quoted && ch === ')') depth--;
    else if (!quoted && depth === 0 && /^ORDER\s+BY\b/i.test(sql.slice(i)) && /\s/.test(sql[i - 1] ?? ' ')) at = i;
  }
  if (at < 0) return undefined;
  const clause = sql.slice(at).replace(/^ORDER\s+BY\s+/i, '').replace(/\s+LIMIT\s+\d+\s*$/i, '');
  const keys = clause.split(',').map((k) => k.trim().replace(/\s+(ASC|DESC)?\s*(NULLS\s+(FIRST|LAST))?$/i, '').trim());
  return { inner: sql.slice(0, at), keys };
}

describe('README SQL examples on the demo\'s warehouse', () => {
  const tmp = tempDir('tariffs-readme-sql-');
  const db = tmp.file('demo.duckdb');
  const examples = readmeExamples();
  let warehouse: Warehouse;

  beforeAll(async () => {
    await copyOfDemoWarehouse(db);
    warehouse = await Warehouse.open(db, { readOnly: true });
  }, 300_000);
  afterAll(() => {
    warehouse?.close();
    tmp.remove();
  });

  it('finds the examples, and each listed as needing other data is one of them', () => {
    expect(examples.length).toBeGreaterThanOrEqual(24);
    for (const piece of NEEDS_OTHER_DATA) expect(examples.filter((e) => e.sql.includes(piece)), piece).toHaveLength(1);
  });

  it('each returns rows, or says above it what data it needs', async () => {
    for (const example of examples) {
      const where = `${example.file}:${example.line}: ${example.sql.slice(0, 80)}`;
      if (NEEDS_OTHER_DATA.some((piece) => example.sql.includes(piece))) {
        expect(example.above, where).toMatch(/\bneeds?\b/);
        continue;
      }
      const rows = await warehouse.all(example.sql);
      expect(rows.length, where).toBeGreaterThan(0);
    }
  });

  it('each answer of several rows has an ORDER BY whose keys never tie', async () => {
    let ordered = 0;
    for (const example of examples.filter((e) => !NEEDS_OTHER_DATA.some((piece) => e.sql.includes(piece)))) {
      const where = `${example.file}:${example.line}: ${example.sql.slice(0, 80)}`;
      const rows = await warehouse.all(example.sql);
      if (rows.length <= 1) continue;
      const order = outerOrder(example.sql);
      expect(order, `${where}: no ORDER BY`).toBeDefined();
      const columns = (await warehouse.all(`DESCRIBE ${order!.inner}`)).map((c) => String(c.column_name));
      const keys = order!.keys.map((k) => (/^\d+$/.test(k) ? `"${columns[Number(k) - 1]}"` : k.replace(/^\w+\./, '')));
      const [counts] = await warehouse.all(`SELECT count(*) AS n, count(DISTINCT ROW(${keys.join(', ')})) AS keys FROM (${order!.inner}) AS q`);
      expect({ where, keys: Number(counts!.keys) }).toEqual({ where, keys: Number(counts!.n) });
      ordered += 1;
    }
    expect(ordered).toBeGreaterThanOrEqual(12);
  });
});
