/**
 * Group commit: items added while a write is in flight go out together in the next one, so a
 * burst of N callers costs a few round trips instead of N, and a lone caller waits for nothing
 * (its write starts at once). Each caller's promise settles with the write that carried its item;
 * a failed write of several items is tried again item by item, so an item the database refuses
 * fails its own caller only. A write may answer one result per item (in the items' order): each
 * caller gets its own.
 */
export class GroupCommit<T, R = void> {
  private queue: { item: T; resolve: (r: R | undefined) => void; reject: (e: unknown) => void }[] =
    [];
  private inFlight = 0;

  constructor(
    private readonly write: (items: T[]) => Promise<readonly R[] | void>,
    private readonly options: { maxBatch: number; maxInFlight: number },
  ) {}

  add(item: T): Promise<R | undefined> {
    return new Promise<R | undefined>((resolve, reject) => {
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
          (results) => batch.forEach((b, i) => b.resolve(results ? results[i] : undefined)),
          (e: unknown) => {
            if (batch.length === 1) return batch[0].reject(e);
            return Promise.all(
              batch.map((b) =>
                this.attempt([b.item]).then(
                  (results) => b.resolve(results ? results[0] : undefined),
                  b.reject,
                ),
              ),
            ).then(() => undefined);
          },
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }

  private attempt(items: T[]): Promise<readonly R[] | void> {
    try {
      return this.write(items);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }
}
