import { PgCluster, RedisServer, ServiceProcess, sleep, waitFor } from './infra';
import { type Figures, load, Stage } from './stage';

/** How often the balancer asks each API's readiness (a load balancer's health check). */
const PROBE_MS = 200;

async function isReady(svc: ServiceProcess): Promise<boolean> {
  try {
    const res = await fetch(`${svc.base}/health/ready`, { signal: AbortSignal.timeout(1_000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * docs/architecture.md, Behind a connection pooler, a rolling restart: two ROLE=api and two ROLE=worker processes under steady load;
 * each in turn gets SIGTERM, is restarted, and is ready again before the next one. The load goes
 * through a balancer that sends each request to an API whose `/health/ready` answered 200 at its
 * last check (every 200 ms), as a load balancer would; SHUTDOWN_DELAY_MS=1000 gives it time to
 * see a stopping API fail readiness before that API closes its port. Nothing is lost, no 5xx.
 */
export async function rollingRestart(
  pg: PgCluster,
  redis: RedisServer,
  workDir: string,
): Promise<Figures> {
  const stage = new Stage('rolling', pg, redis, workDir, {
    SHUTDOWN_DELAY_MS: '1000',
    PROCESS_HEARTBEAT_MS: '500',
  });
  const started = Date.now();
  let probing = true;
  try {
    const api1 = stage.service('api1', 'api');
    await api1.start();
    const [api2, worker1, worker2] = [
      stage.service('api2', 'api'),
      stage.service('worker1', 'worker'),
      stage.service('worker2', 'worker'),
    ];
    await Promise.all([api2.start(), worker1.start(), worker2.start()]);
    await stage.prepare(api1);
    const apis = [api1, api2];
    const ready = new Map<ServiceProcess, boolean>(apis.map((a) => [a, true]));
    const prober = (async () => {
      while (probing) {
        await Promise.all(apis.map(async (a) => ready.set(a, await isReady(a))));
        await sleep(PROBE_MS);
      }
    })();
    let next = 0;
    const pick = (): string => {
      const up = apis.filter((a) => ready.get(a));
      const pool = up.length > 0 ? up : apis;
      return pool[next++ % pool.length].base;
    };

    let done = false;
    const notes: string[] = [];
    const problems: string[] = [];
    const restarts = (async () => {
      await sleep(3_000);
      for (const svc of [api1, worker1, api2, worker2]) {
        const from = Date.now();
        await svc.stop();
        const stoppedMs = Date.now() - from;
        if (svc.child?.signalCode === 'SIGKILL')
          problems.push(`${svc.options.name} did not stop within 10 s of SIGTERM (killed)`);
        await svc.start();
        if (svc.options.role === 'api')
          await waitFor(`${svc.options.name} ready`, () => isReady(svc), 30_000, 100);
        notes.push(
          `${svc.options.name}: stopped in ${(stoppedMs / 1000).toFixed(1)} s after SIGTERM, ready again ${((Date.now() - from) / 1000).toFixed(1)} s after it`,
        );
      }
      await sleep(3_000);
      done = true;
    })();
    const sent = await load({
      count: 100_000,
      concurrency: 8,
      prefix: 'rr',
      key: stage.key,
      base: () => pick(),
      paceMs: 100,
      until: () => done,
    });
    await restarts;
    probing = false;
    await prober;
    const figures = await stage.settle(sent, api1, started);
    const fivexx = sent.filter((s) => typeof s.status === 'number' && s.status >= 500);
    const noAnswer = sent.filter((s) => s.status === 'no answer').length;
    const other = sent.filter((s) => s.status !== 201 && s.status !== 'no answer');
    figures.notes.push(
      '2 ROLE=api + 2 ROLE=worker; SIGTERM and restart in turn: api1, worker1, api2, worker2',
      ...notes,
      `answers: 201 × ${sent.filter((s) => s.status === 201).length}, 5xx × ${fivexx.length}, other × ${other.length}, no answer × ${noAnswer}`,
    );
    figures.problems.push(...problems);
    if (fivexx.length > 0)
      figures.problems.push(
        `${fivexx.length} answers were 5xx: ${fivexx
          .slice(0, 3)
          .map((s) => `${s.status} ${s.body.slice(0, 120)}`)
          .join(' | ')}`,
      );
    if (other.length > 0 || noAnswer > 0)
      figures.problems.push(`${other.length + noAnswer} requests were not accepted`);
    return figures;
  } finally {
    probing = false;
    await stage.close();
  }
}
