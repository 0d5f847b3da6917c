// What `tariffs schedule` says on a terminal, one line each: when it starts (its jobs and when
// each runs next, Europe/London), after every run (how it went, when that job runs next), and when
// it stops. Piped or under a service manager the JSON log lines say the same for machines.
import type { JobName } from '../schedule/Job.js';
import type { JobOutcome } from '../schedule/runJob.js';
import type { StopResult } from '../schedule/Scheduler.js';
import type { ResolvedSchedule } from '../schedule/resolveSchedules.js';
import { upcomingRuns } from '../schedule/upcomingRuns.js';
import { localDateOf } from '../time/index.js';
import { wallTime } from './table.js';

/** Far enough ahead to find the next run of a daily job, and of one that skips days. */
const LOOK_AHEAD_HOURS = 24 * 8;

/** When each job runs next, in the jobs' order: `rates 04:30`, or with its date when not today. */
export function nextRuns(schedules: readonly ResolvedSchedule[], now: Date, jobs?: readonly string[]): string[] {
  const order = jobs ?? [...new Set(schedules.map((s) => s.job))];
  return upcomingRuns(schedules, now, LOOK_AHEAD_HOURS, order as readonly JobName[]).flatMap((j) => {
    if (!schedules.some((s) => s.job === j.job)) return [];
    const next = j.next[0];
    return [`${j.job} ${next ? wallTime(new Date(next.at), localDateOf(now)) : `not within ${LOOK_AHEAD_HOURS / 24} days`}`];
  });
}

export function startLine(schedules: readonly ResolvedSchedule[], now: Date, db: string, jobs?: readonly string[]): string {
  const running = jobs ?? [...new Set(schedules.map((s) => s.job))];
  return `tariffs schedule: ${running.length} job${running.length === 1 ? '' : 's'} on ${db}; next (Europe/London): ` +
    `${nextRuns(schedules, now, running).join(', ')}. Ctrl-C stops (waits for a running job).`;
}

/** `[14:30:05] rates ok in 2.3 s: 96 rates stored; next 15:00` */
export function runLine(outcome: JobOutcome, schedules: readonly ResolvedSchedule[], now: Date): string {
  const parts: string[] = [];
  const result = outcome.result;
  if (outcome.busy) parts.push('another tariffs job was writing the database; trying again soon');
  else if (result) {
    if (outcome.job === 'rates' && result.status !== 'skipped') parts.push(`${result.ratesChanged} rate${result.ratesChanged === 1 ? '' : 's'} stored`);
    if (result.message) parts.push(result.message);
  } else if (outcome.error !== undefined) parts.push(outcome.error instanceof Error ? outcome.error.message : String(outcome.error));
  const next = nextRuns(schedules.filter((s) => s.job === outcome.job), now)[0]?.replace(`${outcome.job} `, '');
  const status = outcome.busy ? 'not run' : outcome.status;
  return `[${wallTime(now, localDateOf(now))}] ${outcome.job} ${status} in ${outcome.seconds.toFixed(1)} s` +
    `${parts.length > 0 ? `: ${parts.join('; ')}` : ''}${next ? `; next ${next}` : ''}`;
}

export function stoppingLine(running: string | undefined, graceSeconds: number): string {
  return running === undefined
    ? 'tariffs schedule: stopping.'
    : `tariffs schedule: stopping: waiting up to ${graceSeconds} s for ${running} to finish (Ctrl-C again interrupts it).`;
}

export function stoppedLine(result: StopResult): string {
  const how: Record<StopResult, string> = {
    idle: 'nothing was running',
    finished: 'the running job finished',
    aborted: 'the running job was interrupted (what it wrote is kept; the next run continues)',
    abandoned: 'the running job did not stop',
  };
  return `tariffs schedule: stopped (${how[result]}). Goodbye.`;
}
