// The demo's warehouse (every sandbox tariff since 2017, the sandbox account's meters and
// consumption), built once per test run and copied for each file that needs it: building it is
// the slowest part of those files. Workers wait for one another through a writers' lock.
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { buildDemoWarehouse } from '../../src/demo/buildDemoWarehouse.js';
import { silentLogger } from '../../src/log/createLogger.js';
import { holdWriteLock } from '../../src/store/WriteSession.js';

export async function copyOfDemoWarehouse(dest: string): Promise<void> {
  const dir = inject('sharedDir');
  const shared = join(dir, 'demo.duckdb');
  const release = await holdWriteLock(join(dir, 'demo-build'), 600_000);
  try {
    if (!existsSync(shared)) await buildDemoWarehouse(shared, silentLogger());
  } finally {
    release();
  }
  copyFileSync(shared, dest);
}
