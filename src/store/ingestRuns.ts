// ingest_runs bookkeeping: one row per run of a job, opened as 'running' and closed with its
// outcome. A row still 'running' when a writer opens the file belongs to a killed process.
import type { Warehouse } from './Warehouse.js';

export type RunStatus = 'ok' | 'failed' | 'partial' | 'interrupted';

export interface RunTotals {
  pages?: number;
  inserted?: number;
  updated?: number;
  unchanged?: number;
  requests?: number;
  tariffsOk?: number;
  tariffsFailed?: number;
  /** Stored as JSON arrays (null when empty). */
  missingOptional?: unknown[];
  emptyRequired?: unknown[];
}

export async function startRun(warehouse: Warehouse, job: string, now: Date): Promise<number> {
  // Only one process can write the file, so any run still 'running' was killed.
  await warehouse.run(`UPDATE ingest_runs SET status = 'interrupted', error = coalesce(error, 'process ended without finishing')
                       WHERE status = 'running'`);
  const row = await warehouse.one(`INSERT INTO ingest_runs (run_id, job, started_at, status)
      VALUES (nextval('ingest_run_ids'), $job, CAST($now AS TIMESTAMPTZ), 'running') RETURNING run_id`,
  { job, now: now.toISOString() });
  return row!.run_id as number;
}

export async function finishRun(
  warehouse: Warehouse, runId: number, status: RunStatus, totals: RunTotals, now: Date, error?: string,
): Promise<void> {
  await warehouse.run(`UPDATE ingest_runs SET finished_at = CAST($now AS TIMESTAMPTZ), status = $status,
      pages = $pages, rows_inserted = $inserted, rows_updated = $updated, rows_unchanged = $unchanged,
      requests = $requests, tariffs_ok = $ok, tariffs_failed = $failed, error = $error,
      missing_optional = CAST($missing AS JSON), empty_required = CAST($empty AS JSON)
    WHERE run_id = $run`, {
    now: now.toISOString(), status, pages: totals.pages ?? 0, inserted: totals.inserted ?? 0,
    updated: totals.updated ?? 0, unchanged: totals.unchanged ?? 0, requests: totals.requests ?? 0,
    ok: totals.tariffsOk ?? 0, failed: totals.tariffsFailed ?? 0, error: error ?? null, run: runId,
    missing: jsonOrNull(totals.missingOptional), empty: jsonOrNull(totals.emptyRequired),
  });
}

function jsonOrNull(list: unknown[] | undefined): string | null {
  return list && list.length > 0 ? JSON.stringify(list) : null;
}

/** How many runs the file records of jobs other than `job`. */
export async function countRunsOfOtherJobs(warehouse: Warehouse, job: string): Promise<number> {
  return (await warehouse.one(`SELECT count(*) AS n FROM ingest_runs WHERE job <> $job`, { job }))!.n as number;
}
