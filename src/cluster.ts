import cluster, { type Worker } from 'node:cluster';
import type { AppConfig, Role } from './platform/config/env';

/** How long the processes get to finish in-flight work after SIGTERM before they are killed. */
const STOP_GRACE_MS = 30_000;
/** A process that ran this long before it died is restarted at once; sooner, with a backoff. */
const STABLE_AFTER_MS = 60_000;
const MAX_RESTART_DELAY_MS = 30_000;

interface Slot {
  role: Exclude<Role, 'worker'>;
  worker: Worker | null;
  startedAt: number;
  failures: number;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The start-up's last words in a cluster (src/serve.ts): every API process of the first start
 * reports once, the one that seeded the demo account with its banner, the others with the line
 * on getting a key again. The banner wins; the line is printed only when no process seeded;
 * either once, after every process listens. Processes restarted later print nothing.
 */
export class StartBanners {
  private banner: string | null = null;
  private again: string | null = null;
  private reports = 0;
  private printed = false;

  constructor(private readonly processes: number) {}

  report(kind: 'demo-banner' | 'demo-key-again', text: string): void {
    this.reports++;
    if (kind === 'demo-banner') this.banner = text;
    else this.again = text;
  }

  /** The text to print now, or null. */
  due(listening: number): string | null {
    if (this.printed || listening < this.processes) return null;
    const text = this.banner ?? (this.reports >= this.processes ? this.again : null);
    if (text !== null) this.printed = true;
    return text;
  }
}

/**
 * The `npm start` supervisor: WEB_CONCURRENCY processes sharing the port, each with the cluster's
 * ROLE; it loads none of the application itself. It restarts a process that dies (with a growing
 * delay when it keeps dying at start-up); on SIGTERM or SIGINT it passes SIGTERM on, waits for
 * every process to finish, runs `afterStop` and exits 0, or 1 after STOP_GRACE_MS.
 */
export function superviseCluster(
  config: AppConfig,
  { afterStop }: { afterStop?: () => Promise<void> | undefined } = {},
): void {
  const slots: Slot[] = [];
  const role = config.role === 'all' ? 'all' : 'api';
  for (let i = 0; i < config.webConcurrency; i++) slots.push(slot(role));
  let stopping = false;
  let listening = 0;
  // The demo banner a process sends, printed once every process listens (after the route logs).
  const banners = new StartBanners(config.webConcurrency);
  const printBanner = () => {
    const text = banners.due(listening);
    if (text !== null) process.stdout.write(text);
  };

  const start = (s: Slot) => {
    s.startedAt = Date.now();
    // The role goes to the child in its environment, read there by src/platform/config like any setting.
    s.worker = cluster.fork({ ROLE: s.role });
    s.worker.once('listening', () => {
      if (++listening === config.webConcurrency) {
        const what =
          role === 'all' ? 'processes serving the API and running the queues' : 'API processes';
        say(
          `Listening on ${config.publicUrl} with ${config.webConcurrency} ${what} ` +
            `(API docs: ${config.publicUrl}/docs)`,
        );
        printBanner();
      }
    });
    s.worker.on('message', (m: { kind?: unknown; text?: unknown }) => {
      if (
        (m?.kind === 'demo-banner' || m?.kind === 'demo-key-again') &&
        typeof m.text === 'string'
      ) {
        banners.report(m.kind, m.text);
        printBanner();
      }
    });
    s.worker.once('exit', (code, signal) => {
      s.worker = null;
      if (stopping) return;
      const ranMs = Date.now() - s.startedAt;
      s.failures = ranMs >= STABLE_AFTER_MS ? 0 : s.failures + 1;
      const delay = Math.min(MAX_RESTART_DELAY_MS, s.failures <= 1 ? 0 : 500 * 2 ** s.failures);
      process.stderr.write(
        `${s.role} process exited (${signal ?? `code ${code}`}); restarting in ${delay} ms\n`,
      );
      setTimeout(() => {
        if (!stopping) start(s);
      }, delay).unref();
    });
  };

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping ${slots.filter((s) => s.worker).length} processes`);
    const running = slots.map((s) => s.worker).filter((w): w is Worker => w !== null);
    const killer = setTimeout(() => {
      for (const w of running) if (!w.isDead()) w.process.kill('SIGKILL');
      process.stderr.write(`processes still running after ${STOP_GRACE_MS} ms were killed\n`);
      process.exit(1);
    }, STOP_GRACE_MS);
    killer.unref();
    let left = running.length;
    const done = () => {
      if (--left > 0) return;
      clearTimeout(killer);
      say('All processes stopped.');
      void Promise.resolve(afterStop?.())
        .catch((e: unknown) =>
          process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`),
        )
        .finally(() => process.exit(0));
    };
    if (left === 0) return done();
    for (const w of running) {
      if (w.isDead()) done();
      else {
        w.once('exit', done);
        // SIGTERM, not cluster's disconnect(): each process runs its own shutdown hooks.
        w.process.kill('SIGTERM');
      }
    }
  };

  if (config.metrics) {
    // docs/architecture.md, What operators see: the cluster's metrics, from its processes.
    const where = config.metrics;
    void import('./platform/metrics/cluster-metrics')
      .then(({ serveClusterMetrics }) =>
        serveClusterMetrics(where, (e) => process.stderr.write(`metrics: ${e.message}\n`)),
      )
      .then(() => say(`Metrics on http://${where.host}:${where.port}/metrics`))
      .catch((e: unknown) => {
        // The service goes on serving; the scrape's `up` of 0 tells the operator.
        process.stderr.write(`Metrics not served: ${e instanceof Error ? e.message : String(e)}\n`);
      });
  }
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (const s of slots) start(s);
}

function slot(role: Slot['role']): Slot {
  return { role, worker: null, startedAt: 0, failures: 0 };
}
