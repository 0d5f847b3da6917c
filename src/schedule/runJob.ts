// One run of one job, the way both shells run it: a child logger {job, job_run}, a log line when it
// starts and one when it ends, and every error turned into an outcome (never thrown), so the
// daemon carries on and `tariffs run` can pick its exit status.
import { randomUUID } from 'node:crypto';
import { refusedByApi } from '../api/errors.js';
import { DatabaseBusyError } from '../errors.js';
import type { JobContext, JobDefinition, JobResult, JobStatus } from './Job.js';

/** One run of a job takes exactly what the job itself receives. */
export type RunJobOptions = JobContext;

export interface JobOutcome {
  job: string;
  /** This run's id in the logs (`job_run`); `run_id` is the warehouse's ingest_runs number. */
  runId: string;
  triggers: readonly string[];
  status: JobStatus;
  result?: JobResult;
  error?: unknown;
  /** The job failed because another process held the database. */
  busy: boolean;
  /** The job failed because the API refused requests for now (a block, 429, KT-CT-1199). */
  blocked: boolean;
  startedAt: Date;
  seconds: number;
}

export async function runJob(job: JobDefinition, options: RunJobOptions): Promise<JobOutcome> {
  const runId = randomUUID().slice(0, 8);
  // run_id means the warehouse's ingest_runs number everywhere; this process-local id is job_run.
  const logger = options.logger.child({ job: job.name, job_run: runId });
  const startedAt = options.now();
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 10) / 100;
  logger.info({ triggers: options.triggers }, 'job started');
  try {
    const result = await job.run({
      config: options.config, logger, now: options.now, signal: options.signal,
      triggers: options.triggers, busyTimeoutMs: options.busyTimeoutMs,
    });
    const line = {
      status: result.status, seconds: seconds(), rates_changed: result.ratesChanged,
      ...(result.ingestRunId === undefined ? {} : { run_id: result.ingestRunId }),
      ...(result.message === undefined ? {} : { message: result.message }),
      ...result.details,
    };
    if (result.status === 'ok' || result.status === 'skipped') logger.info(line, `job ${result.status}`);
    else logger.warn(line, `job ${result.status}`);
    return { job: job.name, runId, triggers: options.triggers, status: result.status, result, busy: false, blocked: false, startedAt, seconds: seconds() };
  } catch (error) {
    const busy = error instanceof DatabaseBusyError;
    const blocked = refusedByApi(error);
    const err = { name: (error as Error)?.name, code: (error as { code?: string })?.code, message: (error as Error)?.message ?? String(error) };
    const status: JobStatus = options.signal.aborted ? 'interrupted' : 'failed';
    if (busy) logger.warn({ err, seconds: seconds() }, 'job not run: another tariffs job is writing the database');
    else logger.error({ err, seconds: seconds() }, `job ${status}`);
    return { job: job.name, runId, triggers: options.triggers, status, error, busy, blocked, startedAt, seconds: seconds() };
  }
}
