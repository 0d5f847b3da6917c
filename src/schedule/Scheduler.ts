// The daemon behind `tariffs schedule`: croner jobs (timezone Europe/London) that only put
// runs in one queue; the queue runs one job at a time across all jobs, since they share the
// database. Ticks never stack: a job already queued takes the extra trigger (so rates and
// day_ahead at 16:00 make one run), a tick of the schedule that started the running run is
// dropped. Failures back off per job (Backoff); a run that found another tariffs job writing
// (busy) is no failure: it is retried after busyRetryMs, and no tick is skipped for it; nor is one
// the API refused (a block, 429, KT-CT-1199): the next tick tries again, the day-ahead watch
// included. A run that stored new rates queues its follow-ups. The database is never held here:
// each job opens the working file while it works and publishes the analysts' file (WriteSession).
import { Cron } from 'croner';
import type { Config } from '../config/loadConfig.js';
import type { Logger } from '../log/createLogger.js';
import { CRON_OPTIONS } from '../cron/fireTimes.js';
import { formatLocal } from '../time/index.js';
import { Backoff } from './Backoff.js';
import type { JobDefinition, JobName } from './Job.js';
import { jobEnabled, resolveSchedules, type ResolvedSchedule } from './resolveSchedules.js';
import { runJob, type JobOutcome } from './runJob.js';

export interface SchedulerOptions {
  jobs: readonly JobDefinition[];
  config: Config;
  logger: Logger;
  now?: () => Date;
  /** How long a job keeps retrying while another process holds the database (default 30 s). */
  busyTimeoutMs?: number;
  /** After a run that found the database busy, ask for the job again this much later (default 60 s). */
  busyRetryMs?: number;
  /** Upper bound of the ticks skipped after repeated failures (default 16). */
  maxBackoffTicks?: number;
  /** Called after every run (tests watch the daemon through it). */
  onOutcome?: (outcome: JobOutcome) => void;
}

export type EnqueueResult = 'queued' | 'merged' | 'running' | 'backoff' | 'stopping';

export type StopResult =
  /** Nothing was running. */
  | 'idle'
  /** The running job finished within the grace period. */
  | 'finished'
  /** It was aborted after the grace period and unwound (its run is recorded as interrupted). */
  | 'aborted'
  /** It did not unwind in time either; the process may exit under it. */
  | 'abandoned';

interface Pending {
  job: JobDefinition;
  triggers: Set<string>;
}

interface Running extends Pending {
  controller: AbortController;
  done: Promise<void>;
}

export class Scheduler {
  readonly schedules: ResolvedSchedule[];
  private readonly jobs: Map<JobName, JobDefinition>;
  private readonly now: () => Date;
  private readonly backoff: Backoff;
  private readonly logger: Logger;
  private tasks: Cron[] = [];
  private queue: Pending[] = [];
  private current: Running | undefined;
  private stopping = false;
  private idleWaiters: (() => void)[] = [];
  private retries = new Map<JobName, NodeJS.Timeout>();

  constructor(private readonly options: SchedulerOptions) {
    this.schedules = resolveSchedules(options.jobs, options.config);
    this.jobs = new Map(options.jobs.map((j) => [j.name, j]));
    this.now = options.now ?? (() => new Date());
    this.backoff = new Backoff(options.maxBackoffTicks ?? 16);
    this.logger = options.logger.child({ component: 'scheduler' });
  }

  start(): void {
    for (const schedule of this.schedules) {
      // A tick only queues a run; croner calls late ticks (a blocked event loop) once, late.
      const task = new Cron(schedule.expression, {
        ...CRON_OPTIONS,
        catch: (error) => this.logger.error({ job: schedule.job, schedule: schedule.key, err: { message: String(error) } }, 'tick failed'),
      }, () => {
        // the tick's own second (croner fires at or just after it): coinciding ticks count once
        this.enqueue(schedule.job, schedule.key, new Date(Math.floor(this.now().getTime() / 1000) * 1000));
      });
      this.tasks.push(task);
      // croner's own next run: `schedule --list` shows the same instants (src/cron/fireTimes.ts)
      const next = task.nextRun();
      this.logger.info({
        job: schedule.job, schedule: schedule.key, cron: schedule.expression,
        next: next ? formatLocal(next) : null,
      }, 'scheduled');
    }
  }

  /**
   * Asks for a run of `name`. A tick (or follow-up) of a job backing off is skipped; a tick of
   * the schedule that started the running run is dropped (ticks never stack); a job already
   * queued takes the extra trigger, so one run serves coinciding ticks.
   */
  enqueue(name: JobName, trigger: string, at: Date = this.now()): EnqueueResult {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`scheduler: unknown job ${name}`);
    if (this.stopping) return 'stopping';
    if (this.backoff.skip(name, at)) {
      const state = this.backoff.of(name);
      this.logger.info({ job: name, trigger, failures: state.failures, skips_left: state.skipsLeft }, 'tick skipped: backing off after failures');
      return 'backoff';
    }
    if (this.current?.job.name === name && this.current.triggers.has(trigger)) {
      this.logger.info({ job: name, trigger }, 'tick skipped: the job is still running');
      return 'running';
    }
    const queued = this.queue.find((p) => p.job.name === name);
    if (queued) {
      queued.triggers.add(trigger);
      return 'merged';
    }
    this.queue.push({ job, triggers: new Set([trigger]) });
    if (this.current) this.logger.info({ job: name, trigger, waiting_for: this.current.job.name }, 'queued behind the running job');
    // After the timers phase: ticks of one job due at the same instant (rates and day_ahead at
    // 16:00) are all queued by then and start as one run.
    setImmediate(() => this.pump());
    return 'queued';
  }

  /** Aborts the running job now (a second SIGTERM): it stops after its current write. */
  interrupt(): void {
    this.current?.controller.abort(new Error('scheduler interrupted'));
  }

  /** The job running now, if any. */
  running(): JobName | undefined {
    return this.current?.job.name;
  }

  /** Resolves when nothing is running or queued. */
  idle(): Promise<void> {
    if (!this.current && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops ticking, drops the queue, and waits for the running job: up to graceMs for it to
   * finish, then aborts it (runIngest stops after its current write and records the run as
   * interrupted) and waits up to abortMs more.
   */
  async stop(options: { graceMs?: number; abortMs?: number } = {}): Promise<StopResult> {
    this.stopping = true;
    for (const timer of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
    for (const task of this.tasks) task.stop();
    this.tasks = [];
    this.queue = [];
    const current = this.current;
    if (!current) return 'idle';
    this.logger.info({ job: current.job.name, grace_ms: options.graceMs ?? 60_000 }, 'stopping: waiting for the running job');
    if (await settlesWithin(current.done, options.graceMs ?? 60_000)) return 'finished';
    this.logger.warn({ job: current.job.name }, 'stopping: grace period over, interrupting the running job');
    current.controller.abort(new Error('scheduler stopping'));
    if (await settlesWithin(current.done, options.abortMs ?? 15_000)) return 'aborted';
    this.logger.error({ job: current.job.name }, 'stopping: the job did not stop; leaving it');
    return 'abandoned';
  }

  private pump(): void {
    if (this.current) return;
    const next = this.queue.shift();
    if (!next) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      return;
    }
    const controller = new AbortController();
    const running: Running = { ...next, controller, done: Promise.resolve() };
    this.current = running;
    running.done = this.execute(running).finally(() => {
      this.current = undefined;
      this.pump();
    });
  }

  private async execute(run: Running): Promise<void> {
    const outcome = await runJob(run.job, {
      config: this.options.config, logger: this.options.logger, now: this.now, signal: run.controller.signal,
      triggers: [...run.triggers], busyTimeoutMs: this.options.busyTimeoutMs ?? 30_000,
    });
    if (outcome.busy) {
      this.retrySoon(run.job.name);
    } else if (outcome.blocked) {
      this.logger.warn({ job: run.job.name }, 'the API is refusing requests: retrying at the next tick (no ticks skipped)');
    } else if (outcome.status === 'failed') {
      const skips = this.backoff.failed(run.job.name);
      const state = this.backoff.of(run.job.name);
      this.logger.warn({ job: run.job.name, failures: state.failures, skip_ticks: skips }, 'backing off');
    } else if (outcome.status !== 'interrupted') {
      this.backoff.succeeded(run.job.name);
    }
    try {
      this.options.onOutcome?.(outcome);
    } catch (error) {
      this.logger.error({ err: { message: (error as Error).message } }, 'onOutcome failed');
    }
    if (outcome.result && !this.stopping) {
      for (const followUp of run.job.followUps?.(outcome.result) ?? []) {
        const next = this.jobs.get(followUp);
        if (next && jobEnabled(next, this.options.config)) this.enqueue(followUp, `after:${run.job.name}`);
      }
    }
  }

  private retrySoon(name: JobName): void {
    if (this.stopping || this.retries.has(name)) return;
    const delayMs = this.options.busyRetryMs ?? 60_000;
    this.logger.info({ job: name, retry_in_s: delayMs / 1000 }, 'the database was busy: retrying soon (no ticks skipped)');
    this.retries.set(name, setTimeout(() => {
      this.retries.delete(name);
      this.enqueue(name, 'retry:busy');
    }, delayMs));
  }
}

function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    }, () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
