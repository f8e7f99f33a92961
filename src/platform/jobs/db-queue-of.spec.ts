import type { Queue } from 'bull';
import type { DbJobData } from './db-queue';
import { quietWithoutRedis } from './db-queue-of';

/**
 * Bull's close rejects with the connection's error when Redis refuses while the queue quits (its
 * disconnect listens for 'error' after `client.disconnect()`): a queue whose close does that.
 */
function refusingQueue(): Queue<DbJobData> {
  const close = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1'));
  return { close } as unknown as Queue<DbJobData>;
}

describe('quietWithoutRedis', () => {
  it('makes the shutdown hook resolve when the close rejects', async () => {
    const queue = refusingQueue();
    quietWithoutRedis(queue);
    const hooked = queue as unknown as { onApplicationShutdown(): Promise<void> };
    await expect(hooked.onApplicationShutdown()).resolves.toBeUndefined();
  });

  it('still closes the queue', async () => {
    const close = jest.fn(() => Promise.resolve());
    const queue = { close } as unknown as Queue<DbJobData>;
    quietWithoutRedis(queue);
    await (queue as unknown as { onApplicationShutdown(): Promise<void> }).onApplicationShutdown();
    expect(close).toHaveBeenCalledTimes(1);
  });
});
