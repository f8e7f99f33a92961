import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readInterchange } from '@/lib/x12/x12.envelope';
import { writeInterchange } from '@/lib/x12/x12.writer';
import { Claim837, read837 } from '../x12/x837.reader';

/** What the fake answers to one 837P submission. */
export type SubmitStep =
  | {
      kind: 'accept';
      id?: string;
      /** docs/api.md, Claim reports and remittances: a 277CA or 999 in the answer's `x12`, made for the claim taken. */
      report?: (claim: Claim837) => string;
    }
  | { kind: 'refuse'; errors: string[] }
  | { kind: 'http'; status: number }
  /** Takes the claim (as `accept` would) and never answers: the caller times out. */
  | { kind: 'store-then-timeout'; id: string };

/** What the fake answers to one 276: a 277 with this STC (category:code), or an HTTP error. */
export type StatusStep =
  | { kind: '277'; category: string; code: string; payment?: string; message?: string }
  | { kind: 'http'; status: number };

export interface ReceivedSubmission {
  authorization: string | null;
  idempotencyKey: string | null;
  x12: string;
  claim: Claim837 | null;
  parseError: string | null;
  answeredWith: SubmitStep;
}

export interface ReceivedStatusCall {
  x12: string;
  trace: string;
  claimCode: string;
  /** The subscriber's last name (NM1*IL): what the scripts are keyed by. */
  lastName: string;
  answeredWith: StatusStep;
}

export const CLAIMS_PATH = '/medicalnetwork/professionalclaims/v3/raw-x12-submission';
export const CLAIM_STATUS_PATH = '/medicalnetwork/claimstatus/v2/raw-x12';
export const REPORTS_PATH = '/claims/v1/reports';
/** Reports per page of the list (small, so a few reports make several pages). */
const REPORTS_PAGE_SIZE = 2;

/**
 * A clearinghouse taking raw-X12 837P claims and 276 status inquiries on loopback. Each 837P is
 * read back with the service's own reader. Scripts are keyed by the subscriber's last name, so
 * claims of several tests (their status checks go on in the background) never take each other's
 * answers. Without a script: an accepted claim, and a 277 `A1` (received, nothing decided).
 */
export class FakeClaimsClearinghouse {
  readonly submissions: ReceivedSubmission[] = [];
  readonly statusCalls: ReceivedStatusCall[] = [];
  private readonly submitScripts = new Map<string, SubmitStep[]>();
  private readonly statusScripts = new Map<string, StatusStep[]>();
  /** docs/api.md, Claim reports and remittances: reports waiting upstream, in list order, until deleted. */
  readonly reports: { seq: number; id: string; type: string; x12: string; createdAt: string }[] =
    [];
  private reportSeq = 0;
  /** Report calls, e.g. `GET /claims/v1/reports?page_token=2`, `DELETE /claims/v1/reports/r1`. */
  readonly reportCalls: string[] = [];
  /** Ids whose next DELETE fails (503), as if the poller were killed before it deleted. */
  readonly failNextDelete = new Set<string>();
  /** Claims taken, by Idempotency-Key: a repeated key is answered with the same id, not taken twice. */
  readonly stored = new Map<string, { id: string; x12: string }>();

  private constructor(
    private readonly server: Server,
    private readonly apiKey: string,
  ) {}

  static async start(apiKey: string): Promise<FakeClaimsClearinghouse> {
    const server = createServer();
    const fake = new FakeClaimsClearinghouse(server, apiKey);
    server.on('request', (req, res) => fake.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get claimsUrl(): string {
    return `${this.baseUrl}${CLAIMS_PATH}`;
  }

  get statusUrl(): string {
    return `${this.baseUrl}${CLAIM_STATUS_PATH}`;
  }

  get reportsUrl(): string {
    return `${this.baseUrl}${REPORTS_PATH}`;
  }

  addReport(id: string, type: string, x12: string): this {
    this.reports.push({
      seq: ++this.reportSeq,
      id,
      type,
      x12,
      createdAt: new Date().toISOString(),
    });
    return this;
  }

  onSubmit(lastName: string, ...steps: SubmitStep[]): this {
    this.submitScripts.set(lastName.toUpperCase(), steps);
    return this;
  }

  onStatus(lastName: string, ...steps: StatusStep[]): this {
    this.statusScripts.set(lastName.toUpperCase(), steps);
    return this;
  }

  submissionsFor(code: string): ReceivedSubmission[] {
    return this.submissions.filter((s) => s.claim?.patientControlNumber === code);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.headers.authorization !== this.apiKey) return send(res, 401, { error: 'no' });
      if (req.url?.startsWith(REPORTS_PATH)) return this.report(req, res);
      const x12 = (parseJson(Buffer.concat(chunks).toString('utf8')) as { x12?: unknown })?.x12;
      if (typeof x12 !== 'string') return send(res, 400, { errors: [{ description: 'no x12' }] });
      if (req.method === 'POST' && req.url === CLAIMS_PATH) return this.submit(req, x12, res);
      if (req.method === 'POST' && req.url === CLAIM_STATUS_PATH) return this.status(x12, res);
      send(res, 404, { error: 'not found' });
    });
  }

  private submit(req: IncomingMessage, x12: string, res: ServerResponse): void {
    const key = req.headers['idempotency-key'];
    const call: ReceivedSubmission = {
      authorization: req.headers.authorization ?? null,
      idempotencyKey: typeof key === 'string' ? key : null,
      x12,
      claim: null,
      parseError: null,
      answeredWith: { kind: 'accept' },
    };
    this.submissions.push(call);
    try {
      call.claim = read837(x12);
    } catch (e) {
      call.parseError = (e as Error).message;
      return send(res, 400, { status: 'ERROR', errors: [{ description: call.parseError }] });
    }
    const before = call.idempotencyKey ? this.stored.get(call.idempotencyKey) : undefined;
    if (before) {
      // An idempotent repeat: the same claim's id, as clearinghouses answer a replayed key.
      call.answeredWith = { kind: 'accept', id: before.id };
      return send(res, 200, {
        status: 'SUCCESS',
        controlNumber: call.claim.controlNumber,
        claimReference: { correlationId: before.id },
      });
    }
    const step = this.submitScripts.get(call.claim.subscriber.lastName)?.shift() ?? {
      kind: 'accept',
    };
    call.answeredWith = step;
    if (step.kind === 'store-then-timeout') {
      if (call.idempotencyKey) this.stored.set(call.idempotencyKey, { id: step.id, x12 });
      return; // no answer: the response stays open until the caller gives up
    }
    if (step.kind === 'http') return send(res, step.status, { error: `HTTP ${step.status}` });
    if (step.kind === 'refuse')
      return send(res, 400, {
        status: 'ERROR',
        errors: step.errors.map((description) => ({ code: '33', description })),
      });
    const id = step.id ?? `CH${randomBytes(6).toString('hex').toUpperCase()}`;
    if (call.idempotencyKey) this.stored.set(call.idempotencyKey, { id, x12 });
    send(res, 200, {
      status: 'SUCCESS',
      controlNumber: call.claim.controlNumber,
      claimReference: { correlationId: id, patientControlNumber: call.claim.patientControlNumber },
      ...(step.kind === 'accept' && step.report ? { x12: step.report(call.claim) } : {}),
    });
  }

  /** `GET` the list (a page token per page), `GET /{id}` → `{"x12"}`, `DELETE /{id}`. */
  private report(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '', this.baseUrl);
    this.reportCalls.push(`${req.method} ${url.pathname}${url.search}`);
    const id = decodeURIComponent(url.pathname.slice(REPORTS_PATH.length + 1));
    if (req.method === 'GET' && id === '') {
      // The token is the position after the page's last report: deleting reports moves nothing.
      const after = Number(url.searchParams.get('page_token') ?? '0');
      const rest = this.reports.filter((r) => r.seq > after);
      const page = rest.slice(0, REPORTS_PAGE_SIZE);
      const more = rest.length > REPORTS_PAGE_SIZE;
      return send(res, 200, {
        items: page.map((r) => ({ id: r.id, type: r.type, created_at: r.createdAt })),
        next_page_token: more ? String(page.at(-1)!.seq) : null,
      });
    }
    const found = this.reports.findIndex((r) => r.id === id);
    if (found === -1) return send(res, 404, { error: 'no such report' });
    if (req.method === 'GET') return send(res, 200, { x12: this.reports[found].x12 });
    if (req.method === 'DELETE') {
      if (this.failNextDelete.delete(id)) return send(res, 503, { error: 'try later' });
      this.reports.splice(found, 1);
      res.writeHead(204).end();
      return;
    }
    send(res, 405, { error: 'method' });
  }

  private status(x12: string, res: ServerResponse): void {
    const [set] = readInterchange(x12).groups[0].transactions;
    const trn = set.segments.find((s) => s.id === 'TRN');
    const ej = set.segments.find((s) => s.id === 'REF' && s.el(1) === 'EJ');
    const il = set.segments.find((s) => s.id === 'NM1' && s.el(1) === 'IL');
    const call: ReceivedStatusCall = {
      x12,
      trace: trn?.el(2) ?? '',
      claimCode: ej?.el(2) ?? '',
      lastName: il?.el(3) ?? '',
      answeredWith: { kind: '277', category: 'A1', code: '20' },
    };
    this.statusCalls.push(call);
    const step = this.statusScripts.get(call.lastName)?.shift() ?? call.answeredWith;
    call.answeredWith = step;
    if (step.kind === 'http') return send(res, step.status, { error: `HTTP ${step.status}` });
    send(res, 200, { x12: build277(call, step) });
  }
}

function build277(call: ReceivedStatusCall, step: Extract<StatusStep, { kind: '277' }>): string {
  return writeInterchange({
    senderId: 'CLEARINGHOUSE',
    receiverId: 'VISIONELIG',
    controlNumber: 777,
    usage: 'T',
    createdAt: new Date(),
    groups: [
      {
        functionalId: 'HN',
        version: '005010X212',
        controlNumber: '777',
        transactions: [
          {
            type: '277',
            controlNumber: '0777',
            implementationReference: '005010X212',
            segments: [
              ['BHT', '0010', '08', call.trace, '20261120', '1200', 'DG'],
              ['HL', '1', '', '20', '1'],
              ['NM1', 'PR', '2', 'PAYER', '', '', '', '', 'PI', 'VSP01'],
              ['HL', '2', '1', '21', '1'],
              ['NM1', '41', '2', 'PRACTICE', '', '', '', '', '46', 'VISIONELIG'],
              ['HL', '3', '2', '19', '1'],
              ['NM1', '1P', '2', 'PRACTICE', '', '', '', '', 'XX', '1234567893'],
              ['HL', '4', '3', '22', '0'],
              ['NM1', 'IL', '1', call.lastName, 'X'],
              ['TRN', '2', call.trace],
              [
                'STC',
                [step.category, step.code, 'PR'],
                '20261120',
                '',
                '1',
                step.payment ?? '',
                '',
                '',
                '',
                '',
                '',
                '',
                step.message ?? '',
              ],
              ['REF', 'EJ', call.claimCode],
            ],
          },
        ],
      },
    ],
  });
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
