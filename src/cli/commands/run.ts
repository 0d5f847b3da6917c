// `tariffs run JOB`: one run of a scheduled job, for system cron or a systemd timer. Runs the
// job's follow-ups too (reports after new rates), like the daemon. Exit 0 ok or nothing to do,
// 1 failed or partial, 75 another process held the database, 130/143 interrupted.
import type { Command } from 'commander';
import { JOBS, jobNamed } from '../../jobs/index.js';
import { EXIT, UsageError } from '../../errors.js';
import type { JobDefinition } from '../../schedule/Job.js';
import { jobEnabled } from '../../schedule/resolveSchedules.js';
import { runJob, type JobOutcome } from '../../schedule/runJob.js';
import { action } from '../run.js';
import { exitCodeOfSignal, interruptSignal } from '../signals.js';
import { configFrom, formatOf, loggerFor, withApi, withConfig, withDb, withFormat, type CommonFlags } from '../common.js';
import { rule, seconds } from '../flagRules.js';
import { writeRows } from '../output.js';

interface RunFlags extends CommonFlags {
  busyTimeout: number;
  followUps: boolean;
  dayAhead?: boolean;
}

export function configure(command: Command): void {
  command
    .argument('<job>', `the job: ${JOBS.map((j) => j.name).join(', ')}`, jobNamed)
    .option('--day-ahead', 'rates only: fetch only while tomorrow is incomplete (the day-ahead watch)')
    .option('--busy-timeout <seconds>', 'how long to wait while another tariffs job is writing the database, then exit 75', seconds('--busy-timeout'), 10)
    .option('--no-follow-ups', 'do not run the reports after a run that stored new rates (also off when schedules.reports is "off")');
  rule<RunFlags>(command, (f, [job]) => f.dayAhead === true && (job as JobDefinition).name !== 'rates', '--day-ahead goes with the rates job');
  withConfig(withApi(withDb(withFormat(command))));
  command.addHelpText('after', `
Exit status: 0 done, 1 the job failed, a tariff failed or the run hit max_run_seconds (config,
default 1800: it stops as on SIGTERM, what was committed is kept), 2 bad usage (also: rates with
nothing tracked), 75 another process (e.g. the scheduler) holds the database: nothing was written,
try later.
Piped or under cron, stdout is one JSON line per run (an array of the jobs run), like the log lines
on stderr; on a terminal, a table.

crontab (times are Europe/London with CRON_TZ, or on a machine whose clock is UK time; the
watch leaves out :00 and :30, when the 30-minute run already fetches):
  CRON_TZ=Europe/London
  */30 * * * *                tariffs run rates --config /etc/tariffs.json
  5-25/5,35-55/5 16-19 * * *  tariffs run rates --day-ahead --config /etc/tariffs.json
  0 6 * * *                   tariffs run products --config /etc/tariffs.json
  15 20 * * *                 tariffs run reports --config /etc/tariffs.json`);
  command.action(action(async (first: JobDefinition, flags: RunFlags) => {
    const format = formatOf(flags);
    const config = await configFrom(flags);
    if (first.name === 'rates' && config.tariffs.length + config.products.length + config.accounts.length === 0) {
      throw new UsageError(config.file ? `nothing to fetch: --config ${config.file} lists no tariffs, products or accounts` : 'nothing to fetch: give --config (or TARIFFS_CONFIG) with tariffs, products or accounts');
    }
    const logger = await loggerFor(config, flags);
    const interrupt = interruptSignal(logger);
    const outcomes: JobOutcome[] = [];
    try {
      const pending: { job: JobDefinition; trigger: string }[] = [{ job: first, trigger: flags.dayAhead ? 'day_ahead' : 'manual' }];
      while (pending.length > 0 && !interrupt.signal.aborted) {
        const { job, trigger } = pending.shift()!;
        const outcome = await runJob(job, {
          config, logger, now: () => new Date(), signal: interrupt.signal, triggers: [trigger], busyTimeoutMs: flags.busyTimeout * 1000,
        });
        outcomes.push(outcome);
        if (flags.followUps && outcome.result) {
          for (const next of job.followUps?.(outcome.result) ?? []) {
            if (jobEnabled(jobNamed(next), config)) pending.push({ job: jobNamed(next), trigger: `after:${job.name}` });
          }
        }
      }
    } finally {
      interrupt.dispose();
    }
    const columns = ['job', 'status', 'run_id', 'ingest_run_id', 'rates_changed', 'seconds', 'message', 'job_run'];
    // One line, like the JSON log lines a cron job appends next to it.
    if (format === 'json') process.stdout.write(`${JSON.stringify(outcomes.map(row))}\n`);
    else writeRows(outcomes.map(row), format, columns);
    const sig = interrupt.received();
    if (sig) return exitCodeOfSignal(sig);
    const failed = outcomes.filter((o) => o.status === 'failed' || o.status === 'partial' || o.status === 'interrupted');
    for (const o of failed) process.stderr.write(`tariffs: ${o.job} ${o.status}: ${messageOf(o)}\n`);
    if (outcomes.some((o) => o.busy)) return EXIT.BUSY;
    return failed.length > 0 ? EXIT.FAILURE : EXIT.OK;
  }));
}

function row(o: JobOutcome): Record<string, unknown> {
  return {
    job: o.job, status: o.status, run_id: o.result?.ingestRunId ?? null, ingest_run_id: o.result?.ingestRunId ?? null, job_run: o.runId,
    rates_changed: o.result?.ratesChanged ?? 0, seconds: o.seconds, message: messageOf(o) || null,
  };
}

function messageOf(o: JobOutcome): string {
  if (o.error !== undefined) return (o.error as Error)?.message ?? String(o.error);
  return o.result?.message ?? '';
}
