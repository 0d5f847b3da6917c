// Each job's fire times over the next hours (`tariffs schedule --list`): the union of its
// schedules, one entry per instant (ticks of one job that coincide make one run, as in the daemon).
import { formatLocal, formatUtc } from '../time/index.js';
import { fireTimes } from '../cron/fireTimes.js';
import type { JobName } from './Job.js';
import type { ResolvedSchedule } from './resolveSchedules.js';

export interface UpcomingRun {
  /** UTC, e.g. 2026-03-29T15:05:00Z. */
  at: string;
  /** Europe/London wall time with offset, e.g. 2026-03-29T16:05:00+01:00. */
  local: string;
  /** Schedule keys firing at that instant (e.g. ["rates", "day_ahead"] at 16:00). */
  triggers: string[];
}

export interface JobUpcoming {
  job: JobName;
  next: UpcomingRun[];
}

/** At most this many fire times per schedule (a second-level test schedule would list 172 800 in 48 h). */
export const MAX_LISTED_PER_SCHEDULE = 5000;

export function upcomingRuns(schedules: readonly ResolvedSchedule[], now: Date, hours: number, jobs?: readonly JobName[]): JobUpcoming[] {
  const until = new Date(now.getTime() + hours * 3_600_000);
  const order = jobs ?? [...new Set(schedules.map((s) => s.job))];
  return order.map((job) => {
    const byInstant = new Map<number, string[]>();
    for (const schedule of schedules.filter((s) => s.job === job)) {
      for (const at of fireTimes(schedule.cron, now, until, MAX_LISTED_PER_SCHEDULE)) {
        const keys = byInstant.get(at.getTime()) ?? [];
        keys.push(schedule.key);
        byInstant.set(at.getTime(), keys);
      }
    }
    const next = [...byInstant.entries()].sort((a, b) => a[0] - b[0]).map(([ms, triggers]) => {
      const at = new Date(ms);
      return { at: formatUtc(at), local: formatLocal(at), triggers };
    });
    return { job, next };
  });
}
