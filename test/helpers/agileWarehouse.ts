// A real DuckDB warehouse holding the sandbox's recorded Agile prices of regions A and J, built the
// way users build one: runIngest against a local sandbox (in the `spec` profile, 100 a page and
// throttled, so it takes longer).
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { runIngest } from '../../src/ingest/ingest.js';
import { silentLogger } from '../../src/log/createLogger.js';
import { startSandbox } from '../../src/sandbox/startSandbox.js';
import { PROFILE } from './testProfile.js';

export const TARIFF_A = 'E-1R-AGILE-18-02-21-A';
export const TARIFF_J = 'E-1R-AGILE-18-02-21-J';

/** Ingests tariffs A and J (2017-01-01 → 2024-05-14) into `dir`/agile.duckdb; returns the file. */
export async function buildAgileWarehouse(dir: string): Promise<string> {
  const db = join(dir, 'agile.duckdb');
  const sandbox = await startSandbox({ profile: PROFILE });
  try {
    const config = await loadConfig({ db, baseUrl: sandbox.baseUrl }, {});
    const summary = await runIngest(
      {
        tariffs: [TARIFF_A, TARIFF_J], products: [], accounts: [],
        from: new Date('2016-01-01T00:00:00Z'), to: new Date('2025-01-01T00:00:00Z'),
      },
      { config, logger: silentLogger(), now: () => new Date('2024-06-01T00:00:00Z') },
    );
    if (summary.status !== 'ok') throw new Error(`ingest failed: ${summary.errors.join('; ')}`);
  } finally {
    await sandbox.close();
  }
  return db;
}
