// Each layer speaks its own words (issue 53): src/analytics/ takes typed requests and names their
// fields, never a CLI flag; the flags, and the words that name them, are src/cli/'s
// (src/cli/requestWords.ts maps fields to flags). Read with the TypeScript parser: the text of
// string and template literals only, so comments may still say which flag a field comes from.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sourceFiles } from './helpers/sourceFiles.js';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { InvalidRequest, MissingData, REQUEST_WORDS, type RequestField } from '../src/analytics/requestErrors.js';
import { checkRange } from '../src/analytics/range.js';
import { cliMessage, flagFor, inCliWords } from '../src/cli/requestWords.js';
import { describeError } from '../src/cli/run.js';
import { UsageError } from '../src/errors.js';

const ROOT = join(import.meta.dirname, '..');
const ANALYTICS = join(ROOT, 'src', 'analytics');

/** A CLI flag: two dashes and a letter (`--max-price`). */
const FLAG = /--[a-z]/;

const sources = sourceFiles;

/** `file:line: text` of each piece of literal text (a string, or a template's text between its
 *  substitutions) naming a flag. */
export function flagsIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const check = (node: ts.Node, literal: string) => {
    if (!FLAG.test(literal)) return;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${file}:${line + 1}: ${literal.replace(/\s+/g, ' ').slice(0, 100)}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) check(node, node.text);
    else if (ts.isTemplateExpression(node)) {
      check(node.head, node.head.text);
      for (const span of node.templateSpans) check(span.literal, span.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('layers', () => {
  it('the check finds a flag in literal text, not in comments or code', () => {
    expect(flagsIn('x.ts', "throw new UsageError(`--count: must be positive, got ${n}`);")).toHaveLength(1);
    expect(flagsIn('x.ts', "const a = '--tariff'; const b = `at ${x} (--meter)`;")).toHaveLength(2);
    expect(flagsIn('x.ts', "// what --max-price sets\n/** with --from */ const a = `${w.field('from')}: x`; const sql = 'x -- a comment';"))
      .toEqual([]);
  });

  it('src/analytics/ names no CLI flag in its strings', () => {
    const files = sources(ANALYTICS);
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap((f) => flagsIn(relative(ROOT, f), readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('a request error names the field; the CLI says it with the flag, as a usage error', () => {
    let error: unknown;
    try {
      checkRange({ from: new Date('2024-02-01T00:00:00Z'), to: new Date('2024-01-01T00:00:00Z') });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidRequest);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as InvalidRequest).field).toBe('from');
    expect((error as Error).message).toMatch(/^from must be before to /);
    expect(cliMessage(error)).toMatch(/^--from must be before --to \(the range is half-open/);
    expect(describeError(error)).toMatch(/^tariffs: --from must be before --to /);
    expect(() => inCliWords(() => checkRange({ to: new Date(Number.NaN) }))).toThrow(/^--to: not a valid instant$/);
  });

  it('missing data is said with the command that stores it only by the CLI', () => {
    const error = new MissingData((w) => `no prices stored for tariff X${w.advice('storeTariff')}`);
    expect(error.message).toBe('no prices stored for tariff X');
    expect(cliMessage(error)).toBe('no prices stored for tariff X (`tariffs tariffs` lists the stored ones; `tariffs ingest --tariff CODE` stores one)');
  });

  it('fields are flags in the CLI, themselves in the domain', () => {
    const fields: [RequestField, string][] = [['maxPrice', '--max-price'], ['weightsFrom', '--weights-from'], ['band', '--between'], ['horizon', '--ahead'], ['tariffs', '--tariff']];
    for (const [field, flag] of fields) {
      expect(flagFor(field)).toBe(flag);
      expect(REQUEST_WORDS.field(field)).toBe(field);
    }
  });
});
