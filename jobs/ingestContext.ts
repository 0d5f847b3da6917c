// Turns a job's context into runIngest's: same config, clock, signal and busy wait; the run's
// logger keeps its {run_id, job} and gets runIngest's ingest_runs id as `ingest_run_id`.
import type { IngestContext } from '../src/ingest/ingest.js';
import type { Logger } from '../src/log/createLogger.js';
import type { JobContext } from '../src/schedule/Job.js';

export function ingestContextOf(ctx: JobContext): IngestContext {
  return { config: ctx.config, logger: rebinding(ctx.logger), now: ctx.now, signal: ctx.signal, busyTimeoutMs: ctx.busyTimeoutMs };
}

/**
 * runIngest binds {run_id: <ingest_runs id>, job} on its logger; pino would then print run_id and
 * job twice. This logger's children keep the run's bindings and add the database id under its own key.
 */
function rebinding(logger: Logger): Logger {
  const adapted = logger.child({});
  adapted.child = ((bindings: Record<string, unknown>, options?: object) => {
    const { run_id: ingestRunId, job: _job, ...rest } = bindings;
    return logger.child(ingestRunId === undefined ? rest : { ...rest, ingest_run_id: ingestRunId }, options);
  }) as Logger['child'];
  return adapted;
}

/** The config names something to fetch. */
export function tracksAnything(ctx: JobContext): boolean {
  const { config } = ctx;
  return config.tariffs.length + config.products.length + config.accounts.length > 0;
}
