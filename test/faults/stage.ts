import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { PgCluster, Receiver, RedisServer, ROOT, ServiceProcess, sleep, waitFor } from './infra';

/** What the scenarios share: the load, one scenario's stage, and the outage check. */

export const DEMO = 'insurer:demo:vision';
/** How long accepted work may take to finish after a fault (30 s grace + lease + retries). */
export const SETTLE_MS = 180_000;
/** The contract for requests during an outage: an answer, and fast. */
export const OUTAGE_ANSWER_MS = 5_000;

export interface Figures {
  scenario: string;
  sent: number;
  accepted: number;
  completed: number;
  delivered: number;
  lost: number;
  seconds: number;
  notes: string[];
  problems: string[];
}

export interface Sent {
  uid: string;
  status: number | 'no answer';
  ms: number;
  body: string;
  at: number;
}

export class Gate {
  private opened: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;
  close(): void {
    this.opened = new Promise((r) => (this.release = r));
  }
  open(): void {
    this.release?.();
    this.release = null;
  }
  wait(): Promise<void> {
    return this.opened;
  }
}

/** Varied searches: plain, delayed 10 s (a delayed job), a big family, retried insurer errors. */
export function searchBody(uid: string, i: number) {
  const kinds = ['', '', '', '', 'delay_10', 'big_family', 'in_err_ins', 'no_oon', '', 'mark_used'];
  const cheat = kinds[i % kinds.length];
  return {
    insurer_code: DEMO,
    request_uid: uid,
    patient: {
      first_name: `Pat${i}`,
      last_name: cheat ? `Load ${cheat}` : 'Load',
      dob: '1980-02-03',
      zipcode: '78701',
    },
  };
}

export async function post(base: string, key: string, body: unknown, timeoutMs = 30_000) {
  const started = Date.now();
  try {
    const res = await fetch(`${base}/api/auth/v1/eligibility/`, {
      method: 'POST',
      headers: { Authorization: `Api ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, body: await res.text(), ms: Date.now() - started };
  } catch {
    return { status: 'no answer' as const, body: '', ms: Date.now() - started };
  }
}

export interface LoadOptions {
  count: number;
  concurrency: number;
  prefix: string;
  key: string;
  /** Which API each request goes to. */
  base: (i: number) => string;
  gate?: Gate;
  /** Called after each answer with the number answered so far. */
  onAnswer?: (answered: number) => void | Promise<void>;
  /** Minimum ms between request starts per lane (a steady trickle instead of a burst). */
  paceMs?: number;
  /** Stop sending (before `count`) once this answers true. */
  until?: () => boolean;
}

export async function load(options: LoadOptions): Promise<Sent[]> {
  const results: Sent[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      for (;;) {
        await options.gate?.wait();
        const i = next++;
        if (i >= options.count || options.until?.()) return;
        const uid = `${options.prefix}-${String(i).padStart(5, '0')}`;
        const at = Date.now();
        const res = await post(options.base(i), options.key, searchBody(uid, i));
        results.push({ uid, status: res.status, ms: res.ms, body: res.body, at });
        await options.onAnswer?.(results.length);
        if (options.paceMs) await sleep(options.paceMs);
      }
    }),
  );
  return results;
}

/** One scenario's own database, Redis prefix, account, webhook and receiver. */
export class Stage {
  readonly receiver = new Receiver();
  readonly services: ServiceProcess[] = [];
  key = '';
  accountId = '';
  db!: Client;
  readonly env: Record<string, string>;

  constructor(
    readonly name: string,
    readonly pg: PgCluster,
    readonly redis: RedisServer,
    readonly workDir: string,
    extraEnv: Record<string, string> = {},
  ) {
    this.env = {
      NODE_ENV: 'development',
      DATABASE_URL: pg.url(`faults_${name}`),
      DATABASE_POOL_SIZE: '20',
      // One process per service, as each scenario's topology names them (no cluster).
      WEB_CONCURRENCY: '1',
      REDIS_URL: redis.url(),
      REDIS_PREFIX: `faults_${name}`,
      LOG_LEVEL: 'warn',
      DEMO_SEED: 'false',
      RATE_LIMIT_PER_MINUTE: '10000000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1,2,3,5,8,13',
      WEBHOOK_TIMEOUT_MS: '3000',
      MAINTENANCE_INTERVAL_MS: '1000',
      SEARCH_RETRY_BASE_MS: '200',
      PUBLIC_URL: 'http://127.0.0.1:1',
      MAIL_DIR: join(workDir, 'mail'),
      ...extraEnv,
    };
  }

  service(name: string, role: 'all' | 'api' | 'worker'): ServiceProcess {
    const s = new ServiceProcess(
      { name: `${this.name}-${name}`, role, env: this.env },
      join(this.workDir, 'logs'),
    );
    this.services.push(s);
    return s;
  }

  /** After the first process has migrated the database: account, key, webhook. */
  async prepare(api: ServiceProcess): Promise<void> {
    await this.receiver.start();
    const out = execFileSync(
      process.execPath,
      [
        join(ROOT, 'dist', 'src', 'cli.js'),
        'accounts:create',
        '--name',
        `Faults ${this.name}`,
        '--email',
        `faults-${this.name}@example.test`,
      ],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', ...this.env, LOG_LEVEL: 'silent' },
        input: 'fault-suite-password\n',
      },
    ).toString();
    const created = JSON.parse(out.trim().split('\n').pop()!) as {
      account: { id: string };
      api_key: string;
    };
    this.key = created.api_key;
    this.accountId = created.account.id;
    const res = await fetch(`${api.base}/api/auth/v1/webhooks/`, {
      method: 'POST',
      headers: { Authorization: `Api ${this.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: this.receiver.url(), secret: 'fault-suite-secret' }),
    });
    if (res.status !== 201)
      throw new Error(`webhook not created: ${res.status} ${await res.text()}`);
    this.db = new Client({ connectionString: this.env.DATABASE_URL });
    this.db.on('error', () => undefined);
    await this.db.connect();
  }

  /** Statuses of this account's requests, by uid (a fresh connection: PostgreSQL may have restarted). */
  async statuses(): Promise<Map<string, string>> {
    const client = new Client({ connectionString: this.env.DATABASE_URL });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const { rows } = await client.query<{ uid: string; status: string }>(
        'SELECT uid, status FROM eligibility_requests WHERE account_id = $1',
        [this.accountId],
      );
      return new Map(rows.map((r) => [r.uid, r.status]));
    } finally {
      await client.end();
    }
  }

  async query<T extends Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
  ): Promise<T[]> {
    const client = new Client({ connectionString: this.env.DATABASE_URL });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  /**
   * Waits until every accepted request is finished and delivered, and every request stored
   * without an answer (a killed process) is finished, then checks, through the API, that each
   * result is final and that the delivered bytes are the GET v2 bytes.
   */
  async settle(sent: Sent[], api: ServiceProcess, started: number): Promise<Figures> {
    const accepted = sent.filter((s) => s.status === 201).map((s) => s.uid);
    const problems: string[] = [];
    const finished = (status?: string) => status === 'complete' || status === 'error';
    try {
      await waitFor(
        'every accepted request finished and delivered, every stored one finished',
        async () => {
          const statuses = await this.statuses();
          const delivered = this.receiver.uidsDelivered();
          // Stored but unanswered: they may have waited in the killed process's local lane,
          // leased to it, and resume a moment after the answered ones (RELIABILITY.md).
          const unanswered = sent.filter((s) => s.status === 'no answer' && statuses.has(s.uid));
          return (
            accepted.every((uid) => finished(statuses.get(uid)) && delivered.has(uid)) &&
            unanswered.every((s) => finished(statuses.get(s.uid)))
          );
        },
        SETTLE_MS,
        1_000,
      );
    } catch (e) {
      problems.push((e as Error).message);
    }
    const statuses = await this.statuses();
    const delivered = this.receiver.uidsDelivered();
    const completed = accepted.filter((uid) => finished(statuses.get(uid)));
    const deliveredAccepted = accepted.filter((uid) => delivered.has(uid));
    const lost = accepted.filter((uid) => !finished(statuses.get(uid)) || !delivered.has(uid));

    // What a client sees: the final result by GET, the same bytes as delivered.
    const byUid = new Map<string, string[]>();
    for (const d of this.receiver.deliveries)
      byUid.set(d.requestUid, [...(byUid.get(d.requestUid) ?? []), d.body]);
    let mismatched = 0;
    for (const uid of deliveredAccepted) {
      const res = await fetch(`${api.base}/api/auth/v2/eligibility/${uid}/`, {
        headers: { Authorization: `Api ${this.key}` },
      });
      const body = await res.text();
      if (res.status !== 200 || !byUid.get(uid)!.every((b) => b === body)) mismatched++;
    }
    if (mismatched > 0)
      problems.push(`${mismatched} delivered bodies differ from the GET v2 result`);
    // Requests whose answer was lost (a killed process) but that were stored must finish too.
    const unanswered = sent.filter((s) => s.status === 'no answer' && statuses.has(s.uid));
    const unansweredStuck = unanswered.filter((s) => !finished(statuses.get(s.uid)));
    if (unansweredStuck.length > 0)
      problems.push(`${unansweredStuck.length} stored but unanswered requests never finished`);
    const errors = [...statuses.values()].filter((s) => s === 'error').length;
    if (lost.length > 0) problems.push(`lost: ${lost.slice(0, 5).join(', ')}…`);
    return {
      scenario: this.name,
      sent: sent.length,
      accepted: accepted.length,
      completed: completed.length,
      delivered: deliveredAccepted.length,
      lost: lost.length,
      seconds: Math.round((Date.now() - started) / 1000),
      notes: [
        `error results (in_err_ins, by design): ${errors}`,
        ...(unanswered.length
          ? [`answers lost with a killed process but stored: ${unanswered.length}, all finished`]
          : []),
      ],
      problems,
    };
  }

  async close(): Promise<void> {
    for (const s of this.services) await s.stop();
    await this.receiver.stop();
    await this.db?.end().catch(() => undefined);
  }
}

/**
 * Checks the answers given from the moment a dependency went down until the service accepted
 * requests again: 201 or a fast 503 `{"detail"}`; and that every other request was accepted.
 */
export function outageAnswers(
  sent: Sent[],
  from: number,
  to: number,
): { notes: string[]; problems: string[] } {
  // A request overlaps the outage when it was still waiting for its answer when the fault began.
  const overlaps = (s: Sent) => s.at + s.ms >= from && s.at <= to + 10_000;
  const during = sent.filter(overlaps);
  const problems: string[] = [];
  const slow = during.filter((s) => s.ms > OUTAGE_ANSWER_MS);
  if (slow.length > 0)
    problems.push(
      `${slow.length} answers during the outage took over ${OUTAGE_ANSWER_MS} ms (max ${Math.max(...slow.map((s) => s.ms))} ms)`,
    );
  const bad = during.filter((s) => {
    if (s.status === 201) return false;
    if (s.status !== 503) return true;
    try {
      const body = JSON.parse(s.body) as Record<string, unknown>;
      return Object.keys(body).join() !== 'detail' || typeof body.detail !== 'string';
    } catch {
      return true;
    }
  });
  if (bad.length > 0)
    problems.push(
      `${bad.length} answers during the outage were neither 201 nor 503 {"detail"}: ${bad
        .slice(0, 3)
        .map((s) => `${s.status} ${s.body.slice(0, 120)}`)
        .join(' | ')}`,
    );
  // Outside the outage every request is accepted (a pooled connection broken by the restart may
  // still answer one 503 just after recovery: allowed for 10 s).
  const outside = sent.filter((s) => !overlaps(s) && s.status !== 201);
  if (outside.length > 0)
    problems.push(
      `${outside.length} requests outside the outage were not accepted: ${outside
        .slice(0, 3)
        .map((s) => `${s.status} ${s.body.slice(0, 120)}`)
        .join(' | ')}`,
    );
  const unavailable = during.filter((s) => s.status === 503).length;
  const maxMs = during.length ? Math.max(...during.map((s) => s.ms)) : 0;
  return {
    notes: [
      `from the fault until 10 s after recovery: ${during.length} requests, ${unavailable} got 503, slowest answer ${maxMs} ms`,
    ],
    problems,
  };
}
