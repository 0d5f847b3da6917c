// Records a run of a job that does not go through runIngest (the reports job) in ingest_runs:
// the database is opened for writing only for that one row, after the work is done, so the
// file stays readable for analysts (and the exporter) while the job works.
import type { Logger } from '../log/createLogger.js';
import { finishRun, startRun, type RunStatus } from '../store/ingestRuns.js';
import { Warehouse } from '../store/Warehouse.js';

export interface RecordedRun {
  job: string;
  startedAt: Date;
  finishedAt: Date;
  status: RunStatus;
  error?: string;
}

export async function recordJobRun(db: string, run: RecordedRun, options: { logger: Logger; busyTimeoutMs: number }): Promise<number> {
  const warehouse = await Warehouse.open(db, { logger: options.logger, busyTimeoutMs: options.busyTimeoutMs });
  try {
    const runId = await startRun(warehouse, run.job, run.startedAt);
    await finishRun(warehouse, runId, run.status, {}, run.finishedAt, run.error);
    return runId;
  } finally {
    warehouse.close();
  }
}
