// When a cron expression fires in Europe/London, listed over an interval from any instant: what
// `tariffs schedule --list [--now]` and the DST tests show. node-cron can tell a task's next runs
// only from the real clock (getNextRun/getNextRuns read `new Date()`), so this is the one copy of
// its next-run rule, checked against node-cron's getNextRuns in test/schedule-fire-times.test.ts
// and against the daemon's actual ticks in test/schedule-scheduler.test.ts (the daemon itself logs
// node-cron's own getNextRun):
//   * fields are node-cron's (its parse()); day-of-month AND day-of-week must both match;
//   * a wall time that does not exist (the spring-forward hour, 01:00–01:59 on the last Sunday of
//     March) never fires that day; an expression that names only that hour skips the day;
//   * a wall time that happens twice (01:00–01:59 on the last Sunday of October) fires once, at
//     its second occurrence (GMT); the first pass through that hour fires nothing;
//   * "after" is compared as wall-clock time on its own day (node-cron's lower bound): started
//     during the first (BST) pass of the repeated hour, the wall times already shown that hour
//     are treated as passed and wait for the next day.
// node-cron's parser is required when an expression is parsed (its CommonJS build, loadable from
// this synchronous function): loadConfig checks a config file's schedules here, and every command
// loads loadConfig, most of them with no schedule to check.
import { createRequire } from 'node:module';
import type * as NodeCron from 'node-cron';
import { UsageError } from '../errors.js';
import { utcOffsetMinutes } from '../time/index.js';
import { cronFieldProblems } from './checkCronFields.js';

const SECOND_MS = 1000;
const DAY_MS = 86_400_000;
/** An expression that never matches (30 February) is given up on after this many days. */
const MAX_DAYS = 366 * 8;

export interface CronSchedule {
  expression: string;
  seconds: number[];
  minutes: number[];
  hours: number[];
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  /** 0 = Sunday … 6 = Saturday. */
  daysOfWeek: ReadonlySet<number>;
}

/**
 * Parses a 5-field (minute-level) or 6-field (second-level) cron expression. `where` names its
 * source in the error (e.g. `--config tariffs.json: schedules.rates`). Quartz tokens (L, W, #)
 * are refused: the lister does not model them.
 */
export function parseCron(expression: string, where = 'cron expression'): CronSchedule {
  const problems = cronFieldProblems(expression);
  if (problems.length > 0) throw new UsageError(`${where}: '${expression}' is not a cron expression (${problems.join('; ')})`);
  let fields: ReturnType<typeof NodeCron.parse>;
  try {
    fields = (createRequire(import.meta.url)('node-cron') as typeof NodeCron).parse(expression);
  } catch (error) {
    throw new UsageError(`${where}: '${expression}' is not a cron expression (${(error as Error).message})`);
  }
  const numbers = (values: (number | string)[], field: string): number[] => values.map((v) => {
    if (typeof v !== 'number') {
      throw new UsageError(`${where}: '${expression}': ${field} token '${v}' (L, W, #) is not supported`);
    }
    return v;
  });
  const asc = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);
  return {
    expression,
    seconds: asc(fields.second),
    minutes: asc(fields.minute),
    hours: asc(fields.hour),
    daysOfMonth: new Set(numbers(fields.dayOfMonth, 'day-of-month')),
    months: new Set(fields.month),
    daysOfWeek: new Set(numbers(fields.dayOfWeek, 'day-of-week').map((d) => d % 7)),
  };
}

/** Fire times t with after < t <= until, oldest first, at most `limit` of them. */
export function fireTimes(schedule: CronSchedule | string, after: Date, until: Date, limit = Number.POSITIVE_INFINITY): Date[] {
  const out: Date[] = [];
  if (limit <= 0) return out;
  for (const at of iterate(schedule, after)) {
    if (at.getTime() > until.getTime()) break;
    out.push(at);
    if (out.length >= limit) break;
  }
  return out;
}

function* iterate(schedule: CronSchedule | string, after: Date): Generator<Date> {
  const cron = typeof schedule === 'string' ? parseCron(schedule) : schedule;
  const baseMs = Math.floor(after.getTime() / SECOND_MS) * SECOND_MS;
  if (Number.isNaN(baseMs)) throw new UsageError('fire times: not a valid date');
  const baseWall = baseMs + offsetMs(baseMs);
  const firstDay = Math.floor(baseWall / DAY_MS);
  const baseSecondOfDay = (baseWall - firstDay * DAY_MS) / SECOND_MS;
  let previous = baseMs;
  for (let day = firstDay; day < firstDay + MAX_DAYS; day++) {
    const date = new Date(day * DAY_MS);
    if (!cron.months.has(date.getUTCMonth() + 1) || !cron.daysOfMonth.has(date.getUTCDate())
      || !cron.daysOfWeek.has(date.getUTCDay())) continue;
    for (const hour of cron.hours) {
      for (const minute of cron.minutes) {
        for (const second of cron.seconds) {
          const secondOfDay = hour * 3600 + minute * 60 + second;
          if (day === firstDay && secondOfDay <= baseSecondOfDay) continue;
          const at = wallToUtcMs(day * DAY_MS + secondOfDay * SECOND_MS);
          if (at === undefined || at <= previous) continue;
          previous = at;
          yield new Date(at);
        }
      }
    }
  }
}

function offsetMs(utcMs: number): number {
  return utcOffsetMinutes(new Date(utcMs)) * 60_000;
}

/**
 * UTC instant of a Europe/London wall time (ms since 1970-01-01 local), by node-cron's rule: read
 * the wall time as UTC, subtract the offset in force then. For London that lands on the second
 * (GMT) occurrence of a repeated time; a time in the spring gap reads back differently: undefined.
 */
function wallToUtcMs(wallMs: number): number | undefined {
  const first = wallMs - offsetMs(wallMs);
  if (offsetMs(first) === offsetMs(wallMs)) return first;
  const second = wallMs - offsetMs(first);
  if (first + offsetMs(first) === wallMs) return first;
  if (second + offsetMs(second) === wallMs) return second;
  return undefined;
}
