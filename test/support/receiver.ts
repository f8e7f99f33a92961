import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  path: string;
  at: number;
}

/** What the receiver answers to the nth request: a status, or `hang` (never answer). */
export type Reply = number | 'hang';

/** A real HTTP receiver on a local port, recording every request's raw bytes. */
export class TestReceiver {
  readonly received: Received[] = [];
  private server: http.Server | null = null;
  private hanging: http.ServerResponse[] = [];
  replies: Reply[] = [];
  defaultReply: Reply = 200;
  /** A slow receiver: every answer waits this long. */
  delayMs = 0;
  /** Requests received and not answered yet, and the most there were at once. */
  open = 0;
  maxOpen = 0;
  port = 0;

  async start(port = 0): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({
          headers: req.headers,
          raw: Buffer.concat(chunks),
          path: req.url ?? '/',
          at: Date.now(),
        });
        const reply = this.replies.length > 0 ? this.replies.shift()! : this.defaultReply;
        if (reply === 'hang') {
          this.hanging.push(res);
          return;
        }
        const answer = () => {
          this.open--;
          res.writeHead(reply, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ received: true, status: reply }));
        };
        this.maxOpen = Math.max(this.maxOpen, ++this.open);
        if (this.delayMs > 0) setTimeout(answer, this.delayMs);
        else answer();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  forPath(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Waits (bounded) until `count` requests arrived at `path`. */
  async waitFor(path: string, count: number, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.forPath(path).length < count) {
      if (Date.now() > deadline)
        throw new Error(`only ${this.forPath(path).length} of ${count} requests at ${path}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.forPath(path);
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging = [];
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }
}
