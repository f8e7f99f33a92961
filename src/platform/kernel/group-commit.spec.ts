import { type Deferred, deferred } from '../../../test/support/deferred';
import { GroupCommit } from './group-commit';

describe('GroupCommit', () => {
  it('writes a lone item at once, and what arrives meanwhile together in the next write', async () => {
    const writes: number[][] = [];
    const pending: Deferred[] = [];
    const g = new GroupCommit<number>(
      (items) => {
        writes.push(items);
        const d = deferred();
        pending.push(d);
        return d.promise;
      },
      { maxBatch: 100, maxInFlight: 1 },
    );
    const first = g.add(1);
    expect(writes).toEqual([[1]]);
    const rest = [g.add(2), g.add(3), g.add(4)];
    expect(writes).toEqual([[1]]);
    pending[0].resolve();
    await first;
    await Promise.resolve();
    expect(writes).toEqual([[1], [2, 3, 4]]);
    pending[1].resolve();
    await Promise.all(rest);
  });

  it('caps a write at maxBatch items and runs up to maxInFlight writes at once', () => {
    const writes: number[][] = [];
    const g = new GroupCommit<number>(
      (items) => {
        writes.push(items);
        return new Promise<void>(() => undefined);
      },
      { maxBatch: 2, maxInFlight: 2 },
    );
    for (let i = 1; i <= 7; i++) void g.add(i);
    expect(writes).toEqual([[1], [2]]);
  });

  it('rejects every caller of a failed write, and keeps writing later items', async () => {
    let fail = true;
    const g = new GroupCommit<number>(
      () => (fail ? Promise.reject(new Error('down')) : Promise.resolve()),
      { maxBatch: 10, maxInFlight: 1 },
    );
    await expect(g.add(1)).rejects.toThrow('down');
    fail = false;
    await expect(g.add(2)).resolves.toBeUndefined();
  });

  it('tries a failed batch again item by item: only the refused item fails', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const g = new GroupCommit<number>(
      (items) => {
        writes.push(items);
        if (items.length === 1 && items[0] === 1) return new Promise<void>((r) => (release = r));
        return items.includes(3) ? Promise.reject(new Error('refused')) : Promise.resolve();
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const first = g.add(1);
    const later = [g.add(2), g.add(3), g.add(4)].map((p) =>
      p.then(
        () => 'ok',
        (e: Error) => e.message,
      ),
    );
    release();
    await first;
    expect(await Promise.all(later)).toEqual(['ok', 'refused', 'ok']);
    expect(writes).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it('rejects the callers when the writer throws instead of rejecting', async () => {
    const g = new GroupCommit<number>(
      () => {
        throw new Error('bad');
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    await expect(g.add(1)).rejects.toThrow('bad');
  });

  it("answers each caller its own item's result, also when a failed batch is tried item by item", async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const g = new GroupCommit<number, string>(
      (items) => {
        writes.push(items);
        const results = items.map((n) => `r${n}`);
        if (items.length === 1 && items[0] === 1)
          return new Promise<string[]>((r) => (release = () => r(results)));
        return items.includes(3) ? Promise.reject(new Error('refused')) : Promise.resolve(results);
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const first = g.add(1);
    const together = [g.add(2), g.add(4), g.add(5)];
    release();
    expect(await first).toBe('r1');
    expect(await Promise.all(together)).toEqual(['r2', 'r4', 'r5']);
    const retried = [g.add(6), g.add(3), g.add(7)].map((p) => p.catch((e: Error) => e.message));
    expect(await Promise.all(retried)).toEqual(['r6', 'refused', 'r7']);
    expect(writes).toEqual([[1], [2, 4, 5], [6], [3, 7], [3], [7]]);
  });
});
