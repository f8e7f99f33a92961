import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { read270, Inquiry270 } from '../x12/x270.reader';
import { aaa271, found271, inactive271 } from '../x12/fixtures';

/** What the fake answers to one eligibility call. */
export type Scripted =
  | { kind: 'found' }
  | { kind: 'inactive' }
  | { kind: 'not_found' }
  | {
      kind: 'aaa';
      loop: '2100A' | '2100B' | '2100C';
      reason: string;
      followUp?: string;
      status?: number;
    }
  | { kind: 'http'; status: number; body?: string; retryAfter?: string }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'x12'; build: (inquiry: Inquiry270) => string };

/** One call as the fake received it: the 270 read back with the X12 reader. */
export interface ReceivedCall {
  authorization: string | null;
  body: string;
  x12: string | null;
  inquiry: Inquiry270 | null;
  parseError: string | null;
  answeredWith: Scripted['kind'];
}

export interface FakeOptions {
  /** Expected `Authorization` value (Stedi's style). */
  apiKey?: string;
  /** OAuth2 client credentials the token endpoint accepts (Optum's style). */
  oauth?: { clientId: string; clientSecret: string; lifetimeSeconds?: number };
  /** The answer when the script is empty; by default `found`. */
  fallback?: (inquiry: Inquiry270) => Scripted;
}

export const ELIGIBILITY_PATH = '/medicalnetwork/eligibility/v3/raw-x12';
export const TOKEN_PATH = '/apip/auth/v2/token';

/**
 * A clearinghouse speaking "Medical Network Eligibility v3" raw X12 on loopback: it reads each
 * 270 with the service's own X12 reader (so tests can check what was sent), and answers the next
 * scripted step (hand-written 271s, AAA rejections, HTTP errors, slow answers).
 */
export class FakeClearinghouse {
  readonly calls: ReceivedCall[] = [];
  tokenFetches = 0;
  private readonly script: Scripted[] = [];
  private readonly tokens = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    private readonly options: FakeOptions,
  ) {}

  static async start(options: FakeOptions = {}): Promise<FakeClearinghouse> {
    const server = createServer();
    const fake = new FakeClearinghouse(server, options);
    server.on('request', (req, res) => fake.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  get eligibilityUrl(): string {
    return `${this.baseUrl}${ELIGIBILITY_PATH}`;
  }

  get tokenUrl(): string {
    return `${this.baseUrl}${TOKEN_PATH}`;
  }

  /** Answers for the next calls, in order. */
  answer(...steps: Scripted[]): this {
    this.script.push(...steps);
    return this;
  }

  /** Revokes every issued token (the next eligibility call with one gets 401). */
  revokeTokens(): void {
    this.tokens.clear();
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST' && req.url === TOKEN_PATH) return this.token(body, res);
      if (req.method === 'POST' && req.url === ELIGIBILITY_PATH)
        return this.eligibility(req, body, res);
      send(res, 404, { error: 'not found' });
    });
  }

  private token(body: string, res: ServerResponse): void {
    this.tokenFetches += 1;
    const oauth = this.options.oauth;
    const sent = parseJson(body) as {
      client_id?: string;
      client_secret?: string;
      grant_type?: string;
    };
    if (
      !oauth ||
      sent?.grant_type !== 'client_credentials' ||
      sent.client_id !== oauth.clientId ||
      sent.client_secret !== oauth.clientSecret
    ) {
      return send(res, 401, { error: 'invalid_client' });
    }
    const token = randomBytes(16).toString('hex');
    this.tokens.add(token);
    send(res, 200, {
      access_token: token,
      token_type: 'bearer',
      expires_in: oauth.lifetimeSeconds ?? 3600,
    });
  }

  private eligibility(req: IncomingMessage, body: string, res: ServerResponse): void {
    const authorization = req.headers.authorization ?? null;
    const x12 = (parseJson(body) as { x12?: unknown } | null)?.x12;
    const call: ReceivedCall = {
      authorization,
      body,
      x12: typeof x12 === 'string' ? x12 : null,
      inquiry: null,
      parseError: null,
      answeredWith: 'http',
    };
    this.calls.push(call);
    if (!this.authorized(authorization)) return send(res, 401, { error: 'unauthorized' });
    if (call.x12 === null) return send(res, 400, { error: 'the body has no x12 field' });
    try {
      call.inquiry = read270(call.x12);
    } catch (e) {
      call.parseError = (e as Error).message;
      return send(res, 400, { error: call.parseError });
    }
    const inquiry = call.inquiry;
    const step = this.script.shift() ?? this.options.fallback?.(inquiry) ?? { kind: 'found' };
    call.answeredWith = step.kind;
    this.respond(step, inquiry, res);
  }

  private respond(step: Scripted, inquiry: Inquiry270, res: ServerResponse): void {
    // docs/api.md, Real insurers: a 270 about a dependent carries its TRN in 2000D.
    const trace = inquiry.subscriber.traces[0]?.trace ?? inquiry.dependent?.traces[0]?.trace ?? '';
    switch (step.kind) {
      case 'found':
        return send(res, 200, { x12: found271({ trace }), meta: { fake: true } });
      case 'inactive':
        return send(res, 200, { x12: inactive271({ trace }) });
      case 'not_found':
        return send(res, 200, { x12: aaa271('2100C', '75', 'C', { trace }) });
      case 'aaa':
        return send(res, step.status ?? 200, {
          x12: aaa271(step.loop, step.reason, step.followUp ?? 'C', { trace }),
        });
      case 'http':
        if (step.retryAfter) res.setHeader('retry-after', step.retryAfter);
        res.writeHead(step.status, { 'content-type': 'text/plain' });
        res.end(step.body ?? `HTTP ${step.status}`);
        return;
      case 'slow': {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!res.destroyed) send(res, 200, { x12: found271({ trace }) });
        }, step.delayMs);
        this.timers.add(timer);
        return;
      }
      case 'x12':
        return send(res, 200, { x12: step.build(inquiry) });
    }
  }

  private authorized(header: string | null): boolean {
    if (this.options.apiKey !== undefined) return header === this.options.apiKey;
    if (this.options.oauth) {
      const match = /^Bearer (\S+)$/.exec(header ?? '');
      return match !== null && this.tokens.has(match[1]);
    }
    return true;
  }
}

/** One request as a ScriptedEndpoint received it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  body: string;
}

/**
 * A loopback endpoint that answers every request the same scripted way (a redirect elsewhere, an
 * answer that never ends) and records what it received: what the clients must not trust.
 */
export class ScriptedEndpoint {
  readonly received: ReceivedRequest[] = [];

  private constructor(private readonly server: Server) {}

  static async start(answer: (res: ServerResponse) => void): Promise<ScriptedEndpoint> {
    const server = createServer();
    const endpoint = new ScriptedEndpoint(server);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        endpoint.received.push({ method: req.method ?? '', url: req.url ?? '', body });
        answer(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return endpoint;
  }

  /** A redirect (302, 307, 308...) to `location`. */
  static redirecting(status: number, location: string): Promise<ScriptedEndpoint> {
    return ScriptedEndpoint.start((res) => {
      res.writeHead(status, { location, 'content-type': 'text/plain' });
      res.end('moved');
    });
  }

  /** 200 with a JSON body that never ends (1 MiB chunks until the client hangs up). */
  static endless(): Promise<ScriptedEndpoint> {
    const chunk = Buffer.alloc(1024 * 1024, 'A');
    return ScriptedEndpoint.start((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"x12":"');
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/endpoint`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
