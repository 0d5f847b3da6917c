// Per-job exponential backoff counted in ticks: after n consecutive failures a job's next
// min(2^(n-1), maxSkips) ticks are skipped (1, 2, 4, 8, 16…); one success resets it. Ticks of one
// job that fire at the same instant (rates and day_ahead at 16:00) count as one.
export interface BackoffState {
  failures: number;
  skipsLeft: number;
}

export class Backoff {
  private readonly state = new Map<string, BackoffState & { lastSkipped?: number }>();

  constructor(private readonly maxSkips = 16) {}

  /** A tick of `job` at `at`: true when it is to be skipped (using up one skip). */
  skip(job: string, at: Date): boolean {
    const s = this.state.get(job);
    if (!s) return false;
    if (s.lastSkipped === at.getTime()) return true;
    if (s.skipsLeft <= 0) return false;
    s.skipsLeft--;
    s.lastSkipped = at.getTime();
    return true;
  }

  /** Records a failure; returns how many ticks will now be skipped. */
  failed(job: string): number {
    const failures = (this.state.get(job)?.failures ?? 0) + 1;
    const skipsLeft = Math.min(2 ** (failures - 1), this.maxSkips);
    this.state.set(job, { failures, skipsLeft });
    return skipsLeft;
  }

  succeeded(job: string): void {
    this.state.delete(job);
  }

  of(job: string): BackoffState {
    const s = this.state.get(job);
    return { failures: s?.failures ?? 0, skipsLeft: s?.skipsLeft ?? 0 };
  }
}
