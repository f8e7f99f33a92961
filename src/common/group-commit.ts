/**
 * Group commit: items added while a write is in flight go out together in the next one, so a
 * burst of N callers costs a few round trips instead of N, and a lone caller waits for nothing
 * (its write starts at once). Each caller's promise settles with the write that carried its item;
 * a failed write of several items is tried again item by item, so an item the database refuses
 * fails its own caller only.
 */
export class GroupCommit<T> {
  private queue: { item: T; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private inFlight = 0;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly options: { maxBatch: number; maxInFlight: number },
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight++;
      this.attempt(batch.map((b) => b.item))
        .then(
          () => batch.forEach((b) => b.resolve()),
          (e: unknown) => {
            if (batch.length === 1) return batch[0].reject(e);
            return Promise.all(
              batch.map((b) => this.attempt([b.item]).then(b.resolve, b.reject)),
            ).then(() => undefined);
          },
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }

  private attempt(items: T[]): Promise<void> {
    try {
      return this.write(items);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }
}
