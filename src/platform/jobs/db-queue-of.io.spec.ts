import { execFile } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { promisify } from 'node:util';
import Bull from 'bull';
import type { DbJobData } from './db-queue';
import { quietWithoutRedis } from './db-queue-of';

/**
 * A Bull queue whose Redis never answers (a loopback server that accepts and stays silent), its
 * worker started, then closed: the connection ends before it was ever ready. Bull's `process()`
 * had started naming that connection and dropped the promise, which then rejects.
 */
describe('quietWithoutRedis: a queue closed before Redis ever answered', () => {
  let server: Server;
  let url: string;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `redis://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('leaves no unhandled rejection', async () => {
    const rejections: unknown[] = [];
    const record = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', record);
    try {
      const queue = new Bull<DbJobData>('quiet', url);
      quietWithoutRedis(queue);
      queue.process('job', 1, async () => undefined).catch(() => undefined);
      // Connected over TCP, waiting for Redis's answer to its ready check.
      while (queue.client.status !== 'connect') await new Promise((r) => setTimeout(r, 10));
      await queue.close().catch(() => undefined);
      for (const client of queue.clients) client.disconnect();
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      process.off('unhandledRejection', record);
    }
    expect(rejections).toEqual([]);
  });

  it('is needed: the same with Bull alone ends in an unhandled rejection', async () => {
    const program = `
      const Bull = require('bull');
      process.on('unhandledRejection', (e) => { console.log('unhandled: ' + e.message); process.exit(0); });
      const queue = new Bull('alone', process.argv[1]);
      queue.process('job', 1, async () => undefined).catch(() => undefined);
      const wait = setInterval(() => {
        if (queue.client.status !== 'connect') return;
        clearInterval(wait);
        queue.close().catch(() => undefined).then(() => setTimeout(() => process.exit(0), 100));
      }, 10);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', program, url], {
      cwd: __dirname,
      timeout: 20_000,
    });
    expect(stdout.trim()).toMatch(/^unhandled: /);
  });
});
