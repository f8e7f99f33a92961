import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import { DomainError } from '../../kernel/errors';
import { MIB } from './body-limits';
import { LARGE_BODIES_WAITING, LARGE_BODY_BUDGET, HELD_PER_BYTE, readApiBody } from './body.guard';

const LIMITS = { limitBytes: 16 * MIB, maxValues: 1_000, maxDepth: 8 };

describe('readApiBody: the per-process budget of large bodies', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const app = express();
    app.post('/', (req: Request, res: Response) => {
      readApiBody(req, res, LIMITS).then(
        () => res.status(200).json({}),
        (e: DomainError) => {
          res.status(e.status);
          for (const [name, value] of Object.entries(e.headers ?? {})) res.setHeader(name, value);
          res.json(e.body());
        },
      );
    });
    server = createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** A request declaring a maximal body whose bytes never come: it holds its share meanwhile. */
  const hold = () => {
    const req = request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(16 * MIB) },
    });
    const answered = new Promise<{ status: number; retryAfter?: string; body: string }>((r) =>
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () =>
          r({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string, body }),
        );
      }),
    );
    req.on('error', () => undefined);
    req.flushHeaders();
    return { req, answered };
  };

  it('lets as many run as the budget holds, queues LARGE_BODIES_WAITING, and answers the next 429 with Retry-After at once', async () => {
    const running = Math.floor(LARGE_BODY_BUDGET / (16 * MIB * HELD_PER_BYTE));
    expect(running).toBe(1);
    const held = Array.from({ length: running + LARGE_BODIES_WAITING }, hold);
    await new Promise((r) => setTimeout(r, 200));
    const refused = await hold().answered;
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('2');
    expect(JSON.parse(refused.body)).toEqual({
      detail: 'Too many large requests at this moment. Try again in 2 seconds.',
    });
    // None of the held ones was answered: they run or wait, within the budget.
    const settled = await Promise.race([
      Promise.any(held.map((h) => h.answered)).then(() => 'answered'),
      new Promise((r) => setTimeout(() => r('waiting'), 300)),
    ]);
    expect(settled).toBe('waiting');
    for (const h of held) h.req.destroy();
  });
});
