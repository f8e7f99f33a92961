import type { Queryable } from './pg-pool';
import { SequenceBlock } from './sequence-block';

/** A sequence in memory, counting the round trips made to it. */
function fakeSequence() {
  let next = 1;
  const calls: number[] = [];
  const db: Queryable = {
    query: <T>(_text: string, params?: unknown[]) => {
      const count = Number(params![1]);
      calls.push(count);
      const rows = Array.from({ length: count }, () => ({ id: String(next++) }));
      return new Promise<T>((resolve) => setImmediate(() => resolve(rows as T)));
    },
  };
  return { db, calls };
}

describe('SequenceBlock', () => {
  it('takes ids a block at a time, each take ascending, none twice', async () => {
    const { db, calls } = fakeSequence();
    const block = new SequenceBlock(db, 'eligibility_persons_id_seq', 5);
    expect(await block.take(3)).toEqual(['1', '2', '3']);
    expect(await block.take(3)).toEqual(['4', '5', '6']);
    expect(calls).toEqual([5, 5]);
    expect(await block.take(0)).toEqual([]);
    // More than a block at once: one round trip for the rest.
    expect(await block.take(12)).toEqual([
      '7',
      '8',
      '9',
      '10',
      '11',
      '12',
      '13',
      '14',
      '15',
      '16',
      '17',
      '18',
    ]);
    expect(calls).toEqual([5, 5, 8]);
  });

  it('fills once for concurrent takers', async () => {
    const { db, calls } = fakeSequence();
    const block = new SequenceBlock(db, 'eligibility_results_id_seq', 10);
    const taken = await Promise.all([block.take(4), block.take(4), block.take(4)]);
    const all = taken.flat();
    expect(new Set(all).size).toBe(12);
    for (const ids of taken)
      expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((a, b) => a - b));
    expect(calls).toEqual([10, 10]);
  });
});
