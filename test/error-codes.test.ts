// Error codes are constants of one module (src/errors.ts, ERROR_CODES): a code spelled out where
// an error is made or compared must be one of them, so none drifts or is mistyped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors.js';

const SRC = join(import.meta.dirname, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('error codes', () => {
  it('spelled out in src/ are all in ERROR_CODES', () => {
    const known = new Set<string>(Object.values(ERROR_CODES));
    const used = new Set<string>();
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const [, code] of text.matchAll(/(?:new TariffsError|super)\(\s*'([A-Z_]+)'/g)) used.add(code!);
      for (const [, code] of text.matchAll(/\.code === '([A-Z_]{4,})'/g)) if (!code!.startsWith('E')) used.add(code!);
    }
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((code) => !known.has(code))).toEqual([]);
  });

  it('compared by the CLI and the jobs are the constants', () => {
    for (const file of ['cli/run.ts', 'jobs/rates.ts']) {
      expect(readFileSync(join(SRC, file), 'utf8')).not.toMatch(/\.code === '[A-Z_]+'/);
    }
  });
});
