// The schedules in force: each job's defaults, overridden by config.schedules (same keys), "off"
// disabling one. The daemon and `tariffs schedule --list` both start from this list.
import type { Config } from '../config/loadConfig.js';
import { parseCron, type CronSchedule } from '../cron/fireTimes.js';
import type { JobDefinition, JobName, JobSchedule } from './Job.js';

export const SCHEDULE_OFF = 'off';

export interface ResolvedSchedule {
  job: JobName;
  key: JobSchedule['key'];
  expression: string;
  cron: CronSchedule;
  /** True when the expression came from the config file rather than the job's default. */
  overridden: boolean;
}

export function resolveSchedules(jobs: readonly JobDefinition[], config: Config): ResolvedSchedule[] {
  const out: ResolvedSchedule[] = [];
  for (const job of jobs) {
    for (const schedule of job.schedules) {
      if (schedule.appliesTo && !schedule.appliesTo(config)) continue;
      const configured = config.schedules[schedule.key]?.trim();
      const expression = configured ?? schedule.cron;
      if (expression === SCHEDULE_OFF) continue;
      const where = configured === undefined
        ? `job ${job.name}: default schedule ${schedule.key}`
        : `${config.file ? `--config ${config.file}: ` : ''}schedules.${schedule.key}`;
      out.push({ job: job.name, key: schedule.key, expression, cron: parseCron(expression, where), overridden: configured !== undefined });
    }
  }
  return out;
}

/**
 * A job whose schedules are all "off" in the config is off altogether: it does not run as a
 * follow-up either (`tariffs run JOB` still runs it by hand).
 */
export function jobEnabled(job: JobDefinition, config: Config): boolean {
  return job.schedules.some((s) => config.schedules[s.key]?.trim() !== SCHEDULE_OFF);
}
