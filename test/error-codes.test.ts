// Error codes are constants of one module (src/errors.ts, ERROR_CODES): an error is made with one
// of them and compared with one of them, never with the code spelled out, so none drifts or is
// mistyped. Read with the TypeScript parser: string literals only, comments left alone.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors.js';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const KNOWN = new Set<string>(Object.values(ERROR_CODES));

/** What looks like a code of ours: upper case and underscores (DB_IO, NO_DATA). */
const CODE_LIKE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/** Codes of Node and undici (ENOENT, ERR_SSL_…, UND_ERR_…), compared as the platform spells them. */
const PLATFORM_CODE = /^(E[A-Z]+|ERR_[A-Z0-9_]+|UND_ERR_[A-Z_]+)$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const isText = (node: ts.Node | undefined): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral =>
  node !== undefined && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node));

/** `.code`, `.errorCode`, or a variable named so: what a code is read from. */
function readsCode(node: ts.Expression): boolean {
  const name = ts.isPropertyAccessExpression(node) ? node.name.text : ts.isIdentifier(node) ? node.text : undefined;
  return name === 'code' || name === 'errorCode';
}

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken,
]);

/** `file:line: text` of each code spelled out: a string literal first argument of `new …Error(` or
 *  `super(` that looks like a code; a code-like literal compared with a code (platform codes
 *  aside); and any literal spelling one of ERROR_CODES. */
export function spelledCodes(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const say = (node: ts.Node) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${relative(ROOT, file)}:${line + 1}: ${node.getText(source)}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) || (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword)) {
      const callee = node.expression.getText(source);
      const first = node.arguments?.[0];
      if ((callee === 'super' || /Error$/.test(callee)) && isText(first) && CODE_LIKE.test(first.text)) say(node);
    } else if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      for (const [side, other] of [[node.left, node.right], [node.right, node.left]] as const) {
        if (readsCode(side) && isText(other) && CODE_LIKE.test(other.text) && !PLATFORM_CODE.test(other.text)) say(node);
      }
    } else if (isText(node) && KNOWN.has(node.text) && !(ts.isPropertyAssignment(node.parent) && node.parent.initializer === node)) {
      say(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...new Set(found)];
}

describe('error codes', () => {
  it('are ERROR_CODES constants wherever src/ makes or compares one', () => {
    const spelled = sources(SRC).filter((f) => !f.endsWith(join('src', 'errors.ts')))
      .flatMap((file) => spelledCodes(file, readFileSync(file, 'utf8')));
    expect(spelled).toEqual([]);
  });

  it('made with ERROR_CODES across src/ (the rule has something to hold)', () => {
    const made = sources(SRC).map((file) => readFileSync(file, 'utf8').match(/ERROR_CODES\.[A-Z_]+/g)?.length ?? 0)
      .reduce((a, b) => a + b, 0);
    expect(made).toBeGreaterThan(20);
  });

  it('spelled out, fail the check: made, compared, or listed', () => {
    const planted = [
      "throw new TariffsError('SANDBOX_DATA', 'x');",
      "class A extends TariffsError { constructor() { super('NO_SUCH_CODE', 'x'); } }",
      "if (error.code === 'NO_DATA') return;",
      "if ('DB_BUSY' !== err.code) return;",
      "const storage = new Set(['DB_IO']);",
    ];
    for (const line of planted) expect(spelledCodes(join(SRC, 'planted.ts'), line), line).not.toEqual([]);
    const fine = [
      'throw new TariffsError(ERROR_CODES.SANDBOX_DATA, \'x\');',
      "if (error.code === 'ENOENT' || code === 'UND_ERR_ABORTED') return;",
      "if (this.errorCode === 'KT-CT-1199') return;",
      "throw new UsageError('NO capitals here');",
      '// a comment naming NO_DATA',
    ];
    for (const line of fine) expect(spelledCodes(join(SRC, 'fine.ts'), line), line).toEqual([]);
  });

  it('compared by the CLI and the jobs are the constants', () => {
    for (const file of ['cli/run.ts', 'jobs/rates.ts']) {
      expect(readFileSync(join(SRC, file), 'utf8')).not.toMatch(/\.code === '[A-Z_]+'/);
    }
  });
});
