import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { checksAcrossKill } from './appointments';
import { makeWorkDir, PgCluster, RedisServer, removeWorkDir, ROOT, sleep, waitFor } from './infra';
import { type PooledDatabase, withPgBouncer } from './pooled';
import { rollingRestart } from './rolling';
import { type Figures, Gate, load, outageAnswers, post, searchBody, Stage } from './stage';

/**
 * The fault suite (`npm run test:faults`): the built service as child processes on its own
 * PostgreSQL cluster and redis-server, loopback only, every loop bounded. Each scenario reports
 * requests sent, accepted (201), completed (complete/error), webhooks delivered and lost, which
 * must be 0. Exits non-zero when any check fails.
 */

// Scenarios -----------------------------------------------------------------------------------

async function killAndRestart(
  pg: PgCluster,
  redis: RedisServer,
  workDir: string,
  pooled: PooledDatabase | null = null,
): Promise<Figures> {
  const stage = new Stage(pooled?.name ?? 'kill9', pg, redis, workDir, pooled?.env ?? {});
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
    let killedAt = 0;
    let restartedAt = 0;
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
        killedAt = Date.now();
        await svc.kill9();
        await svc.start();
        restartedAt = Date.now();
        gate.open();
      },
    });
    const figures = await stage.settle(sent, svc, started);
    const [{ n: processingAtRestart }] = await stage.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM eligibility_requests WHERE status = 'processing'",
    );
    // The searches stored before the kill (answered or not): how long after the restart the
    // last of them finished (target: 15 s; the dead process's leases are released at its start).
    const [{ slowest, before }] = await stage.query<{ slowest: number; before: number }>(
      `SELECT (extract(epoch FROM max(completed_at)) * 1000)::float8 AS slowest, count(*)::int AS before
       FROM eligibility_requests WHERE account_id = $1 AND created_at <= to_timestamp($2 / 1000.0)`,
      [stage.accountId, killedAt],
    );
    const slowestS = (Number(slowest) - restartedAt) / 1000;
    figures.notes.push(
      `${before} searches stored before the kill; the last finished ${slowestS.toFixed(1)} s after the restart (restart took ${((restartedAt - killedAt) / 1000).toFixed(1)} s)`,
    );
    if (slowestS > 15)
      figures.problems.push(
        `a search stored before the kill finished ${slowestS.toFixed(1)} s after the restart (over 15 s)`,
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
    // docs/architecture.md, Behind a connection pooler: PostgreSQL can store them, so no POST is refused for Redis.
    const refused = sent.filter((s) => s.status === 503).length;
    if (refused > 0) figures.problems.push(`${refused} POSTs answered 503 while Redis was down`);
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
  // `npm run test:faults -- 2 6` or FAULTS=redis,rolling: only those scenarios.
  const only = [
    ...process.argv.slice(2),
    ...(process.env.FAULTS ?? '').split(',').filter((o) => o.trim() !== ''),
  ].map((o) => o.trim().toLowerCase());
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
      ['1 kill -9 mid-load', (p, r, w) => killAndRestart(p, r, w)],
      // docs/architecture.md, Behind a connection pooler: the same behind PgBouncer in transaction mode (DATABASE_POOLER=transaction).
      [
        '1b kill -9 mid-load behind PgBouncer',
        (p, r, w) => withPgBouncer(p, 'kill9pooled', (db) => killAndRestart(p, r, w, db)),
      ],
      ['2 Redis restart', redisRestart],
      ['3 PostgreSQL restart', postgresRestart],
      ['4 receiver down', receiverDown],
      ['5 scale-out', scaleOut],
      ['6 rolling restart', rollingRestart],
      ['7 kill -9 while appointment checks are due', checksAcrossKill],
    ];
    for (const [title, run] of scenarios) {
      if (only.length && !only.some((o) => title.toLowerCase().includes(o))) continue;
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
