// The `reports` job: re-export the reports (daily at 20:15 Europe/London, and after any run that
// stored new rates) with exportReports() of src/report/, into config.reports.dir in
// config.reports.formats; the run is recorded in ingest_runs like the ingest jobs.
import { exportReports } from '../report/exportReports.js';
import type { JobContext, JobDefinition, JobResult, JobSchedule } from '../schedule/Job.js';
import { recordJobRun } from '../schedule/recordJobRun.js';

export const schedules: readonly JobSchedule[] = [
  { key: 'reports', cron: '15 20 * * *', description: 'daily at 20:15 (and after a run that stored new rates)' },
];

export async function run(ctx: JobContext): Promise<JobResult> {
  const { config } = ctx;
  const startedAt = ctx.now();
  let outcome: Awaited<ReturnType<typeof exportReports>> | undefined;
  let failure: unknown;
  try {
    outcome = await exportReports({ db: config.db, outDir: config.reports.dir, formats: config.reports.formats, paymentMethod: config.paymentMethod, logger: ctx.logger });
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
  const files = outcome?.files;
  return {
    status: 'ok',
    ...(ingestRunId === undefined ? {} : { ingestRunId }),
    ratesChanged: 0,
    details: { dir: config.reports.dir, formats: config.reports.formats, ...(Array.isArray(files) ? { files: files.length } : {}) },
  };
}

export const job: JobDefinition = { name: 'reports', description: 'export the reports', schedules, run };
