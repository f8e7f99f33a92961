import { createServer, type Server } from 'node:net';
import type { AppConfig } from '@/platform/config/env';
import { createRedis } from './redis.module';

/** A port where nothing answers: a server is bound, its port noted, then closed. */
async function deadPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('createRedis without a Redis server', () => {
  it('says the outage once, never "Unhandled error event", however many reconnections fail', async () => {
    const port = await deadPort();
    const config = { redisUrl: `redis://127.0.0.1:${port}`, redisPrefix: 'spec' } as AppConfig;
    const warnings: string[] = [];
    const logger = { warn: (m: string) => void warnings.push(m), log: () => undefined };
    const printed: string[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      printed.push(args.map(String).join(' '));
    });
    const client = createRedis(config, 'app', logger);
    let failures = 0;
    client.on('error', () => void failures++);
    try {
      // Several reconnection attempts (200 ms, 400 ms, 600 ms apart).
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(failures).toBeGreaterThanOrEqual(2);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('Redis (app) does not answer');
      expect(printed.filter((line) => line.includes('Unhandled error event'))).toEqual([]);
    } finally {
      client.disconnect();
      spy.mockRestore();
    }
  });
});
