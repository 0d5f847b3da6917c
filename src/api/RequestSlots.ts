// At most N requests at a time, the rest waiting in order: a request's deadline starts when it is
// sent, not while it waits for a connection.
export class RequestSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(slots: number) {
    this.free = Math.max(1, slots);
  }

  /** Runs `task` once a slot is free, and frees it when the task settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next(); // the slot passes straight to the next in line
      else this.free++;
    }
  }
}
