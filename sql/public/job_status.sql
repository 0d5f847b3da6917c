-- @answers Each job's latest recorded run, and the attempts since then that found another tariffs job writing the database.
-- @column job | VARCHAR |  | the job: rates, products, reports, ingest …
-- @column run_id | BIGINT |  | the latest run (null: no run recorded, only busy attempts)
-- @column started_at | TIMESTAMPTZ | UTC | when the run started
-- @column finished_at | TIMESTAMPTZ | UTC | when it finished (null: running, or killed)
-- @column status | VARCHAR |  | ok, failed, partial, interrupted, running; busy: no run, only busy attempts
-- @column rows_inserted | BIGINT | rows | inserted by the run
-- @column rows_updated | BIGINT | rows | updated by the run
-- @column error | VARCHAR |  | the run's error text (null: none)
-- @column busy_attempts | INTEGER |  | attempts since started_at that found the database busy (all of them without a run)
-- @column last_busy_at | TIMESTAMPTZ | UTC | the latest of those attempts
--
-- job_status: per job (rates, products, reports, ingest …) its latest recorded run in ingest_runs
-- and the attempts since that run that found another tariffs job writing the database (they are
-- retried soon, not failures). `tariffs status` shows these rows (with the attempts noted beside
-- the database file and not yet stored here) and names every scheduled job, even one never run.
-- Columns: job; run_id (null: no run recorded, only busy attempts); started_at, finished_at
-- (TIMESTAMPTZ; finished_at null while running or when killed); status (ok, failed, partial,
-- interrupted, running; 'busy' when the job has no run but busy attempts); rows_inserted,
-- rows_updated; error (the run's error text, null if none); busy_attempts (attempts since
-- started_at, or all of them without a run); last_busy_at (TIMESTAMPTZ, the latest of them).
CREATE OR REPLACE VIEW job_status AS
WITH latest_run AS (
    SELECT job, run_id, started_at, finished_at, status, rows_inserted, rows_updated, error
    FROM ingest_runs
    QUALIFY row_number() OVER (PARTITION BY job ORDER BY started_at DESC, run_id DESC) = 1
),
jobs AS (
    SELECT job FROM latest_run
    UNION
    SELECT job FROM busy_attempts
),
busy AS (
    SELECT j.job,
           CAST(count(b.attempted_at) AS INTEGER) AS busy_attempts,
           max(b.attempted_at) AS last_busy_at
    FROM jobs AS j
    LEFT JOIN latest_run AS r USING (job)
    LEFT JOIN busy_attempts AS b ON b.job = j.job AND (r.started_at IS NULL OR b.attempted_at > r.started_at)
    GROUP BY j.job
)
SELECT j.job, r.run_id, r.started_at, r.finished_at,
       coalesce(r.status, CASE WHEN b.busy_attempts > 0 THEN 'busy' END) AS status,
       r.rows_inserted, r.rows_updated, r.error,
       b.busy_attempts, b.last_busy_at
FROM jobs AS j
LEFT JOIN latest_run AS r USING (job)
JOIN busy AS b USING (job);
