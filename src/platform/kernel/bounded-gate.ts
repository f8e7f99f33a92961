/**
 * A weighted semaphore with a short queue: running tasks hold at most `capacity` permits, at most
 * `maxWaiting` wait, and the rest are refused at once (the caller answers "busy"). Strictly first
 * come, first served, so a heavy task at the head is never starved by light ones behind it.
 */
export class BoundedGate {
  private used = 0;
  private running = 0;
  private readonly waiting: { weight: number; start: () => void }[] = [];

  constructor(
    readonly capacity: number,
    readonly maxWaiting: number,
  ) {
    if (!(capacity > 0)) throw new RangeError(`a gate needs a positive capacity, not ${capacity}`);
  }

  /**
   * Runs `task` holding `weight` permits; throws `busy()` when it cannot run at once and every
   * queue place is taken. Without `busy` the task waits however long the queue (it still runs
   * only within the capacity). A weight above the capacity could never run: a RangeError.
   */
  async run<T>(weight: number, task: () => Promise<T>, busy?: () => Error): Promise<T> {
    if (!(weight > 0) || weight > this.capacity)
      throw new RangeError(`weight ${weight} is not within the gate's capacity ${this.capacity}`);
    if (this.waiting.length === 0 && this.used + weight <= this.capacity) this.take(weight);
    else if (!busy || this.waiting.length < this.maxWaiting)
      await new Promise<void>((start) => this.waiting.push({ weight, start }));
    else throw busy();
    try {
      return await task();
    } finally {
      this.used -= weight;
      this.running--;
      this.startWaiters();
    }
  }

  /** Permits held, tasks running and tasks waiting now. */
  get load(): { used: number; running: number; waiting: number } {
    return { used: this.used, running: this.running, waiting: this.waiting.length };
  }

  private take(weight: number): void {
    this.used += weight;
    this.running++;
  }

  private startWaiters(): void {
    while (this.waiting.length > 0 && this.used + this.waiting[0].weight <= this.capacity) {
      const next = this.waiting.shift()!;
      this.take(next.weight);
      next.start();
    }
  }
}
