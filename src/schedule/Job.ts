// The contract between jobs (src/jobs/*.ts: plain functions) and their shells (the scheduler daemon,
// `tariffs run`): what a job declares, what it is given, what it reports back.
import type { Config } from '../config/loadConfig.js';
import type { Logger } from '../log/createLogger.js';

export type JobName = 'products' | 'rates' | 'reports';

export const JOB_NAMES: readonly JobName[] = ['products', 'rates', 'reports'];

/** One cron schedule of a job; `key` is its name in config.schedules and the trigger it fires. */
export interface JobSchedule {
  key: 'products' | 'rates' | 'day_ahead' | 'dispatches' | 'reports';
  /** Default cron expression (5 or 6 fields), read in Europe/London. */
  cron: string;
  description: string;
  /** In force only for configs this accepts (default: every config). */
  appliesTo?: (config: Config) => boolean;
}

export interface JobContext {
  config: Config;
  /** A child per run, bound to {run_id, job}. */
  logger: Logger;
  now: () => Date;
  /** Fired on shutdown: stop after the current write. */
  signal: AbortSignal;
  /**
   * Why this run happens: schedule keys that fired ('rates', 'day_ahead'…), 'manual' for
   * `tariffs run`, or 'after:JOB' for a follow-up. Ticks that coincide are merged into one run.
   */
  triggers: readonly string[];
  /** How long to keep retrying while another process holds the database. */
  busyTimeoutMs: number;
}

export type JobStatus = 'ok' | 'partial' | 'failed' | 'interrupted' | 'skipped';

export interface JobResult {
  status: JobStatus;
  /** ingest_runs.run_id of the run recorded in the warehouse, if one was. */
  ingestRunId?: number;
  /** Rate rows inserted or changed: a run that stored new rates is followed by `reports`. */
  ratesChanged: number;
  /** One line for humans: why a run was skipped, what failed. */
  message?: string;
  /** Job-specific facts for the log line and `tariffs run --format json`. */
  details?: Record<string, unknown>;
}

export interface JobDefinition {
  name: JobName;
  description: string;
  schedules: readonly JobSchedule[];
  run(ctx: JobContext): Promise<JobResult>;
  /** Jobs to run next because of this result (e.g. reports after new rates). */
  followUps?(result: JobResult): JobName[];
}
