/**
 * Scenario 11 (docs/architecture.md, What operators see): what the instruments cost. Three
 * single-process services on the same database: both instruments off, `METRICS_PORT` set (scraped
 * every 5 s, as a Prometheus would), and `OTEL_EXPORTER_OTLP_ENDPOINT` at a collector on loopback
 * (this file's: it takes every export and answers 200). They take turns, round after round, under
 * the same GET load (scenario 1's; every GET round first) and then POST load (scenario 2's, each
 * followed by its drain), each round starting with the next variant, so a change in the
 * machine's foreign load weighs on all three alike. Figures: throughput and p99 of
 * each instrumented service as a ratio to the one with both off (targets: metrics ≥ 0.97×,
 * tracing ≥ 0.85×, p99 ≤ 1.2×). The instruments must work while measured: the metrics answer
 * every scrape, and the collector receives spans.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { CannonResult } from './lib/jobs';
import { ms, perSec, ratio, row, type Row } from './lib/report';
import type { Server } from './lib/service';
import { sleep } from './lib/proc';

export type Variant = 'off' | 'metrics' | 'tracing' | 'sampled';
/** `sampled`: tracing with one trace in ten kept (docs/observability.md, Tracing), for context. */
export const VARIANTS: Variant[] = ['off', 'metrics', 'tracing', 'sampled'];

export interface InstrumentsSizes {
  rounds: number;
  /** Seconds of each load per round and service. */
  getSec: number;
  postSec: number;
  connections: number;
}

export interface InstrumentsDeps {
  /** Starts a service with `env` added to the bench's. */
  start(variant: Variant, env: Record<string, string>): Promise<Server>;
  /** Scenario 1's GET load on `url` for `sec` seconds. */
  get(url: string, sec: number, label: string): Promise<CannonResult>;
  /** Scenario 2's POST load on `url` for `sec` seconds, then its drain. */
  post(url: string, sec: number, label: string): Promise<CannonResult>;
  /** Merges the rounds of one load (counts added, percentiles the rounds' median). */
  merge(rounds: CannonResult[]): CannonResult;
  freePort(): Promise<number>;
}

interface Side {
  get: CannonResult;
  post: CannonResult;
}

export interface InstrumentsFigures extends InstrumentsSizes {
  sides: Record<Variant, Side>;
  scrapes: { ok: number; failed: number; bytes: number };
  collector: { exports: number; bytes: number };
  problems: string[];
}

/** An OTLP/HTTP receiver that keeps nothing: counts exports and their bytes, answers 200. */
async function startCollector(): Promise<{
  url: string;
  counts: { exports: number; bytes: number };
  close(): Promise<void>;
}> {
  const counts = { exports: 0, bytes: 0 };
  const server: HttpServer = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (counts.bytes += chunk.length));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') counts.exports++;
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/json' });
      res.end(req.headers['content-type']?.includes('json') ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function runInstrumentsScenario(
  deps: InstrumentsDeps,
  c: InstrumentsSizes,
): Promise<InstrumentsFigures> {
  const problems: string[] = [];
  const collector = await startCollector();
  const metricsPort = await deps.freePort();
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const services: Partial<Record<Variant, Server>> = {};
  const scrapes = { ok: 0, failed: 0, bytes: 0 };
  let scraping = true;
  const scraper = (async () => {
    while (scraping) {
      try {
        const res = await fetch(metricsUrl);
        const text = await res.text();
        if (res.ok) {
          scrapes.ok++;
          scrapes.bytes = text.length;
        } else scrapes.failed++;
      } catch {
        if (services.metrics) scrapes.failed++;
      }
      await sleep(5_000);
    }
  })();
  try {
    services.off = await deps.start('off', {});
    services.metrics = await deps.start('metrics', {
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
    });
    services.tracing = await deps.start('tracing', {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'vision-bench',
    });
    services.sampled = await deps.start('sampled', {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'vision-bench-sampled',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
    const gets: Record<Variant, CannonResult[]> = {
      off: [],
      metrics: [],
      tracing: [],
      sampled: [],
    };
    const posts: Record<Variant, CannonResult[]> = {
      off: [],
      metrics: [],
      tracing: [],
      sampled: [],
    };
    // Every GET round before the first POST: a POST load leaves work behind it (autovacuum of
    // the rows it wrote, the pool's connections warm) that would weigh on whichever GET followed
    // it. Each round starts with the next variant, so none is always first or last.
    for (const [load, sink] of [
      ['GET', gets],
      ['POST', posts],
    ] as const) {
      for (let i = 0; i < c.rounds; i++) {
        for (const v of rotated(VARIANTS, i)) {
          const url = services[v]!.url;
          const label = `11 ${v} ${load} r${i + 1}`;
          sink[v].push(
            load === 'GET'
              ? await deps.get(url, c.getSec, label)
              : await deps.post(url, c.postSec, label),
          );
        }
      }
    }
    // The last spans leave within the SDK's batch delay (5 s by default).
    for (let i = 0; i < 100 && collector.counts.exports === 0; i++) await sleep(100);
    if (collector.counts.exports === 0)
      problems.push('the collector received no trace export from the tracing service');
    if (scrapes.ok === 0) problems.push(`no scrape of ${metricsUrl} answered 200`);
    if (scrapes.failed > 0) problems.push(`${scrapes.failed} scrapes of ${metricsUrl} failed`);
    const sides = Object.fromEntries(
      VARIANTS.map((v) => [v, { get: deps.merge(gets[v]), post: deps.merge(posts[v]) }]),
    ) as Record<Variant, Side>;
    return {
      ...c,
      sides,
      scrapes,
      collector: { ...collector.counts },
      problems,
    };
  } finally {
    scraping = false;
    await scraper;
    for (const v of VARIANTS) await services[v]?.stop(10_000);
    await collector.close();
  }
}

/** `list` starting at its `by`-th element (modulo its length), the rest in order after it. */
export function rotated<T>(list: readonly T[], by: number): T[] {
  const k = by % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

export function instrumentsRows(f: InstrumentsFigures): Row[] {
  const sc = '11 instruments';
  const off = f.sides.off;
  const rows: Row[] = [];
  for (const [v, min] of [
    ['metrics', 0.97],
    ['tracing', 0.85],
  ] as const) {
    const side = f.sides[v];
    for (const load of ['get', 'post'] as const) {
      const name = load.toUpperCase();
      const throughput = side[load].rps / off[load].rps;
      const p99 = side[load].latency.p99 / off[load].latency.p99;
      rows.push(
        row(
          sc,
          `${name} throughput with ${v} on ÷ both off (${perSec(side[load].rps)} vs ${perSec(off[load].rps)})`,
          ratio(throughput),
          `≥ ${min}×`,
          throughput >= min,
        ),
        row(
          sc,
          `${name} p99 with ${v} on ÷ both off (${ms(side[load].latency.p99)} vs ${ms(off[load].latency.p99)})`,
          ratio(p99),
          '≤ 1.2×',
          p99 <= 1.2,
        ),
      );
    }
  }
  // Context, no target: what a busy service that keeps one trace in ten pays.
  const sampled = f.sides.sampled;
  rows.push(
    row(
      sc,
      'tracing with one trace in ten ÷ both off: GET, POST throughput (p99)',
      (['get', 'post'] as const)
        .map(
          (load) =>
            `${ratio(sampled[load].rps / off[load].rps)} (${ratio(sampled[load].latency.p99 / off[load].latency.p99)})`,
        )
        .join(', '),
      'context',
      null,
    ),
  );
  rows.push(
    row(
      sc,
      'scrapes answered; trace exports received',
      `${f.scrapes.ok} (${(f.scrapes.bytes / 1024).toFixed(0)} KiB each); ${f.collector.exports} (${(f.collector.bytes / 1024).toFixed(0)} KiB)`,
      '',
      null,
    ),
  );
  return rows;
}
