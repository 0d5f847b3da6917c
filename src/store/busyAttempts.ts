// Attempts to write that found another tariffs job writing the warehouse. They cannot go into the
// warehouse at that moment (the other job holds it), so each is one JSON line appended to
// `.<db>.job/busy.jsonl` (an append of one short line is atomic); the next writer moves them into
// `busy_attempts` in one transaction, and `tariffs status` reads both.
import { appendFileSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import type { Warehouse } from './Warehouse.js';
import { valuesList } from './valuesList.js';

export interface BusyAttempt {
  job: string;
  /** ISO instant the attempt gave up. */
  attempted_at: string;
  waited_seconds: number;
  error: string | null;
}

export function noteBusyAttempt(log: string, attempt: { job: string; waitedMs: number; error: string; at?: Date }): void {
  const line: BusyAttempt = {
    job: attempt.job, attempted_at: (attempt.at ?? new Date()).toISOString(),
    waited_seconds: Math.round(attempt.waitedMs) / 1000, error: attempt.error,
  };
  try {
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  } catch {
    // the note is a courtesy to `status`; the attempt's own exit status (75) says it anyway
  }
}

/** The attempts noted and not yet moved into the warehouse (a torn last line is skipped). */
export function readBusyAttempts(log: string): BusyAttempt[] {
  if (!existsSync(log)) return [];
  const attempts: BusyAttempt[] = [];
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const a = JSON.parse(line) as BusyAttempt;
      if (typeof a.job === 'string' && typeof a.attempted_at === 'string') attempts.push(a);
    } catch {
      // a line cut short by a crash
    }
  }
  return attempts;
}

/** Moves the noted attempts into busy_attempts (the caller holds the writers' lock). */
export async function drainBusyAttempts(warehouse: Warehouse, log: string): Promise<number> {
  if (!existsSync(log)) return 0;
  // Renamed first: an attempt noted from now on goes to a new file and waits for the next writer.
  const taken = `${log}.${process.pid}.draining`;
  renameSync(log, taken);
  const attempts = readBusyAttempts(taken);
  if (attempts.length > 0) {
    const { sql, params } = valuesList(attempts.map((a) => [a.job, a.attempted_at, a.waited_seconds ?? 0, a.error ?? null]),
      ['?', 'CAST(? AS TIMESTAMPTZ)', 'CAST(? AS DOUBLE)', '?']);
    await warehouse.run(`INSERT OR IGNORE INTO busy_attempts VALUES ${sql}`, params);
  }
  rmSync(taken, { force: true });
  return attempts.length;
}
