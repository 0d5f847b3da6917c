// The demo's warehouse: every tariff the built-in sandbox serves and the sandbox account (meters,
// agreements, the synthetic household's consumption), ingested from 2017-01-01 through
// the real client and ingest code into a fresh DuckDB file. The file is built under a temporary
// name and renamed over the target, which is only replaced if an earlier demo wrote it. The
// ingest's working folder (WriteSession) goes with the build: the demo is done with it, and a
// later writer of the file adopts it afresh.
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { loadConfig } from '../config/loadConfig.js';
import { ERROR_CODES, TariffsError, UsageError } from '../errors.js';
import { runIngest, type IngestSummary } from '../ingest/ingest.js';
import type { Progress } from '../ingest/ingestRates.js';
import { SANDBOX_ACCOUNT, SANDBOX_API_KEY, startSandbox } from '../sandbox/startSandbox.js';
import { Warehouse } from '../store/Warehouse.js';
import { countRunsOfOtherJobs } from '../store/ingestRuns.js';
import { assertFileDb, jobPaths } from '../store/WriteSession.js';

/** The `job` of the demo's ingest runs: how an existing file is recognised as the demo's own. */
export const DEMO_JOB = 'demo';
export const DEMO_FROM = new Date('2017-01-01T00:00:00Z');

export interface DemoWarehouse {
  tariffs: string[];
  ingest: IngestSummary;
}

export interface DemoBuildProgress {
  /** A stage begins (a line for people). */
  stage?(text: string): void;
  /** The ingest's records, as `tariffs ingest` shows them. */
  ingest?: Progress;
}

export async function buildDemoWarehouse(db: string, logger: Logger, progress: DemoBuildProgress = {}): Promise<DemoWarehouse> {
  assertFileDb(db);
  await assertReplaceable(db);
  const dir = dirname(resolve(db));
  const tmpPrefix = `.${basename(db)}.tmp-`;
  // Left behind by a demo that was killed while ingesting.
  if (existsSync(dir)) {
    for (const f of readdirSync(dir)) if (f.startsWith(tmpPrefix) || f.startsWith(`.${tmpPrefix}`)) rmSync(join(dir, f), { recursive: true, force: true });
  }
  const tmp = join(dir, `${tmpPrefix}${process.pid}`);
  progress.stage?.('starting the built-in sandbox');
  const sandbox = await startSandbox({ logger });
  try {
    // Tariffs with unit rates (one recorded extract has standing charges only: nothing to show).
    const tariffs = [...new Set(sandbox.tariffs().filter((t) => t.kind.endsWith('unit-rates')).map((t) => t.tariffCode))].sort();
    logger.info({ baseUrl: sandbox.baseUrl, tariffs: tariffs.length }, 'demo: sandbox started; ingesting');
    progress.stage?.(`ingesting ${tariffs.length} tariffs and the sandbox household from ${DEMO_FROM.toISOString().slice(0, 10)}`);
    // The sandbox account (its key is public, like the sandbox): meters, agreements, consumption.
    const config = {
      ...await loadConfig({ db: tmp, baseUrl: sandbox.baseUrl }, { TARIFFS_API_KEY: SANDBOX_API_KEY }), defaultFrom: DEMO_FROM.toISOString(),
    };
    const ingest = await runIngest(
      // the four-rate EV tariff's night band comes from its product detail
      { tariffs, products: [{ code: 'EV-SANDBOX-24-01-01', regions: ['L'] }], accounts: [SANDBOX_ACCOUNT], from: DEMO_FROM, job: DEMO_JOB },
      { config, logger, ...(progress.ingest ? { progress: progress.ingest } : {}) },
    );
    if (ingest.status !== 'ok') {
      throw new TariffsError(ERROR_CODES.DEMO_INGEST, `demo: ingest from the sandbox ended '${ingest.status}': ${ingest.errors.join('; ')}`);
    }
    removeDatabase(db);
    renameSync(tmp, db);
    rmSync(jobPaths(db).folder, { recursive: true, force: true });
    return { tariffs, ingest };
  } catch (error) {
    removeDatabase(tmp);
    throw error;
  } finally {
    rmSync(jobPaths(tmp).folder, { recursive: true, force: true });
    await sandbox.close();
  }
}

/** A file at `db` is replaced only when every run recorded in it is the demo's. */
async function assertReplaceable(db: string): Promise<void> {
  if (!existsSync(db)) return;
  let foreign: number;
  try {
    const warehouse = await Warehouse.open(db, { readOnly: true });
    try {
      foreign = await countRunsOfOtherJobs(warehouse, DEMO_JOB);
    } finally {
      warehouse.close();
    }
  } catch (error) {
    throw new UsageError(`--db ${db}: exists and is not a demo database (${(error as Error).message}); choose another --db`, { cause: error });
  }
  if (foreign > 0) {
    throw new UsageError(`--db ${db}: holds data not written by \`tariffs demo\`; refusing to replace it (choose another --db)`);
  }
}

function removeDatabase(file: string): void {
  rmSync(file, { force: true });
  rmSync(`${file}.wal`, { force: true });
}
