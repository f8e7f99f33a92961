/**
 * The bare search baseline: what this machine can do for `POST /api/auth/v1/eligibility/` end to
 * end with no framework, for scenario 2. A plain node:http server and a pg pool (POOL_SIZE, the
 * service's size) doing the SQL work the service does per search, and nothing else:
 *
 * 1. Intake: the request row as the service's intake stores it (src/modules/eligibility/
 *    intake-writer.ts: account, uid, kind, location resolved in the INSERT (the account's
 *    default), insurer codes, query, `processing`, leased to its run (no owner), one attempt), one INSERT
 *    per POST (not group-committed), then 201 `{"request_uid"}`.
 * 2. Finishing, right after the answer: the service's statement for one search (finishCtes of
 *    src/modules/eligibility/store/search-runs.sql.ts, imported, and the deliveries CTE of
 *    WebhookDeliveriesRepository.finishing, copied): the request `complete` with both bodies, its
 *    results and persons rows (ids from blocks of 100 taken ahead, as SequenceBlock does), one
 *    delivery per active webhook subscribed to `eligibility`, leased to this process.
 * 3. Each delivery's first attempt: the body POSTed with the service's headers (X-Signature keyed
 *    with WEBHOOK_SECRET, the bench's secret: the stored secret is sealed with the service's key),
 *    then the service's attempt record (WebhookDeliveriesRepository.recordAttempt, copied).
 *
 * Bodies, results and persons are not rendered: they are the template's (TEMPLATE_ACCOUNT_ID,
 * TEMPLATE_UID: a search the service answered earlier in the same bench run) with the new uid and
 * fresh plan tokens spliced in, so they have the same sizes. Not done here, by design: the API
 * key is looked up once per key (the service caches keys too), no validation beyond JSON.parse,
 * no rate limit, no audit event, no insurer exchange log, no queue.
 *
 * Env: PORT (0 = any), DATABASE_URL, POOL_SIZE, TEMPLATE_ACCOUNT_ID, TEMPLATE_UID, WEBHOOK_SECRET.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
// The service's own finishing SQL (one search's statement), not a copy: they cannot drift apart.
import { finish as finishStatement, INSERT_REQUEST, RECORD_ATTEMPT } from './lib/bare-sql';

const PATH = /^\/api\/auth\/v1\/eligibility\/?(?:\?.*)?$/;
const EVENT = 'eligibility.finished';
const LEASE_MS = 90_000;
/**
 * No lease owner: the service releases at once the leases of owners it does not know as live
 * processes (src/platform/jobs/lease-recovery.ts), and would then run the bare baseline's searches.
 */
const OWNER = null;
const PLAN_TOKEN_DAYS = 30;
const SECRET = process.env.WEBHOOK_SECRET ?? '';

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.POOL_SIZE ?? 20),
  application_name: 'vision-bench-search-baseline',
  idleTimeoutMillis: 1_000,
});

/** Ids taken ahead from a sequence, 100 per query (the service's SequenceBlock). */
class IdBlock {
  private ids: string[] = [];
  private refill: Promise<void> | null = null;
  constructor(private readonly sequence: string) {}

  async take(n: number): Promise<string[]> {
    while (this.ids.length < n) {
      this.refill ??= pool
        .query<{ id: string }>({
          name: `ids-${this.sequence}`,
          text: `SELECT nextval('${this.sequence}')::text AS id FROM generate_series(1, 100)`,
        })
        .then(({ rows }) => {
          this.ids.push(...rows.map((r) => r.id));
        })
        .finally(() => (this.refill = null));
      await this.refill;
    }
    return this.ids.splice(0, n);
  }
}
const resultIds = new IdBlock('eligibility_results_id_seq');
const personIds = new IdBlock('eligibility_persons_id_seq');

/** A body cut where the template's uid and plan tokens were: slots between the parts. */
interface Cut {
  parts: string[];
  /** Per slot: -1 = the uid, else the index of the plan token. */
  slots: number[];
}

interface Template {
  insurerCodes: string[];
  query: string;
  v1: Cut;
  v2: Cut;
  results: Record<string, unknown>[];
  /** Persons with their result's position and, for those that had one, their token's index. */
  persons: { row: Record<string, unknown>; resultPosition: number; token: number }[];
  tokens: number;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function cut(body: string, uid: string, tokens: string[]): Cut {
  const re = new RegExp([uid, ...tokens].map(escapeRe).join('|'), 'g');
  const parts: string[] = [];
  const slots: number[] = [];
  let last = 0;
  for (const m of body.matchAll(re)) {
    parts.push(body.slice(last, m.index));
    slots.push(m[0] === uid ? -1 : tokens.indexOf(m[0]));
    last = m.index + m[0].length;
  }
  parts.push(body.slice(last));
  return { parts, slots };
}

function splice(c: Cut, uid: string, tokens: string[]): string {
  let out = c.parts[0];
  for (let i = 0; i < c.slots.length; i++)
    out += (c.slots[i] < 0 ? uid : tokens[c.slots[i]]) + c.parts[i + 1];
  return out;
}

async function loadTemplate(accountId: string, uid: string): Promise<Template> {
  const { rows: req } = await pool.query<{
    id: string;
    insurer_codes: string[];
    query: unknown;
    body_v1: string;
    body_v2: string;
  }>(
    `SELECT id, insurer_codes, query, body_v1, body_v2 FROM eligibility_requests
     WHERE account_id = $1 AND uid = $2 AND status = 'complete'`,
    [accountId, uid],
  );
  if (req.length === 0) throw new Error(`template ${uid} not found or not complete`);
  const { rows: results } = await pool.query<Record<string, unknown>>(
    `SELECT position, insurer_code, status, plan_name, plan_group, plan_group_id,
            plan_begin_date::text, plan_end_date::text, plan_refresh_date::text, plan_is_active
     FROM eligibility_results WHERE request_id = $1 ORDER BY position`,
    [req[0].id],
  );
  const { rows: persons } = await pool.query<Record<string, unknown> & { result_position: number }>(
    `SELECT r.position AS result_position, p.position, p.first_name, p.last_name, p.dob::text, p.sex,
            p.member_id, p.ssn_last_four, p.type, p.address, p.email, p.phone, p.is_active,
            p.insurer_state, p.plan, p.plan_token
     FROM eligibility_persons p JOIN eligibility_results r ON r.id = p.result_id
     WHERE r.request_id = $1 ORDER BY r.position, p.position`,
    [req[0].id],
  );
  const tokens = persons.map((p) => p.plan_token as string | null).filter((t) => t !== null);
  return {
    insurerCodes: req[0].insurer_codes,
    query: JSON.stringify(req[0].query),
    v1: cut(req[0].body_v1, uid, tokens),
    v2: cut(req[0].body_v2, uid, tokens),
    results,
    persons: persons.map(({ result_position, ...row }) => ({
      row,
      resultPosition: result_position,
      token: row.plan_token === null ? -1 : tokens.indexOf(row.plan_token as string),
    })),
    tokens: tokens.length,
  };
}

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

let template: Template;
/** API keys by SHA-256: looked up once each (the service caches keys as well). */
const accounts = new Map<string, Promise<string | null>>();

function accountOf(header: string): Promise<string | null> {
  const hash = createHash('sha256').update(header.slice(4).trim(), 'utf8').digest('hex');
  let found = accounts.get(hash);
  if (!found) {
    found = pool
      .query<{ account_id: string }>(
        'SELECT account_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
        [hash],
      )
      .then(({ rows }) => rows[0]?.account_id ?? null);
    accounts.set(hash, found);
  }
  return found;
}

function send(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method !== 'POST' || !PATH.test(req.url ?? ''))
    return send(res, 404, '{"detail":"Not found."}');
  const header = req.headers.authorization ?? '';
  const raw = await readBody(req);
  if (!header.startsWith('Api '))
    return send(res, 401, '{"detail":"Invalid authentication token."}');
  const accountId = await accountOf(header);
  if (!accountId) return send(res, 401, '{"detail":"Invalid authentication token."}');
  let dto: { request_uid?: unknown };
  try {
    dto = JSON.parse(raw) as { request_uid?: unknown };
  } catch {
    return send(res, 400, '{"detail":"JSON parse error."}');
  }
  const uid =
    typeof dto.request_uid === 'string' && dto.request_uid
      ? dto.request_uid
      : randomBytes(16).toString('hex');
  const { rows } = await pool.query<{ id: string }>({
    name: 'bare-intake',
    text: INSERT_REQUEST,
    values: [
      accountId,
      uid,
      template.insurerCodes,
      template.query,
      String(LEASE_MS),
      `bare:${randomUUID()}`,
      OWNER,
    ],
  });
  send(res, 201, JSON.stringify({ request_uid: uid }));
  await finish(rows[0].id, uid);
}

async function finish(requestId: string, uid: string): Promise<void> {
  const [rIds, pIds] = await Promise.all([
    resultIds.take(template.results.length),
    personIds.take(template.persons.length),
  ]);
  const tokens = Array.from({ length: template.tokens }, () => randomBytes(32).toString('hex'));
  const expires = daysFromNow(PLAN_TOKEN_DAYS);
  const bodyV1 = splice(template.v1, uid, tokens);
  const bodyV2 = splice(template.v2, uid, tokens);
  const results = template.results.map((r, i) => ({ ...r, id: rIds[i] }));
  const persons = template.persons.map((p, i) => ({
    ...p.row,
    id: pIds[i],
    result_id: rIds[p.resultPosition],
    plan_token: p.token < 0 ? null : tokens[p.token],
    plan_token_expired_at: p.token < 0 ? null : expires,
  }));
  const { rows } = await pool.query<{
    deliveries: { id: string; url: string; version: 'v1' | 'v2' }[];
  }>({
    name: 'bare-finish',
    ...finishStatement({
      requestId,
      status: 'complete',
      errorCode: null,
      bodyV1,
      bodyV2,
      results: JSON.stringify(results),
      persons: JSON.stringify(persons),
      event: EVENT,
      leaseJob: `first:${randomUUID()}`,
      leaseMs: String(LEASE_MS),
      owner: OWNER,
    }),
  });
  for (const d of rows[0]?.deliveries ?? [])
    void attempt(d.id, d.url, d.version === 'v1' ? bodyV1 : bodyV2);
}

/** The first attempt of a delivery: POST, then the attempt record. */
async function attempt(deliveryId: string, url: string, body: string): Promise<void> {
  const startedAt = new Date();
  const t0 = Date.now();
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body, 'utf8')),
    'User-Agent': 'vision-bench-search-baseline',
    'X-Delivery-Id': deliveryId,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'X-Event-Type': EVENT,
    'X-Signature': createHmac('sha256', SECRET).update(body, 'utf8').digest('hex'),
  };
  const result = await new Promise<{
    status: number | null;
    text: string | null;
    error: string | null;
  }>((resolve) => {
    const req = http.request(url, { method: 'POST', headers, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8').slice(0, 1024),
          error: null,
        }),
      );
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ status: null, text: null, error: e.message }));
    req.end(body);
  });
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  await pool.query({
    name: 'bare-attempt',
    text: RECORD_ATTEMPT,
    values: [
      deliveryId,
      startedAt,
      result.status,
      Date.now() - t0,
      ok ? null : (result.error ?? `HTTP ${result.status}`),
      result.text,
      ok,
      false,
      '60000',
    ],
  });
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((e: Error) => {
    process.stderr.write(`search baseline: ${e.message}\n`);
    if (!res.headersSent) send(res, 500, '{"detail":"Internal server error."}');
  });
});
server.keepAliveTimeout = 65_000;

loadTemplate(process.env.TEMPLATE_ACCOUNT_ID ?? '', process.env.TEMPLATE_UID ?? '').then(
  (t) => {
    template = t;
    server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      process.stdout.write(`${JSON.stringify({ event: 'ready', port })}\n`);
    });
  },
  (e: Error) => {
    process.stderr.write(`search baseline: ${e.message}\n`);
    process.exit(1);
  },
);

const stop = () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
