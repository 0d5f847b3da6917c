// The reports job: exports with src/report/exportReports.ts into config.reports.dir and records
// the run in ingest_runs.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as runRates } from '../src/jobs/rates.js';
import { run as runReports } from '../src/jobs/reports.js';
import { silentLogger } from '../src/log/createLogger.js';
import type { JobContext } from '../src/schedule/Job.js';
import { startSandbox, type Sandbox } from '../src/sandbox/startSandbox.js';
import { query, tempDir, testConfig } from './helpers/warehouseTools.js';

describe('reports job', () => {
  let sandbox: Sandbox;
  const tmp = tempDir('tariffs-reports-');
  const db = tmp.file('reports.duckdb');
  const dir = tmp.file('out');

  const ctx = async (triggers: string[]): Promise<JobContext> => ({
    config: await testConfig(db, sandbox.baseUrl, {
      tariffs: ['E-1R-AGILE-24-10-01-H'], defaultFrom: '2026-03-28T00:00:00Z', reports: { dir, formats: ['csv'] },
    }),
    logger: silentLogger(), now: () => new Date('2026-03-29T19:20:00Z'), signal: new AbortController().signal,
    triggers, busyTimeoutMs: 5_000,
  });

  beforeAll(async () => {
    sandbox = await startSandbox();
    const rates = await runRates(await ctx(['rates']));
    expect(rates.ratesChanged).toBe(56);
  });
  afterAll(async () => {
    await sandbox.close();
    tmp.remove();
  });

  it('exports into reports.dir and records an ok run in ingest_runs', async () => {
    const result = await runReports(await ctx(['after:rates']));
    expect(result.status).toBe('ok');
    expect(result.ingestRunId).toBeGreaterThan(0);
    expect(readdirSync(dir, { recursive: true }).length).toBeGreaterThan(0);
    expect(await query(db, `SELECT job, status, finished_at IS NOT NULL AS closed FROM ingest_runs WHERE run_id = ${result.ingestRunId}`))
      .toEqual([{ job: 'reports', status: 'ok', closed: true }]);
  });
});
