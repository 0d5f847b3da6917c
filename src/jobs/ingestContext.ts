// Turns a job's context into runIngest's: same config, clock, signal, busy wait and logger (bound
// to {job, job_run}; runIngest adds the warehouse's run_id).
import type { IngestContext } from '../ingest/ingest.js';
import type { JobContext } from '../schedule/Job.js';

export function ingestContextOf(ctx: JobContext): IngestContext {
  return { config: ctx.config, logger: ctx.logger, now: ctx.now, signal: ctx.signal, busyTimeoutMs: ctx.busyTimeoutMs };
}

/** The config names something to fetch. */
export function tracksAnything(ctx: JobContext): boolean {
  const { config } = ctx;
  return config.tariffs.length + config.products.length + config.accounts.length > 0;
}
