// Where the SQL lives: statements in TypeScript only under src/store/ (writes, and the reads the
// ingest and jobs make of the store) and src/analytics/ (one call per question); everything else
// calls those. The SQL a user typed (`tariffs sql`) and the examples of it a command prints are
// theirs, not ours.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sourceFiles } from './helpers/sourceFiles.js';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

/** Folders whose string literals may hold statements. */
const SQL_FOLDERS = ['src/store/', 'src/analytics/'];

/** Files whose SQL is the user's: `tariffs sql` runs what it is given. */
const USER_SQL = ['src/cli/commands/sql.ts'];

/** A statement, not an English word in a help text: SELECT … FROM, INSERT INTO, UPDATE … SET, DELETE FROM. */
const STATEMENT = /\bSELECT\b[\s\S]*\bFROM\b|\bINSERT\s+(OR\s+\w+\s+)?INTO\b|\bUPDATE\s+[\w."]+\s+SET\b|\bDELETE\s+FROM\b/;

/** SQL a command shows the user to type: a `tariffs sql` example, or help text's `SQL: …` line. */
const SQL_COMMAND_EXAMPLE = /\btariffs sql\b|\bSQL: /;

const sources = sourceFiles;

/** `file:line: text` of each string or template literal of the file holding a statement. */
export function statementsIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const literal = node.getText(source);
      if (STATEMENT.test(literal) && !SQL_COMMAND_EXAMPLE.test(literal)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(`${file}:${line + 1}: ${literal.replace(/\s+/g, ' ').slice(0, 100)}`);
      }
      if (!ts.isTemplateExpression(node)) return; // a template's substitutions are code: look inside
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('SQL statements in TypeScript', () => {
  const files = sources(SRC).map((path) => relative(ROOT, path));

  it('are found where they are (the check sees real SQL)', () => {
    const store = files.filter((f) => f.startsWith('src/store/')).flatMap((f) => statementsIn(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(store.length).toBeGreaterThan(10);
    expect(statementsIn('x.ts', "const q = `SELECT a FROM t WHERE b = ${x}`; const h = 'select the cheapest';")).toHaveLength(1);
    expect(statementsIn('x.ts', "run(`DELETE FROM agreements WHERE ${f(`INSERT INTO t VALUES (1)`)}`)")).toHaveLength(2);
    expect(statementsIn('x.ts', "const help = 'Only half-hours inside [--min-price, --max-price] can be chosen';")).toEqual([]);
  });

  it('live only in src/store/ and src/analytics/', () => {
    const outside = files.filter((f) => !SQL_FOLDERS.some((folder) => f.startsWith(folder)))
      .filter((f) => !USER_SQL.includes(f));
    expect(outside.length).toBeGreaterThan(50);
    expect(outside.flatMap((f) => statementsIn(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });
});
