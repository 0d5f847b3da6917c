// When a cron expression fires in Europe/London, read from any instant (`tariffs schedule --list
// [--now]`): croner's own next-run rule, the one the daemon (src/schedule/Scheduler.ts) runs by.
import { Cron, type CronOptions } from 'croner';
import { UsageError } from '../errors.js';
import { LONDON_TIME_ZONE } from '../time/index.js';
import { cronFieldProblems } from './checkCronFields.js';

/** What the daemon and the lister both give croner: Europe/London wall time; day-of-month AND
 *  day-of-week must both match, not either. */
export const CRON_OPTIONS = { timezone: LONDON_TIME_ZONE, domAndDow: true } as const satisfies CronOptions;

export interface CronSchedule {
  expression: string;
}

/**
 * Checks a 5-field (minute-level) or 6-field (second-level) cron expression. `where` names its
 * source in the error (e.g. `--config tariffs.json: schedules.rates`). Quartz tokens (L, W, #)
 * are refused.
 */
export function parseCron(expression: string, where = 'cron expression'): CronSchedule {
  const problems = cronFieldProblems(expression);
  if (problems.length > 0) throw new UsageError(`${where}: '${expression}' is not a cron expression (${problems.join('; ')})`);
  try {
    new Cron(expression, { ...CRON_OPTIONS, paused: true });
  } catch (error) {
    throw new UsageError(`${where}: '${expression}' is not a cron expression (${(error as Error).message})`);
  }
  return { expression };
}

/** Fire times t with after < t <= until, oldest first, at most `limit` of them. */
export function fireTimes(schedule: CronSchedule | string, after: Date, until: Date, limit = Number.POSITIVE_INFINITY): Date[] {
  if (Number.isNaN(after.getTime())) throw new UsageError('fire times: not a valid date');
  const cron = new Cron(typeof schedule === 'string' ? parseCron(schedule).expression : schedule.expression, { ...CRON_OPTIONS, paused: true });
  const out: Date[] = [];
  let previous = after;
  while (out.length < limit) {
    const next = cron.nextRun(previous);
    if (next === null || next.getTime() > until.getTime()) break;
    out.push(next);
    previous = next;
  }
  return out;
}
