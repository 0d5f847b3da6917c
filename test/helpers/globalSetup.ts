// Once per test run: a folder the test files share (demoWarehouse.ts builds the demo's warehouse
// there once, for the files that only read it), removed at the end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'tariffs-test-shared-'));
  project.provide('sharedDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
