-- A job that found the warehouse busy (another tariffs job writing it) and gave up after its
-- --busy-timeout: noted at once beside the file (`.<db>.job/busy.jsonl`, since the warehouse
-- itself could not be written then) and moved here by the next writer. `tariffs status` shows
-- them with each job's runs; they are not failures: the daemon retries soon.
CREATE TABLE busy_attempts (
    job            VARCHAR NOT NULL,
    attempted_at   TIMESTAMPTZ NOT NULL,
    waited_seconds DOUBLE NOT NULL,
    error          VARCHAR,
    PRIMARY KEY (job, attempted_at)
);
