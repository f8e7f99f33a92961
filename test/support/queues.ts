import type { INestApplicationContext } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { QueueWorkers } from '@/platform/jobs/queue-workers';

/** The Bull queue `name` of an app (to look at its jobs). */
export function bullQueue(app: INestApplicationContext, name: string): Queue {
  return app.get<Queue>(getQueueToken(name), { strict: false });
}

/** Polls `check` until it returns a value other than undefined (bounded; fails after `timeoutMs`). */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Waits until queue `name` holds no waiting, delayed or active job and the app's local lane of
 * that queue has nothing left: everything that was scheduled has run. "Nothing more will happen"
 * is then a fact to assert, not a sleep. Without Redis the lane holds it all.
 */
export async function waitForIdleQueue(
  app: INestApplicationContext,
  name: string,
  timeoutMs = 20_000,
): Promise<void> {
  const queue = bullQueue(app, name);
  const db = app
    .get(QueueWorkers, { strict: false })
    .queues()
    .find((q) => q.spec.name === name);
  await waitUntil(
    `queue ${name} to be idle`,
    async () => {
      const local = db?.localPending ?? 0;
      if (db?.redisDown) return local === 0 ? true : undefined;
      const c = await queue.getJobCounts().catch(() => null);
      return c && c.waiting + c.active + c.delayed + local === 0 ? true : undefined;
    },
    timeoutMs,
  );
}
