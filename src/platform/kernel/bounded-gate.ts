/**
 * A semaphore with a short queue: at most `atOnce` tasks run, at most `maxWaiting` wait for a
 * slot, and any beyond that are refused at once (the caller answers "busy") instead of queueing
 * without bound. A finished task hands its slot straight to the oldest waiter.
 */
export class BoundedGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly atOnce: number,
    readonly maxWaiting: number,
  ) {}

  /**
   * Runs `task` when a slot is free; throws `busy()` when every slot and queue place is taken.
   * Without `busy` the task waits however long the queue (it still runs only in a slot).
   */
  async run<T>(task: () => Promise<T>, busy?: () => Error): Promise<T> {
    if (this.running < this.atOnce) this.running++;
    else if (!busy || this.waiting.length < this.maxWaiting)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    else throw busy();
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
