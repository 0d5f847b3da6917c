// A clock for code that takes one (RateWriter's `clock`): time moves only when the test says, and
// the timers due on the way fire in order.
import type { WriterClock } from '../../src/ingest/RateWriter.js';

export class FakeClock implements WriterClock {
  private time = 0;
  private timers: { at: number; fn: () => void }[] = [];

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.time + ms, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Moves time on by `ms`, firing each timer due on the way at its own time. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.fn();
    }
    this.time = end;
  }
}
