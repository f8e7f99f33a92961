import { type Deferred, deferred } from '../../../test/support/deferred';
import { BoundedGate } from './bounded-gate';

class Busy extends Error {}

const flush = () => new Promise((r) => setImmediate(r));
const busy = () => new Busy();

describe('BoundedGate (weighted permits: the scrypt gate bounds memory, not a count)', () => {
  it('never holds more than its capacity, queues a few, and refuses only when the queue is full', async () => {
    // Any mix of weights, arrivals and completions, in any order: the bound holds at every step.
    for (let seed = 1; seed <= 25; seed++) {
      let rand = seed;
      const next = () => (rand = (rand * 48271) % 2147483647) / 2147483647;
      const gate = new BoundedGate(8, 4);
      let held = 0;
      let peak = 0;
      const open: Deferred[] = [];
      const outcomes: Promise<string>[] = [];
      // Tasks that could start or had a queue place: none of them may be answered busy.
      const refusedWrongly: Promise<string>[] = [];
      for (let step = 0; step < 80; step++) {
        if (next() < 0.6 || open.length === 0) {
          const task = deferred();
          const weight = next() < 0.2 ? 8 : 1 + Math.floor(next() * 3);
          const before = gate.load;
          const outcome = gate
            .run(
              weight,
              async () => {
                held += weight;
                peak = Math.max(peak, held);
                open.push(task);
                try {
                  await task.promise;
                } finally {
                  held -= weight;
                }
              },
              busy,
            )
            .then(
              () => 'done',
              (e: Error) => (e instanceof Busy ? 'busy' : 'failed'),
            );
          outcomes.push(outcome);
          const runsAtOnce = before.waiting === 0 && before.used + weight <= 8;
          await flush();
          // Refused exactly when it could not start and every queue place was taken.
          if (!runsAtOnce && before.waiting === 4) await expect(outcome).resolves.toBe('busy');
          else refusedWrongly.push(outcome);
        } else {
          const task = open.splice(Math.floor(next() * open.length), 1)[0];
          if (next() < 0.3) task.reject(new Error('scrypt failed'));
          else task.resolve();
        }
        await flush();
        expect(held).toBeLessThanOrEqual(8);
        expect(gate.load.used).toBe(held);
        expect(gate.load.waiting).toBeLessThanOrEqual(4);
      }
      while (open.length > 0 || gate.load.running > 0) {
        open.splice(0).forEach((t) => t.resolve());
        await flush();
      }
      await Promise.all(outcomes);
      expect(await Promise.all(refusedWrongly)).not.toContain('busy');
      expect(peak).toBeLessThanOrEqual(8);
      expect(gate.load).toEqual({ used: 0, running: 0, waiting: 0 });
    }
  });

  it('runs light tasks side by side up to the capacity: eight of one permit, the ninth waits', async () => {
    const gate = new BoundedGate(8, 4);
    const tasks = Array.from({ length: 9 }, () => deferred());
    const runs = tasks.map((t) => gate.run(1, () => t.promise, busy));
    await flush();
    expect(gate.load).toEqual({ used: 8, running: 8, waiting: 1 });
    tasks[0].resolve();
    await flush();
    expect(gate.load).toEqual({ used: 8, running: 8, waiting: 0 });
    tasks.forEach((t) => t.resolve());
    await Promise.all(runs);
    expect(gate.load).toEqual({ used: 0, running: 0, waiting: 0 });
  });

  it('serves waiters first come, first served: a heavy task waits for the whole capacity and light ones behind it do not overtake', async () => {
    const gate = new BoundedGate(8, 4);
    const order: string[] = [];
    const light = deferred();
    const first = gate.run(1, () => light.promise, busy);
    // The whole capacity: it must wait until the light task ends.
    const heavy = deferred();
    const whole = gate.run(
      8,
      async () => {
        order.push('heavy');
        await heavy.promise;
      },
      busy,
    );
    // Would fit beside the first one, but arrives behind the heavy one.
    const after = gate.run(1, async () => void order.push('light after'), busy);
    await flush();
    expect(order).toEqual([]);
    expect(gate.load).toEqual({ used: 1, running: 1, waiting: 2 });
    light.resolve();
    await first;
    await flush();
    expect(order).toEqual(['heavy']);
    expect(gate.load).toEqual({ used: 8, running: 1, waiting: 1 });
    heavy.reject(new Error('boom'));
    await expect(whole).rejects.toThrow('boom');
    await after;
    expect(order).toEqual(['heavy', 'light after']);
    expect(gate.load).toEqual({ used: 0, running: 0, waiting: 0 });
  });

  it('refuses only when the queue is full, however much capacity the waiters want', async () => {
    const gate = new BoundedGate(8, 2);
    const hold = deferred();
    const running = gate.run(8, () => hold.promise, busy);
    const queued = [gate.run(1, async () => 'a', busy), gate.run(1, async () => 'b', busy)];
    await expect(gate.run(1, async () => 'c', busy)).rejects.toBeInstanceOf(Busy);
    hold.resolve();
    await running;
    await expect(Promise.all(queued)).resolves.toEqual(['a', 'b']);
    // With room again, the same request runs.
    await expect(gate.run(1, async () => 'c', busy)).resolves.toBe('c');
  });

  it('lets a caller without a busy answer wait past the queue, still within the capacity', async () => {
    const gate = new BoundedGate(4, 1);
    let held = 0;
    let peak = 0;
    const task = (weight: number) => async () => {
      held += weight;
      peak = Math.max(peak, held);
      await flush();
      held -= weight;
    };
    await Promise.all([3, 2, 4, 1, 1, 2].map((w) => gate.run(w, task(w))));
    expect(peak).toBeLessThanOrEqual(4);
    expect(gate.load).toEqual({ used: 0, running: 0, waiting: 0 });
  });

  it('refuses a weight it could never hold', async () => {
    const gate = new BoundedGate(8, 2);
    await expect(gate.run(9, async () => 1)).rejects.toThrow(RangeError);
    await expect(gate.run(0, async () => 1)).rejects.toThrow(RangeError);
    expect(gate.load).toEqual({ used: 0, running: 0, waiting: 0 });
  });
});
