// Locates files that ship with the package (sql/, data/sandbox/) whether code runs from src/ under
// vitest or from dist/ after the build: walk up from this module to the package.json.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('tariffs: cannot find the package root (package.json)');
    dir = parent;
  }
  cached = dir;
  return dir;
}

export const sqlDir = (): string => join(packageRoot(), 'sql');
export const sandboxDataDir = (): string => join(packageRoot(), 'data', 'sandbox');
/** A new warehouse with every migration and definition applied, made by the build (`npm run
 *  build`, and `prepare` on `npm ci`); a new file starts as a copy of it (see Warehouse.open). */
export const warehouseTemplatePath = (): string => join(packageRoot(), 'dist', 'warehouse-template.duckdb');
