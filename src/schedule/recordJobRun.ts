// Records a run of a job that does not go through runIngest (the reports job) in ingest_runs:
// the job's working file is opened for that one row, after the work is done, and published.
import type { Logger } from '../log/createLogger.js';
import { finishRun, startRun, type RunStatus } from '../store/ingestRuns.js';
import { WriteSession } from '../store/WriteSession.js';

export interface RecordedRun {
  job: string;
  startedAt: Date;
  finishedAt: Date;
  status: RunStatus;
  error?: string;
}

export async function recordJobRun(db: string, run: RecordedRun, options: { logger: Logger; busyTimeoutMs: number }): Promise<number> {
  const session = await WriteSession.open(db, { logger: options.logger, busyTimeoutMs: options.busyTimeoutMs, purpose: run.job });
  try {
    const runId = await startRun(session.warehouse, run.job, run.startedAt);
    await finishRun(session.warehouse, runId, run.status, {}, run.finishedAt, run.error);
    await session.publish();
    return runId;
  } finally {
    session.close();
  }
}
