import http from 'node:http';

/** A minimal JSON client for the setup calls of the bench (not for load). */
export class Api {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        new URL(path, this.baseUrl),
        {
          method,
          agent: this.agent,
          timeout: 15_000,
          headers: {
            Authorization: `Api ${this.apiKey}`,
            ...(payload
              ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
              : {}),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            try {
              resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : null) as T });
            } catch (e) {
              reject(new Error(`${method} ${path}: ${res.statusCode} not JSON: ${String(e)}`));
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** The request must answer `expected`; anything else is an error of the run. */
  async expect<T>(expected: number, method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request<T>(method, path, body);
    if (res.status !== expected) {
      throw new Error(
        `${method} ${path}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`,
      );
    }
    return res.body;
  }

  close(): void {
    this.agent.destroy();
  }
}
