// The house's plan: no two folders of src/ import each other (a newcomer follows the data's path
// one way), and nothing reaches into a dependency's private state.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The folder of src/ a file is in ('.' for a file at src/'s top). */
const folderOf = (path: string) => {
  const parts = relative(SRC, path).split('/');
  return parts.length > 1 ? parts[0]! : '.';
};

describe('the folders of src/', () => {
  const files = sources(SRC);
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
      const from = folderOf(file);
      const to = folderOf(normalize(join(dirname(file), spec!)));
      if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }

  it('import each other in one direction only', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(edges.get('cli')?.has('store')).toBe(true); // the check sees real imports
    const circles = [...edges].flatMap(([a, targets]) => [...targets].filter((b) => a < b && edges.get(b)?.has(a)).map((b) => `${a} <-> ${b}`));
    expect(circles).toEqual([]);
  });

  it('reach into no dependency through private state or run-time V8 flags', () => {
    const reaching = files.filter((file) => /setFlagsFromString|as unknown as/.test(readFileSync(file, 'utf8')));
    expect(reaching.map((file) => relative(SRC, file))).toEqual([]);
  });
});
