import { type Deferred, deferred } from '../../../test/support/deferred';
import { BoundedGate } from './bounded-gate';

class Busy extends Error {}

const flush = () => new Promise((r) => setImmediate(r));

describe('BoundedGate (the scrypt gate: memory bounded by the slots)', () => {
  it('never runs more than its slots, queues a few, and refuses the rest at once', async () => {
    // Any mix of arrivals and completions, in any order: the bound holds at every step.
    for (let seed = 1; seed <= 25; seed++) {
      let rand = seed;
      const next = () => (rand = (rand * 48271) % 2147483647) / 2147483647;
      const gate = new BoundedGate(2, 4);
      let running = 0;
      let peak = 0;
      const open: Deferred[] = [];
      const outcomes: Promise<string>[] = [];
      for (let step = 0; step < 60; step++) {
        if (next() < 0.6 || open.length === 0) {
          const task = deferred();
          const before = gate.load;
          const outcome = gate
            .run(
              async () => {
                running++;
                peak = Math.max(peak, running);
                open.push(task);
                try {
                  await task.promise;
                } finally {
                  running--;
                }
              },
              () => new Busy(),
            )
            .then(
              () => 'done',
              (e: Error) => (e instanceof Busy ? 'busy' : 'failed'),
            );
          outcomes.push(outcome);
          // Refused exactly when every slot and every queue place was taken.
          const full = before.running === 2 && before.waiting === 4;
          await flush();
          if (full) await expect(outcome).resolves.toBe('busy');
        } else {
          const task = open.splice(Math.floor(next() * open.length), 1)[0];
          if (next() < 0.3) task.reject(new Error('scrypt failed'));
          else task.resolve();
        }
        await flush();
        expect(running).toBeLessThanOrEqual(2);
        expect(gate.load.waiting).toBeLessThanOrEqual(4);
      }
      while (open.length > 0 || gate.load.running > 0) {
        open.splice(0).forEach((t) => t.resolve());
        await flush();
      }
      await Promise.all(outcomes);
      expect(peak).toBe(2);
      expect(gate.load).toEqual({ running: 0, waiting: 0 });
    }
  });

  it('hands a freed slot to the oldest waiter, also when a task fails', async () => {
    const gate = new BoundedGate(1, 2);
    const order: string[] = [];
    const first = deferred();
    const a = gate.run(
      () => first.promise,
      () => new Busy(),
    );
    const b = gate.run(
      async () => void order.push('b'),
      () => new Busy(),
    );
    const c = gate.run(
      async () => void order.push('c'),
      () => new Busy(),
    );
    await expect(
      gate.run(
        async () => undefined,
        () => new Busy(),
      ),
    ).rejects.toBeInstanceOf(Busy);
    first.reject(new Error('boom'));
    await expect(a).rejects.toThrow('boom');
    await Promise.all([b, c]);
    expect(order).toEqual(['b', 'c']);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });
  it('lets a caller without a busy answer wait past the queue, still one slot at a time', async () => {
    const gate = new BoundedGate(1, 1);
    let running = 0;
    let peak = 0;
    const task = async () => {
      running++;
      peak = Math.max(peak, running);
      await flush();
      running--;
    };
    await Promise.all(Array.from({ length: 6 }, () => gate.run(task)));
    expect(peak).toBe(1);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });
});
