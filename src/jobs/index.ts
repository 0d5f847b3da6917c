// Every scheduled job, in the order `tariffs schedule --list` shows them. Each module exports its
// default schedules and run(ctx); the scheduler and `tariffs run` only look them up here.
import { UsageError } from '../errors.js';
import { JOB_NAMES, type JobDefinition, type JobName } from '../schedule/Job.js';
import { job as products } from './products.js';
import { job as rates } from './rates.js';
import { job as reports } from './reports.js';

export const JOBS: readonly JobDefinition[] = [products, rates, reports];

export function jobNamed(name: string): JobDefinition {
  const job = JOBS.find((j) => j.name === name);
  if (!job) throw new UsageError(`unknown job '${name}': one of ${JOB_NAMES.join(', ')}`);
  return job;
}

export type { JobName };
