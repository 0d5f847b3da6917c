// The views and macros of sql/ created in one order: each after the definitions it names, so that
// every CREATE goes in at its first attempt; one that fails names its file.
import { SchemaError } from './SchemaError.js';

export interface DefinitionFile {
  name: string;
  sql: string;
  /** Where it was read, for messages. */
  path?: string;
}

/** The SQL without its comments and string literals: what it names, not what it says. */
function codeOf(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'|--[^\n]*/g, '');
}

/** Files after the files whose names their SQL mentions, comments and strings aside (in their
 *  order otherwise). A cycle does not loop: each file comes once, and its CREATE then fails. */
export function dependencyOrder<F extends DefinitionFile>(files: readonly F[]): F[] {
  const code = new Map(files.map((f) => [f, codeOf(f.sql)]));
  const mentions = new Map(files.map((f) => [f, files.filter((g) => g !== f && new RegExp(`\\b${g.name}\\b`).test(code.get(f)!))]));
  const done = new Set<F>();
  const ordered: F[] = [];
  const visit = (file: F, path: Set<F>) => {
    if (done.has(file) || path.has(file)) return;
    path.add(file);
    for (const dependency of mentions.get(file)!) visit(dependency, path);
    path.delete(file);
    done.add(file);
    ordered.push(file);
  };
  for (const file of files) visit(file, new Set());
  return ordered;
}

/** The same definitions as TEMP objects (which shadow the stored ones for one session). */
export function asTemporary<F extends DefinitionFile>(file: F): F {
  return { ...file, sql: file.sql.replace(/CREATE\s+OR\s+REPLACE\s+(VIEW|MACRO|FUNCTION)\b/gi, 'CREATE OR REPLACE TEMP $1') };
}

/** Runs each definition's CREATE in dependencyOrder; the first that fails is a SchemaError naming its file. */
export async function createDefinitions(run: (sql: string) => Promise<void>, files: readonly DefinitionFile[]): Promise<void> {
  for (const file of dependencyOrder(files)) {
    try {
      await run(file.sql);
    } catch (error) {
      throw new SchemaError(`cannot create ${file.name}${file.path ? ` (${file.path})` : ''}: ${(error as Error).message}`);
    }
  }
}
