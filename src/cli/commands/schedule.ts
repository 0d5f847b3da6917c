// `tariffs schedule`: the long-running scheduler (croner, Europe/London, one job at a time),
// or with --list each job's fire times over the next hours, from the same definitions.
import type { Command } from 'commander';
import { JOBS } from '../../jobs/index.js';
import { EXIT, UsageError } from '../../errors.js';
import { resolveSchedules } from '../../schedule/resolveSchedules.js';
import { Scheduler, type StopResult } from '../../schedule/Scheduler.js';
import { upcomingRuns } from '../../schedule/upcomingRuns.js';
import { readMarker, removeOwnMarker, writeMarker } from '../../store/processMarker.js';
import { assertFileDb, jobPaths, makeJobFolder } from '../../store/jobPaths.js';
import { parseUserDateTime } from '../../time/index.js';
import { action } from '../run.js';
import { configFrom, formatOf, loggerFor, withApi, withConfig, withDb, withFormat, type CommonFlags } from '../common.js';
import { writeRows } from '../output.js';
import { parsed, rule, seconds } from '../flagRules.js';
import { onStopSignals } from '../signals.js';
import { sayOnTerminal } from '../terminal.js';
import { runLine, startLine, stoppedLine, stoppingLine } from '../scheduleLines.js';
import type { JobOutcome } from '../../schedule/runJob.js';

interface ScheduleFlags extends CommonFlags {
  list?: boolean;
  now?: Date;
  hours: number;
  busyTimeout: number;
  busyRetry: number;
  stopTimeout: number;
}

const HELP = `
Jobs and default schedules (Europe/London; override with "schedules" in the --config file,
6 fields = seconds; "off" disables a schedule, and a job with all its schedules off does not
run as a follow-up either):
  products   0 6 * * *          refresh the products list
  rates      */30 * * * *       incremental rates for every tracked tariff
             */5 16-19 * * *    (schedules.day_ahead) fetch only while tomorrow is incomplete
             3-58/5 * * * *     (schedules.dispatches; configs with accounts) planned dispatches of
                                accounts on Intelligent Octopus Go, off :00/:30
  reports    15 20 * * *        re-export the reports; also after any run that stored new rates

While it runs, the daemon keeps a marker beside --db, .<name>.job/scheduler.json (its pid and
start time), removed when it stops; tariffs status reads it to say whether a daemon holds the
schedule (a marker whose pid is gone is stale: the daemon was killed).

One job runs at a time; the others queue. Ticks never stack: a tick of a queued job joins that
run (rates and day_ahead at 16:00 make one run), a tick of the schedule that started the running
run is dropped. A failing job skips its next 1, 2, 4 … 16 ticks; one success resets that.
Readers of --db (analysts' sessions, exports) never hold a job up: a job writes a working file of
its own and publishes --db when done. A job that finds another tariffs job writing waits up to
--busy-timeout seconds, then is asked for again --busy-retry seconds later; that is not a failure
(no tick is skipped) and tariffs status shows the attempts. On a terminal it prints a line when
it starts (its jobs and when each runs next), one after every run, and one when it stops.
SIGTERM/SIGINT (Ctrl-C): stop ticking, wait up to --stop-timeout seconds for the running job,
then interrupt it (what it committed is kept); exit 0. A second signal interrupts at once.

Clock changes (the daemon and --list follow one rule): a job at one fixed time between 01:00
and 01:59 (30 1 * * *) fires once on both days: at 02:00 BST on the spring-forward day (01:30
does not exist), and at the first (BST) occurrence of 01:30 on the fall-back day. A schedule
with several times in that hour (*/30 * * * *, 0,30 1 * * *) skips those that do not exist in
spring and fires at both occurrences in autumn. --list shows exactly this.

Examples:
  tariffs schedule --config tariffs.json
  tariffs schedule --list --now 2026-03-28T12:00:00Z --hours 48 --format json`;

export function configure(command: Command): void {
  command
    .option('--list', "print each job's fire times over the next --hours and exit")
    .option('--now <when>', 'with --list: list from this instant instead of now (ISO 8601)', parsed('--now', parseUserDateTime))
    .option('--hours <n>', 'with --list: how far ahead', hoursAhead, 48)
    .option('--busy-timeout <seconds>', 'how long a job waits while another tariffs job is writing the database', seconds('--busy-timeout'), 30)
    .option('--busy-retry <seconds>', 'after such a wait, run the job again this much later (not counted as a failure)', seconds('--busy-retry'), 60)
    .option('--stop-timeout <seconds>', 'on SIGTERM, how long to let the running job finish before interrupting it', seconds('--stop-timeout'), 60);
  rule<ScheduleFlags>(command, (f) => f.now !== undefined && !f.list, '--now goes with --list');
  withConfig(withApi(withDb(withFormat(command))));
  command.addHelpText('after', HELP);
  command.action(action(async (flags: ScheduleFlags) => {
    const config = await configFrom(flags);
    if (flags.list) {
      const listed = upcomingRuns(resolveSchedules(JOBS, config), flags.now ?? new Date(), flags.hours, JOBS.map((j) => j.name));
      const format = formatOf(flags);
      if (format === 'json') process.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
      else writeRows(listed.flatMap((j) => j.next.map((n) => ({ job: j.job, at: n.at, local: n.local, triggers: n.triggers.join('+') }))), format, ['job', 'at', 'local', 'triggers']);
      return EXIT.OK;
    }
    const busyTimeoutMs = flags.busyTimeout * 1000;
    const graceMs = flags.stopTimeout * 1000;
    const logger = await loggerFor(config, flags);
    const busyRetryMs = flags.busyRetry * 1000;
    // On a terminal a line at the start, one per run and one at the end (the logs show warnings only).
    const say = process.stderr.isTTY ? sayOnTerminal : undefined;
    const scheduler = new Scheduler({
      jobs: JOBS, config, logger, busyTimeoutMs, busyRetryMs,
      ...(say ? { onOutcome: (outcome: JobOutcome) => say(runLine(outcome, scheduler.schedules, new Date())) } : {}),
    });
    if (config.tariffs.length + config.products.length + config.accounts.length === 0) {
      logger.warn('nothing tracked: the config lists no tariffs, products or accounts (rates runs will be skipped)');
    }
    holdScheduleMarker(config.db, logger);
    scheduler.start();
    logger.info({ db: config.db }, 'scheduler started'); // pid: every line has it already
    say?.(startLine(scheduler.schedules, new Date(), config.db));
    const result = await new Promise<StopResult>((resolve) => {
      const stopListening = onStopSignals({
        first: (signal) => {
          logger.info({ signal, running: scheduler.running() ?? null }, 'stopping');
          // \r: over the ^C the terminal echoed, not after it
          say?.(`\r${stoppingLine(scheduler.running(), graceMs / 1000)}`);
          // After the grace period an interrupted job may still be waiting out a busy database.
          void scheduler.stop({ graceMs, abortMs: Math.max(15_000, busyTimeoutMs + 5_000) }).then((r) => {
            stopListening();
            resolve(r);
          });
        },
        again: (signal) => {
          logger.warn({ signal }, 'second signal: interrupting the running job now');
          scheduler.interrupt();
        },
      });
    });
    logger.info({ result }, 'scheduler stopped');
    removeOwnMarker(jobPaths(config.db).scheduler);
    say?.(stoppedLine(result));
    if (result === 'abandoned') process.exit(EXIT.FAILURE);
    return EXIT.OK;
  }));
}

/** `.<db>.job/scheduler.json` ({pid, started_at}) says that this daemon holds the schedule of --db
 *  (`tariffs status` shows it); removed when it stops, stale (its pid gone) if it was killed. */
function holdScheduleMarker(db: string, logger: { warn: (o: object, m: string) => void }): void {
  assertFileDb(db);
  const paths = jobPaths(db);
  makeJobFolder(paths, db);
  const other = readMarker(paths.scheduler);
  if (other?.alive && other.pid !== process.pid) {
    logger.warn({ pid: other.pid, since: other.started_at }, 'another tariffs schedule already runs the jobs of this database');
  }
  writeMarker(paths.scheduler, { pid: process.pid, started_at: new Date().toISOString() });
  process.once('exit', () => removeOwnMarker(paths.scheduler));
}

function hoursAhead(text: string): number {
  const hours = Number(text);
  if (!(Number.isFinite(hours) && hours > 0 && hours <= 24 * 366)) throw new UsageError(`--hours: '${text}' is not a number of hours (0 < N <= 8784)`);
  return hours;
}
