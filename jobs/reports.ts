// The `reports` job: re-export the reports (daily at 20:15 Europe/London, and after any run that
// stored new rates) with exportReports() of src/report/, into config.reports.dir in
// config.reports.formats; the run is recorded in ingest_runs like the ingest jobs.
import { TariffsError } from '../src/errors.js';
import type { Logger } from '../src/log/createLogger.js';
import type { JobContext, JobDefinition, JobResult, JobSchedule } from '../src/schedule/Job.js';
import { recordJobRun } from '../src/schedule/recordJobRun.js';

export const schedules: readonly JobSchedule[] = [
  { key: 'reports', cron: '15 20 * * *', description: 'daily at 20:15 (and after a run that stored new rates)' },
];

/** The interface of src/report/exportReports.ts that this job relies on. */
export interface ExportReportsOptions {
  db: string;
  outDir: string;
  formats: ('csv' | 'parquet' | 'html')[];
  tariffs?: string[];
  from?: Date;
  to?: Date;
  logger: Logger;
}
export type ExportReports = (options: ExportReportsOptions) => Promise<unknown>;

/** Relative to this file, in the sources (jobs/ → src/report/) and in dist/ alike. */
const EXPORT_MODULE = '../src/report/exportReports.js';

export class ReportsUnavailableError extends TariffsError {
  override readonly name = 'ReportsUnavailableError';
  constructor(options: { cause?: unknown } = {}) {
    super('REPORTS_UNAVAILABLE', 'reports: src/report/exportReports is not available in this build', options);
  }
}

/** exportReports, loaded on first use: the job does not keep the CLI from starting without it. */
export async function loadExportReports(): Promise<ExportReports> {
  let module: { exportReports?: unknown };
  try {
    module = await import(EXPORT_MODULE) as { exportReports?: unknown };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || /Cannot find module|Failed to load url|does not exist/i.test((error as Error).message ?? '')) {
      throw new ReportsUnavailableError({ cause: error });
    }
    throw error;
  }
  if (typeof module.exportReports !== 'function') throw new ReportsUnavailableError();
  return module.exportReports as ExportReports;
}

export async function run(ctx: JobContext): Promise<JobResult> {
  const { config } = ctx;
  const exportReports = await loadExportReports();
  const startedAt = ctx.now();
  let outcome: unknown;
  let failure: unknown;
  try {
    outcome = await exportReports({ db: config.db, outDir: config.reports.dir, formats: config.reports.formats, logger: ctx.logger });
  } catch (error) {
    failure = error;
  }
  const message = failure === undefined ? undefined : (failure as Error).message ?? String(failure);
  let ingestRunId: number | undefined;
  try {
    ingestRunId = await recordJobRun(config.db, {
      job: 'reports', startedAt, finishedAt: ctx.now(), status: failure === undefined ? 'ok' : 'failed',
      ...(message === undefined ? {} : { error: message }),
    }, { logger: ctx.logger, busyTimeoutMs: ctx.busyTimeoutMs });
  } catch (error) {
    if (failure === undefined) throw error;
    ctx.logger.warn({ err: { message: (error as Error).message } }, 'could not record the failed reports run');
  }
  if (failure !== undefined) throw failure;
  const files = (outcome as { files?: unknown } | undefined)?.files;
  return {
    status: 'ok',
    ...(ingestRunId === undefined ? {} : { ingestRunId }),
    ratesChanged: 0,
    details: { dir: config.reports.dir, formats: config.reports.formats, ...(Array.isArray(files) ? { files: files.length } : {}) },
  };
}

export const job: JobDefinition = { name: 'reports', description: 'export the reports', schedules, run };
