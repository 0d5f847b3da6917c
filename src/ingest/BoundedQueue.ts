// A queue between producers and one consumer, bounded by the rows it holds: a producer waits while
// it is full; the consumer takes everything once enough has gathered or no more will come.
export class BoundedQueue<T> {
  private items: T[] = [];
  private rows = 0;
  private closed = false;
  private wakeConsumer: (() => void) | undefined;
  private wakeProducers: (() => void)[] = [];

  constructor(private readonly capacity: number, private readonly rowsOf: (item: T) => number) {}

  /** Resolves once the item is queued (at once while the queue holds less than its capacity). */
  async push(item: T): Promise<void> {
    while (this.rows >= this.capacity) await new Promise<void>((resolve) => this.wakeProducers.push(resolve));
    this.items.push(item);
    this.rows += this.rowsOf(item);
    this.wakeConsumer?.();
  }

  /** No more items will be pushed. */
  close(): void {
    this.closed = true;
    this.wakeConsumer?.();
  }

  /** Everything queued, once it holds `rows` or the queue is closed; undefined when it is closed and empty. */
  async take(rows: number): Promise<T[] | undefined> {
    while (this.rows < rows && !this.closed) await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
    this.wakeConsumer = undefined;
    if (this.items.length === 0) return undefined;
    const taken = this.items;
    this.items = [];
    this.rows = 0;
    for (const wake of this.wakeProducers.splice(0)) wake();
    return taken;
  }
}
