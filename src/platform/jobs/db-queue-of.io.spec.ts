import Bull from 'bull';
import type { DbJobData } from './db-queue';
import { closeQuietly } from './db-queue-of';

/**
 * A Bull queue whose Redis refuses at the moment it quits: Bull's disconnect listens for 'error'
 * after `client.disconnect()`, and a connect attempt in flight that is refused then rejects close.
 */
function refusingQueue(): Bull.Queue<DbJobData> {
  const queue = new Bull<DbJobData>('close-quietly', 'redis://127.0.0.1:1', {
    redis: { maxRetriesPerRequest: 1, retryStrategy: () => 60_000 },
  });
  queue.on('error', () => undefined);
  const client = queue.client;
  const disconnect = client.disconnect.bind(client);
  client.disconnect = (reconnect?: boolean) => {
    disconnect(reconnect);
    const settable = client as { status: string };
    const status = settable.status;
    settable.status = 'connect';
    setImmediate(() => {
      client.emit('error', new Error('connect ECONNREFUSED 127.0.0.1:1'));
      settable.status = status;
    });
  };
  return queue;
}

describe('closeQuietly', () => {
  it('without it, Bull rejects a close when Redis refuses while it quits', async () => {
    await expect(refusingQueue().close()).rejects.toThrow(/ECONNREFUSED/);
  });

  it('makes the shutdown hook resolve all the same', async () => {
    const queue = refusingQueue();
    closeQuietly(queue);
    const hooked = queue as unknown as { onApplicationShutdown(): Promise<void> };
    await expect(hooked.onApplicationShutdown()).resolves.toBeUndefined();
  });
});
