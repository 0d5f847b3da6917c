// A fixed number of workers over one queue of requests to make. Some items (a stream's probe) add
// more items when they finish; a worker that finds the queue empty waits while such an item is
// out, and stops once none is (the queue can then no longer grow).
export class FetchPool<T> {
  private readonly queue: T[] = [];
  /** Items under way that may still add more. */
  private growing = 0;
  private waiting: (() => void)[] = [];

  /**
   * @param handle fetches one item (it may `add` more).
   * @param grows whether an item may add more when handled.
   * @param onLastSent called as each worker finds nothing left to send (the last requests may be
   *   under way), so that what they bring is written as it comes.
   */
  constructor(
    private readonly handle: (item: T) => Promise<void>,
    private readonly grows: (item: T) => boolean,
    private readonly onLastSent: () => void,
  ) {}

  add(...items: T[]): void {
    this.queue.push(...items);
    this.wake();
  }

  /** Runs `concurrency` workers until the queue is empty and can no longer grow. */
  async run(concurrency: number): Promise<void> {
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, () => this.work()));
  }

  private async work(): Promise<void> {
    for (;;) {
      const item = this.queue.shift();
      if (item === undefined) {
        if (this.growing === 0) {
          this.onLastSent();
          return;
        }
        await new Promise<void>((resolve) => this.waiting.push(resolve));
        continue;
      }
      if (!this.grows(item)) {
        await this.handle(item);
        continue;
      }
      this.growing++;
      try {
        await this.handle(item);
      } finally {
        this.growing--;
        this.wake();
      }
    }
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}
