import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * NPPES NPI Registry API 2.1 on loopback, as CMS's answers it: `GET /api/?version=2.1&number=N`
 * → `{"result_count": n, "results": [{"number", "enumeration_type", "basic": {...}}]}` (no
 * result: `{"result_count": 0, "results": []}`). `down` answers 503, `redirectTo` a redirect,
 * `padding` makes answers that large; every query is recorded.
 */
export class FakeNpiRegistry {
  readonly queries: string[] = [];
  down = false;
  /** Answers a 302 to this URL instead. */
  redirectTo: string | null = null;
  /** Bytes of filler added to every answer (a field the client does not read). */
  padding = 0;
  private server?: Server;
  private readonly types = new Map<string, 'NPI-1' | 'NPI-2'>();

  register(npi: string, type: 'NPI-1' | 'NPI-2'): this {
    this.types.set(npi, type);
    return this;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.answer(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://registry');
    this.queries.push(url.search);
    if (this.down) {
      res.writeHead(503).end();
      return;
    }
    if (this.redirectTo) {
      res.writeHead(302, { Location: `${this.redirectTo}${url.search}` }).end();
      return;
    }
    const number = url.searchParams.get('number') ?? '';
    const type = url.searchParams.get('version') === '2.1' ? this.types.get(number) : undefined;
    const results = type
      ? [
          {
            number,
            enumeration_type: type,
            basic:
              type === 'NPI-1'
                ? { first_name: 'ANA', last_name: 'RUIZ', status: 'A' }
                : { organization_name: 'CLEAR SIGHT OPTICAL LLC', status: 'A' },
          },
        ]
      : [];
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(
      JSON.stringify({
        result_count: results.length,
        results,
        ...(this.padding > 0 ? { filler: 'x'.repeat(this.padding) } : {}),
      }),
    );
  }
}
