// The contract at the top of each public view and macro (sql/public/*.sql), read and rendered as
// the analysts' reference (docs/sql.md). The format, one item a line, before any other comment:
//   -- @answers <what it answers>
//   -- @arg <name>[ := <default>] | <TYPE> | <unit> | <description>        (macros, in order)
//   -- @column <name> | <TYPE> | <unit> | <description>                    (in order)
//   -- @example <a SELECT that returns rows on the demo's warehouse>        (macros)
// A scalar macro (one that returns a value, not a table: no AS TABLE) has, instead of @column lines,
//   -- @returns <TYPE> | <unit> | <description>
// and its @example selects that value as its one column (SELECT series_label(…) AS x FROM …).
// A line `--   …` (three spaces or more) continues the item above it; TYPE is DuckDB's
// (TIMESTAMPTZ for TIMESTAMP WITH TIME ZONE); unit may be empty.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot, sqlDir } from '../paths.js';
import { readDefinitions, type SqlDefinition } from './sqlDefinitions.js';

export interface ContractField {
  name: string;
  /** An argument's default (`latest := false`), as written. */
  default?: string;
  type: string;
  unit: string;
  description: string;
}

/** What a scalar macro returns. */
export type ContractResult = Omit<ContractField, 'name' | 'default'>;

export interface SqlContract {
  name: string;
  kind: SqlDefinition['kind'];
  answers: string;
  args: ContractField[];
  /** A view's or table macro's columns; none for a scalar macro. */
  columns: ContractField[];
  /** A scalar macro's value (its @returns); only there. */
  returns?: ContractResult;
  example?: string;
}

/** A macro that returns a value, not a table (CREATE MACRO … AS <expression>, no AS TABLE). */
export function isScalarMacro(definition: SqlDefinition): boolean {
  return definition.kind === 'macro' && !/\)\s*AS\s+TABLE\b/i.test(definition.sql.replace(/--.*$/gm, ''));
}

/** The contracts of every public definition below `directory`, by name. */
export function readContracts(directory: string): SqlContract[] {
  return readDefinitions(directory).filter((d) => d.scope === 'public').map(contractOf);
}

/** The names of the internal definitions (building blocks) below `directory`. */
export function internalNames(directory: string): string[] {
  return readDefinitions(directory).filter((d) => d.scope === 'internal').map((d) => d.name);
}

export function contractOf(definition: SqlDefinition): SqlContract {
  const items: { key: string; text: string }[] = [];
  for (const line of definition.sql.split('\n')) {
    if (!line.startsWith('--')) break;
    const item = /^-- @(\w+) (.*)$/.exec(line);
    if (item) items.push({ key: item[1]!, text: item[2]!.trim() });
    else if (/^-- {3,}\S/.test(line) && items.length > 0) items.at(-1)!.text += ` ${line.slice(2).trim()}`;
    else break;
  }
  const where = `${definition.path}`;
  const one = (key: string) => items.filter((i) => i.key === key).map((i) => i.text);
  const unknown = items.find((i) => !['answers', 'arg', 'column', 'returns', 'example'].includes(i.key));
  if (unknown) throw new Error(`${where}: unknown contract item @${unknown.key}`);
  const answers = one('answers');
  if (answers.length !== 1) throw new Error(`${where}: the contract needs one @answers`);
  const example = one('example');
  const returns = one('returns');
  const columns = one('column');
  if (isScalarMacro(definition)) {
    if (returns.length !== 1 || columns.length > 0) throw new Error(`${where}: a scalar macro's contract needs one @returns and no @column`);
  } else if (returns.length > 0) {
    throw new Error(`${where}: @returns is for a scalar macro; a view or table macro has @column lines`);
  }
  return {
    name: definition.name,
    kind: definition.kind,
    answers: answers[0]!,
    args: one('arg').map((text) => fieldOf(text, where, true)),
    columns: columns.map((text) => fieldOf(text, where, false)),
    ...(returns[0] === undefined ? {} : { returns: resultOf(returns[0], where) }),
    ...(example[0] === undefined ? {} : { example: example[0] }),
  };
}

function resultOf(text: string, where: string): ContractResult {
  const parts = text.split('|');
  if (parts.length < 3) throw new Error(`${where}: '${text}' is not 'TYPE | unit | description'`);
  const [type, unit, ...rest] = parts.map((p) => p.trim());
  return { type: type!, unit: unit!, description: rest.join('|').trim() };
}

function fieldOf(text: string, where: string, arg: boolean): ContractField {
  const parts = text.split('|');
  if (parts.length < 4) throw new Error(`${where}: '${text}' is not 'name | TYPE | unit | description'`);
  const [head, type, unit, ...rest] = parts.map((p) => p.trim());
  const m = arg ? /^(\w+)(?:\s*:=\s*(.+))?$/.exec(head!) : /^(\w+)$/.exec(head!);
  if (!m) throw new Error(`${where}: '${head}' is not a name`);
  return { name: m[1]!, ...(m[2] === undefined ? {} : { default: m[2] }), type: type!, unit: unit!, description: rest.join('|').trim() };
}

/** The reference part of docs/sql.md: every public relation with its arguments and columns (a
 *  scalar macro: what it returns), then the internal ones by name. */
export function renderReference(contracts: readonly SqlContract[], internal: readonly string[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const out: string[] = [];
  for (const kind of ['view', 'macro'] as const) {
    out.push(`## ${kind === 'view' ? 'Views' : 'Macros'}`, '');
    for (const c of contracts.filter((x) => x.kind === kind)) {
      const signature = kind === 'macro'
        ? `${c.name}(${c.args.map((a) => (a.default === undefined ? a.name : `${a.name} := ${a.default}`)).join(', ')})`
        : c.name;
      out.push(`### \`${c.name}\``, '', `\`${signature}\``, '', c.answers, '');
      if (c.args.length > 0) {
        out.push('| argument | type | unit | meaning |', '| --- | --- | --- | --- |');
        for (const a of c.args) {
          out.push(`| \`${a.name}\`${a.default === undefined ? '' : ` (default \`${cell(a.default)}\`)`} | ${cell(a.type)} | ${cell(a.unit)} | ${cell(a.description)} |`);
        }
        out.push('');
      }
      if (c.returns) {
        out.push('| returns | unit | meaning |', '| --- | --- | --- |',
          `| ${cell(c.returns.type)} | ${cell(c.returns.unit)} | ${cell(c.returns.description)} |`);
      } else {
        out.push('| column | type | unit | meaning |', '| --- | --- | --- | --- |');
        for (const col of c.columns) out.push(`| \`${col.name}\` | ${cell(col.type)} | ${cell(col.unit)} | ${cell(col.description)} |`);
      }
      out.push('');
      if (c.example) out.push('```sql', `${c.example};`, '```', '');
    }
  }
  out.push('## Internal building blocks', '',
    `Internal (\`sql/internal/\`), not part of the contract: ${internal.map((n) => `\`${n}\``).join(', ')}. ` +
    'They keep working under their names, but their arguments and columns may change.', '');
  return out.join('\n');
}

export const REFERENCE_BEGIN = '<!-- reference: generated from the contracts of sql/public (npm run docs:sql) -->';
export const REFERENCE_END = '<!-- /reference -->';

/** `document` with the text between the markers replaced by `reference`. */
export function withReference(document: string, reference: string): string {
  const begin = document.indexOf(REFERENCE_BEGIN);
  const end = document.indexOf(REFERENCE_END);
  if (begin === -1 || end < begin) throw new Error(`docs/sql.md: no ${REFERENCE_BEGIN} … ${REFERENCE_END}`);
  return `${document.slice(0, begin + REFERENCE_BEGIN.length)}\n\n${reference}\n${document.slice(end)}`;
}

export const sqlDocsPath = (): string => join(packageRoot(), 'docs', 'sql.md');

/** docs/sql.md as it should read: its own text, the reference regenerated from sql/. */
export function expectedSqlDocs(): string {
  return withReference(readFileSync(sqlDocsPath(), 'utf8'), renderReference(readContracts(sqlDir()), internalNames(sqlDir())));
}
