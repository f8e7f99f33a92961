import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  makeWorkDir,
  PgCluster,
  Receiver,
  RedisServer,
  removeWorkDir,
  ROOT,
  ServiceProcess,
  sleep,
  waitFor,
} from './infra';

/**
 * The fault suite (`npm run test:faults`): the built service as child processes on its own
 * PostgreSQL cluster and redis-server, loopback only, every loop bounded. Each scenario reports
 * requests sent, accepted (201), completed (complete/error), webhooks delivered and lost, which
 * must be 0. Exits non-zero when any check fails.
 */

const DEMO = 'insurer:demo:vision';
/** How long accepted work may take to finish after a fault (30 s grace + lease + retries). */
const SETTLE_MS = 180_000;
/** The contract for requests during an outage: an answer, and fast. */
const OUTAGE_ANSWER_MS = 5_000;

interface Figures {
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

interface Sent {
  uid: string;
  status: number | 'no answer';
  ms: number;
  body: string;
  at: number;
}

class Gate {
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
function searchBody(uid: string, i: number) {
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

async function post(base: string, key: string, body: unknown, timeoutMs = 30_000) {
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

interface LoadOptions {
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
}

async function load(options: LoadOptions): Promise<Sent[]> {
  const results: Sent[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      for (;;) {
        await options.gate?.wait();
        const i = next++;
        if (i >= options.count) return;
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
class Stage {
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
        '--password',
        'fault-suite-password',
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...this.env, LOG_LEVEL: 'silent' } },
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
function outageAnswers(
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

// Scenarios -----------------------------------------------------------------------------------

async function killAndRestart(
  pg: PgCluster,
  redis: RedisServer,
  workDir: string,
): Promise<Figures> {
  const stage = new Stage('kill9', pg, redis, workDir);
  const started = Date.now();
  try {
    const svc = stage.service('all', 'all');
    await svc.start();
    await stage.prepare(svc);
    // Every delivery's first attempt fails: retries are pending when the process dies.
    stage.receiver.reply = (_id, attempt) => (attempt === 1 ? 503 : 200);
    const gate = new Gate();
    let killed = false;
    let pendingAtKill = 0;
    const sent = await load({
      count: 1_000,
      concurrency: 25,
      prefix: 'k',
      key: stage.key,
      base: () => svc.base,
      gate,
      onAnswer: async (answered) => {
        if (killed || answered < 500) return;
        killed = true;
        gate.close();
        const [{ n }] = await stage.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'",
        );
        pendingAtKill = n;
        await svc.kill9();
        await svc.start();
        gate.open();
      },
    });
    const figures = await stage.settle(sent, svc, started);
    const [{ n: processingAtRestart }] = await stage.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM eligibility_requests WHERE status = 'processing'",
    );
    figures.notes.push(
      `kill -9 after 500 answers, with ${pendingAtKill} webhook deliveries pending; restarted at once`,
      `answers lost in flight at the kill: ${sent.filter((s) => s.status === 'no answer').length}; still processing at the end: ${processingAtRestart}`,
    );
    if (pendingAtKill === 0)
      figures.problems.push('no delivery was pending at the kill: the scenario did not test it');
    return figures;
  } finally {
    await stage.close();
  }
}

async function redisRestart(pg: PgCluster, redis: RedisServer, workDir: string): Promise<Figures> {
  const stage = new Stage('redis', pg, redis, workDir);
  const started = Date.now();
  try {
    const svc = stage.service('all', 'all');
    await svc.start();
    await stage.prepare(svc);
    let outageFrom = 0;
    let outageTo = 0;
    let recoveredMs = 0;
    let recoveredAt = 0;
    const fault = (async () => {
      await sleep(4_000);
      outageFrom = Date.now();
      await redis.kill();
      await sleep(6_000);
      await redis.start();
      outageTo = Date.now();
      // Recovered by itself: a request is accepted again.
      await waitFor(
        'a 201 after Redis came back',
        async () =>
          (await post(svc.base, stage.key, searchBody(`probe-${Date.now()}`, 0), 5_000)).status ===
          201,
        60_000,
        250,
      );
      recoveredMs = Date.now() - outageTo;
      recoveredAt = Date.now();
    })();
    const sent = await load({
      count: 800,
      concurrency: 8,
      prefix: 'r',
      key: stage.key,
      base: () => svc.base,
      paceMs: 150,
    });
    await fault;
    const figures = await stage.settle(sent, svc, started);
    const outage = outageAnswers(sent, outageFrom, recoveredAt);
    figures.notes.push(
      `Redis killed (no persistence: every job lost) for ${Math.round((outageTo - outageFrom) / 1000)} s; accepting again ${recoveredMs} ms after it returned`,
      ...outage.notes,
    );
    figures.problems.push(...outage.problems);
    return figures;
  } finally {
    await stage.close();
  }
}

async function postgresRestart(
  pg: PgCluster,
  redis: RedisServer,
  workDir: string,
): Promise<Figures> {
  const stage = new Stage('postgres', pg, redis, workDir);
  const started = Date.now();
  try {
    const svc = stage.service('all', 'all');
    await svc.start();
    await stage.prepare(svc);
    let outageFrom = 0;
    let outageTo = 0;
    let recoveredMs = 0;
    let recoveredAt = 0;
    const fault = (async () => {
      await sleep(4_000);
      outageFrom = Date.now();
      pg.stop('immediate');
      await sleep(6_000);
      await pg.start();
      outageTo = Date.now();
      await waitFor(
        'a 201 after PostgreSQL came back',
        async () =>
          (await post(svc.base, stage.key, searchBody(`probe-${Date.now()}`, 0), 5_000)).status ===
          201,
        60_000,
        250,
      );
      recoveredMs = Date.now() - outageTo;
      recoveredAt = Date.now();
    })();
    const sent = await load({
      count: 800,
      concurrency: 8,
      prefix: 'p',
      key: stage.key,
      base: () => svc.base,
      paceMs: 150,
    });
    await fault;
    const figures = await stage.settle(sent, svc, started);
    const outage = outageAnswers(sent, outageFrom, recoveredAt);
    figures.notes.push(
      `PostgreSQL crashed (pg_ctl stop -m immediate) for ${Math.round((outageTo - outageFrom) / 1000)} s; accepting again ${recoveredMs} ms after it returned`,
      ...outage.notes,
    );
    figures.problems.push(...outage.problems);
    return figures;
  } finally {
    await stage.close();
  }
}

async function receiverDown(pg: PgCluster, redis: RedisServer, workDir: string): Promise<Figures> {
  const schedule = [1, 2, 3, 5, 8, 13];
  const stage = new Stage('receiver', pg, redis, workDir, {
    WEBHOOK_RETRY_SCHEDULE: schedule.join(','),
  });
  const started = Date.now();
  try {
    const svc = stage.service('all', 'all');
    await svc.start();
    await stage.prepare(svc);
    await stage.receiver.stop();
    const downFrom = Date.now();
    const sent = await load({
      count: 200,
      concurrency: 10,
      prefix: 'w',
      key: stage.key,
      base: () => svc.base,
    });
    // Down for 12 s: the first four or five attempts of the early deliveries are refused.
    await sleep(Math.max(0, 12_000 - (Date.now() - downFrom)));
    await stage.receiver.start();
    const downSeconds = Math.round((Date.now() - downFrom) / 1000);
    const figures = await stage.settle(sent, svc, started);
    const rows = await stage.query<{ status: string; attempt_count: number; failed: number }>(
      `SELECT d.status, d.attempt_count,
              (SELECT count(*)::int FROM webhook_attempts a WHERE a.delivery_id = d.id AND a.status_code IS NULL) AS failed
       FROM webhook_deliveries d WHERE d.account_id = $1`,
      [stage.accountId],
    );
    const maxAttempts = Math.max(...rows.map((r) => r.attempt_count));
    const retried = rows.filter((r) => r.failed > 0).length;
    figures.notes.push(
      `receiver down for ${downSeconds} s; schedule ${schedule.join(',')} s (at most ${schedule.length + 1} attempts)`,
      `${retried} deliveries needed retries; most attempts used by one delivery: ${maxAttempts}`,
    );
    if (maxAttempts > schedule.length + 1)
      figures.problems.push(`a delivery used ${maxAttempts} attempts, more than scheduled`);
    if (rows.some((r) => r.status !== 'succeeded'))
      figures.problems.push(
        `${rows.filter((r) => r.status !== 'succeeded').length} deliveries not succeeded`,
      );
    if (retried === 0)
      figures.problems.push('no delivery was retried: the receiver was not down long enough');
    return figures;
  } finally {
    await stage.close();
  }
}

async function scaleOut(pg: PgCluster, redis: RedisServer, workDir: string): Promise<Figures> {
  const stage = new Stage('scale', pg, redis, workDir);
  const started = Date.now();
  try {
    const api1 = stage.service('api1', 'api');
    await api1.start(); // migrates first; the others find the schema ready
    const [api2, worker1, worker2] = [
      stage.service('api2', 'api'),
      stage.service('worker1', 'worker'),
      stage.service('worker2', 'worker'),
    ];
    await Promise.all([api2.start(), worker1.start(), worker2.start()]);
    await stage.prepare(api1);
    let killed = false;
    const apis = [api1, api2];
    const sent = await load({
      count: 800,
      concurrency: 20,
      prefix: 's',
      key: stage.key,
      base: (i) => apis[i % 2].base,
      onAnswer: async (answered) => {
        if (killed || answered < 400) return;
        killed = true;
        await worker1.kill9();
      },
    });
    const figures = await stage.settle(sent, api2, started);
    // One result set per request, one delivery per webhook per result.
    const doubleResults = await stage.query<{ uid: string }>(
      `SELECT r.uid FROM eligibility_requests r JOIN eligibility_results res ON res.request_id = r.id
       WHERE r.account_id = $1 GROUP BY r.uid HAVING count(res.id) > 1`,
      [stage.accountId],
    );
    const idsByUid = new Map<string, Set<string>>();
    for (const d of stage.receiver.deliveries)
      idsByUid.set(d.requestUid, (idsByUid.get(d.requestUid) ?? new Set()).add(d.deliveryId));
    const twoDeliveries = [...idsByUid.values()].filter((ids) => ids.size > 1).length;
    const repeats = stage.receiver.deliveries.length - idsByUid.size;
    const perApi = [0, 1].map(
      (k) => sent.filter((_, i) => i % 2 === k && sent[i].status === 201).length,
    );
    figures.notes.push(
      `2 ROLE=api + 2 ROLE=worker; accepted per API ${perApi.join(' / ')}; worker1 killed -9 after 400 answers`,
      `results stored twice: ${doubleResults.length}; results with more than one delivery id: ${twoDeliveries}; repeated receipts of one delivery (at-least-once): ${repeats}`,
    );
    if (doubleResults.length > 0)
      figures.problems.push(`${doubleResults.length} requests have two result sets`);
    if (twoDeliveries > 0)
      figures.problems.push(`${twoDeliveries} results were delivered as two deliveries`);
    return figures;
  } finally {
    await stage.close();
  }
}

// Runner --------------------------------------------------------------------------------------

function audit(): string {
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  try {
    const report = JSON.parse(run.stdout) as {
      metadata?: { vulnerabilities?: Record<string, number> };
      message?: string;
      statusCode?: number;
      uri?: string;
    };
    const v = report.metadata?.vulnerabilities;
    if (v) {
      const line = `npm audit --omit=dev: critical ${v.critical ?? 0}, high ${v.high ?? 0}, moderate ${v.moderate ?? 0}, low ${v.low ?? 0}`;
      if ((v.critical ?? 0) + (v.high ?? 0) > 0) throw new Error(line);
      return line;
    }
    return `npm audit --omit=dev: the registry could not answer: ${report.message ?? `status ${report.statusCode}`}; no advisory data`;
  } catch (e) {
    if (e instanceof SyntaxError)
      return `npm audit --omit=dev: no JSON answer (exit ${run.status}): ${(run.stderr || '').trim().split('\n').pop()}`;
    throw e;
  }
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const suiteStarted = Date.now();
  const workDir = makeWorkDir();
  mkdirSync(join(workDir, 'logs'));
  const pg = new PgCluster(workDir);
  const redis = new RedisServer(workDir);
  const results: Figures[] = [];
  let failed = false;
  let auditFailed = false;
  try {
    await pg.init();
    await redis.start();
    console.log(
      `fault suite: PostgreSQL on 127.0.0.1:${pg.port}, Redis on 127.0.0.1:${redis.port}, work dir ${workDir}`,
    );
    const scenarios: [string, (pg: PgCluster, r: RedisServer, w: string) => Promise<Figures>][] = [
      ['1 kill -9 mid-load', killAndRestart],
      ['2 Redis restart', redisRestart],
      ['3 PostgreSQL restart', postgresRestart],
      ['4 receiver down', receiverDown],
      ['5 scale-out', scaleOut],
    ];
    for (const [title, run] of scenarios) {
      if (only.length && !only.some((o) => title.startsWith(o))) continue;
      console.log(`\n▶ ${title}`);
      let figures: Figures;
      try {
        figures = await run(pg, redis, workDir);
      } catch (e) {
        figures = {
          scenario: title,
          sent: 0,
          accepted: 0,
          completed: 0,
          delivered: 0,
          lost: 0,
          seconds: 0,
          notes: [],
          problems: [`crashed: ${(e as Error).stack ?? String(e)}`],
        };
      }
      figures.scenario = title;
      results.push(figures);
      console.log(
        `  sent ${figures.sent}, accepted ${figures.accepted}, completed ${figures.completed}, webhooks delivered ${figures.delivered}, lost ${figures.lost} (${figures.seconds} s)`,
      );
      for (const note of figures.notes) console.log(`  · ${note}`);
      for (const problem of figures.problems) console.log(`  ✗ ${problem}`);
      if (!redis.port || !(await redis.ping())) await redis.start();
    }
    try {
      console.log(`\n${audit()}`);
    } catch (e) {
      console.log(`\n✗ ${(e as Error).message}`);
      auditFailed = true;
    }
  } finally {
    redis.kill().catch(() => undefined);
    pg.stop('fast');
  }
  console.log('\n| scenario | sent | accepted | completed | webhooks delivered | lost | s |');
  console.log('|---|---|---|---|---|---|---|');
  for (const f of results)
    console.log(
      `| ${f.scenario} | ${f.sent} | ${f.accepted} | ${f.completed} | ${f.delivered} | ${f.lost} | ${f.seconds} |`,
    );
  const passed = results.filter(
    (f) => f.problems.length === 0 && f.lost === 0 && f.accepted > 0,
  ).length;
  failed = passed !== results.length || auditFailed;
  console.log(`\nfault suite finished in ${Math.round((Date.now() - suiteStarted) / 1000)} s`);
  if (failed) console.log(`logs kept in ${workDir}/logs`);
  else removeWorkDir(workDir);
  console.log(`${passed} passed, ${results.length - passed} failed`);
  process.exit(failed ? 1 : 0);
}

void main();
