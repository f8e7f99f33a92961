import {
  batchShare,
  InsurerSlots,
  SearchOrigin,
} from '@/modules/eligibility/run/domain/insurer-slots';
import { createTestContext, TestContext } from '../support/app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The per-insurer concurrency limit (docs/api.md, Batches) against the real Redis. */
describe('InsurerSlots', () => {
  let t: TestContext;
  let slots: InsurerSlots;

  beforeAll(async () => {
    t = await createTestContext({ env: { INSURER_CONCURRENCY: '4', INSURER_TIMEOUT_MS: '3000' } });
    slots = t.ctx.get(InsurerSlots);
  });
  afterAll(() => t.close());

  /**
   * Runs `count` calls of `origin` on `code` at once; the most that ran together, and how many ran.
   * Slots are taken one Redis poll at a time, so a call lasts long enough (150 ms) for the next
   * ones to be let in even on a loaded machine.
   */
  async function crowd(code: string, origin: SearchOrigin, count: number, callMs = 150) {
    let now = 0;
    let max = 0;
    const results = await Promise.all(
      Array.from({ length: count }, () =>
        slots.withSlot(code, origin, async () => {
          max = Math.max(max, ++now);
          await sleep(callMs);
          now--;
          return 'ran';
        }),
      ),
    );
    return { max, ran: results.filter((r) => r === 'ran').length };
  }

  it('keeps a quarter of the limit, at least one slot, for single checks', () => {
    expect([1, 2, 4, 10, 16].map(batchShare)).toEqual([1, 1, 3, 7, 12]);
  });

  it('lets singles use the whole limit and batch items their share, never more', async () => {
    // Well inside the waits (3 s for a single here, 2 s for a batch item): four rounds each.
    expect(await crowd('insurer:vision:vsp', 'single', 16)).toEqual({ max: 4, ran: 16 });
    expect(await crowd('insurer:vision:eye_med', 'batch', 12)).toEqual({ max: 3, ran: 12 });
  });

  it('counts per insurer', async () => {
    const [a, b] = await Promise.all([
      crowd('insurer:vision:superior', 'single', 12),
      crowd('insurer:vision:spectera', 'single', 12),
    ]);
    expect([a.max, b.max]).toEqual([4, 4]);
  });

  it('gives no slot to a batch item while singles wait, and steps it back after a while', async () => {
    const code = 'insurer:vision:davis_vision';
    // Singles hold every slot for 2.5 s, and more singles wait behind them.
    const singles = crowd(code, 'single', 6, 2_500);
    await sleep(100);
    const batch = await slots.withSlot(code, 'batch', () => Promise.resolve('ran'));
    expect(batch).toBeNull();
    await expect(singles).resolves.toEqual({ max: 4, ran: 6 });
    // With the singles gone, the batch item gets its slot.
    await expect(slots.withSlot(code, 'batch', () => Promise.resolve('ran'))).resolves.toBe('ran');
  });

  it('frees the slot of a call that failed', async () => {
    const code = 'insurer:vision:blue_view';
    await Promise.all(
      Array.from({ length: 4 }, () =>
        slots.withSlot(code, 'single', () => Promise.reject(new Error('boom'))).catch(() => null),
      ),
    );
    // Slots are taken one poll at a time, so each call waits for the others (up to 2 s) rather
    // than ending after a fixed sleep: on a loaded machine the first could end before the last
    // began. Four in at once proves the failed calls freed all four slots.
    let now = 0;
    let max = 0;
    let allIn = false;
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        slots.withSlot(code, 'single', async () => {
          max = Math.max(max, ++now);
          if (now === 4) allIn = true;
          for (const until = Date.now() + 2_000; !allIn && Date.now() < until;) await sleep(10);
          now--;
          return 'ran';
        }),
      ),
    );
    expect({ max, ran: results.filter((r) => r === 'ran').length }).toEqual({ max: 4, ran: 4 });
  });
});
