// The views and macros of sql/: those users call in sql/public/, their building blocks in
// sql/internal/ (an analyst may call those too, but their columns may change). One file each,
// named after the relation it creates; its kind is read from its CREATE statement.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type DefinitionKind = 'view' | 'macro';
export type DefinitionScope = 'public' | 'internal';

export interface SqlDefinition {
  /** The relation's name: the file's name without `.sql`. */
  name: string;
  kind: DefinitionKind;
  scope: DefinitionScope;
  /** The file's path. */
  path: string;
  sql: string;
}

export const DEFINITION_SCOPES: readonly DefinitionScope[] = ['public', 'internal'];

/** Every definition below `directory` (the package's sql/ unless a test points elsewhere), sorted by name. */
export function readDefinitions(directory: string): SqlDefinition[] {
  const found: SqlDefinition[] = [];
  for (const scope of DEFINITION_SCOPES) {
    const folder = join(directory, scope);
    if (!existsSync(folder)) continue;
    for (const f of readdirSync(folder).filter((name) => name.endsWith('.sql'))) {
      const path = join(folder, f);
      const sql = readFileSync(path, 'utf8');
      found.push({ name: f.slice(0, -4), kind: kindOf(sql, path), scope, path, sql });
    }
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function kindOf(sql: string, path: string): DefinitionKind {
  const m = /CREATE\s+OR\s+REPLACE\s+(?:TEMP\s+)?(VIEW|MACRO|FUNCTION)\b/i.exec(sql.replace(/--.*$/gm, ''));
  if (!m) throw new Error(`${path}: no CREATE OR REPLACE VIEW or MACRO statement`);
  return m[1]!.toUpperCase() === 'VIEW' ? 'view' : 'macro';
}
