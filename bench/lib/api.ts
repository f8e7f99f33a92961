import http from 'node:http';

/** A minimal JSON client for the setup calls and the light request streams of the orchestrator (not for load: load-worker.ts). */
export class Api {
  private readonly agent: http.Agent;
  private readonly timeoutMs: number;

  /** `maxSockets` (8) bounds the requests in flight; `timeoutMs` (15 s) each request's idle time. */
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
    options: { maxSockets?: number; timeoutMs?: number } = {},
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 8 });
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /**
   * One request. A kept-alive socket the service closed as idle (its 5 s keep-alive timeout) just
   * as this request went out on it is reset before any answer: the request never reached the
   * service, and is sent once more on a new socket (node's documented handling of that race,
   * `request.reusedSocket`). Any other failure is the caller's error.
   */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    try {
      return await this.send<T>(method, path, payload);
    } catch (e) {
      if (!(e instanceof StaleSocket)) throw e;
      return this.send<T>(method, path, payload);
    }
  }

  private send<T>(
    method: string,
    path: string,
    payload: string | undefined,
  ): Promise<{ status: number; body: T }> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        new URL(path, this.baseUrl),
        {
          method,
          agent: this.agent,
          timeout: this.timeoutMs,
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
      let answered = false;
      req.on('response', () => (answered = true));
      req.on('error', (e: NodeJS.ErrnoException) =>
        reject(
          req.reusedSocket && e.code === 'ECONNRESET' && !answered
            ? new StaleSocket()
            : new Error(`${method} ${path}: ${e.message}`),
        ),
      );
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

/** A kept-alive socket reset before its answer (see Api.request). */
class StaleSocket extends Error {}
