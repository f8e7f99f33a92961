/**
 * Group commit: items added while a write is in flight go out together in the next one (a lone
 * caller waits for nothing). A failed write of several items is retried item by item, so a
 * refused item fails its own caller only; a write may answer one result per item, in order.
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
