/**
 * A load generator process. Reads one job (bench/lib/jobs.ts) as JSON from the file named by its
 * first argument, runs it against loopback, and prints one JSON line: the result.
 * Bounded in time and count by the job; never retries, so every failure shows in the counts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { treeCpuMs } from './lib/cpu';
import type { CannonJob, CannonResult, E2eJob, E2eResult, LoadJob, LoadResult } from './lib/jobs';
import { round, summarize } from './lib/stats';

async function cannon(job: CannonJob, durationSec = job.durationSec): Promise<CannonResult> {
  const pick = () => job.paths[Math.floor(Math.random() * job.paths.length)];
  const cpuBefore = job.watchPid ? treeCpuMs(job.watchPid) : 0;
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    pipelining: 1,
    duration: durationSec ?? 3600,
    // Not `amount`, which would make autocannon ignore the duration: both bounds hold this way.
    maxOverallRequests: job.amount,
    timeout: job.timeoutSec ?? 10,
    headers: job.headers,
    requests: [
      {
        method: job.method,
        body: job.body,
        setupRequest: (req) => ({ ...req, path: pick() }),
      },
    ],
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = (stats as { count: number }).count;
  }
  const ok = result['2xx'];
  const cpuMs = job.watchPid ? treeCpuMs(job.watchPid) - cpuBefore : NaN;
  return {
    mode: 'cannon',
    requests: result.requests.total,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    durationSec: round(result.duration),
    rps: round(ok / result.duration),
    latency: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: round(result.latency.mean),
    },
    ...(job.watchPid
      ? { cpuMsPerRequest: round(cpuMs / Math.max(1, result.requests.total), 3) }
      : {}),
  };
}

async function runCannon(job: CannonJob): Promise<CannonResult> {
  if (job.warmupSec) await cannon({ ...job, amount: undefined }, job.warmupSec);
  return cannon(job);
}

function signatureOk(secret: string, body: Buffer, given: string | undefined): boolean {
  if (!given || !/^[0-9a-f]{64}$/.test(given)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function runE2e(job: E2eJob): Promise<E2eResult> {
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const postLatencies: number[] = [];
  const seen = new Set<string>();
  let badSignature = 0;
  let duplicates = 0;
  let unknown = 0;
  let accepted = 0;
  let rejected = 0;
  let errors = 0;
  let onAllReceived: (() => void) | null = null;

  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const raw = Buffer.concat(chunks);
      res.writeHead(204).end();
      const signature = req.headers['x-signature'];
      if (!signatureOk(job.secret, raw, typeof signature === 'string' ? signature : undefined)) {
        badSignature++;
        return;
      }
      let uid: string | undefined;
      try {
        uid = (JSON.parse(raw.toString('utf8')) as { request_uid?: string }).request_uid;
      } catch {
        uid = undefined;
      }
      const t0 = uid ? sentAt.get(uid) : undefined;
      if (!uid || t0 === undefined) {
        unknown++;
        return;
      }
      if (seen.has(uid)) {
        duplicates++;
        return;
      }
      seen.add(uid);
      latencies.push(at - t0);
      if (onAllReceived && seen.size >= accepted) onAllReceived();
    });
  });
  receiver.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    receiver.once('error', reject);
    receiver.listen(job.receiverPort, '127.0.0.1', () => resolve());
  });

  const agent = new http.Agent({ keepAlive: true, maxSockets: job.maxSockets });
  const target = new URL('/api/auth/v1/eligibility/', job.url);
  const inFlight = new Set<Promise<void>>();
  const open = new Set<http.ClientRequest>();
  const post = (i: number): Promise<void> => {
    const uid = `${job.uidPrefix}-${i}`;
    const body = JSON.stringify({
      request_uid: uid,
      insurer_code: 'insurer:demo:vision',
      patient: {
        first_name: 'Maria',
        last_name: `Garcia${i % 97}`,
        dob: '1984-06-15',
        zipcode: '78701',
      },
    });
    const t0 = performance.now();
    sentAt.set(uid, t0);
    return new Promise<void>((resolve) => {
      // Each POST ends exactly once: answered, failed, or cut off at the deadline.
      let ended = false;
      const end = (outcome: () => void) => {
        if (ended) return;
        ended = true;
        open.delete(req);
        outcome();
        resolve();
      };
      const req = http.request(
        target,
        {
          method: 'POST',
          agent,
          headers: {
            Authorization: `Api ${job.apiKey}`,
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
          },
          timeout: 10_000,
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            end(() => {
              postLatencies.push(performance.now() - t0);
              if (res.statusCode === 201) accepted++;
              else {
                rejected++;
                sentAt.delete(uid);
              }
            }),
          );
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () =>
        end(() => {
          errors++;
          sentAt.delete(uid);
        }),
      );
      open.add(req);
      req.end(body);
    });
  };

  // Open loop: request i goes out at start + i / rate, whatever happened to the ones before it.
  const total = Math.round(job.ratePerSec * job.durationSec);
  const start = performance.now();
  let next = 0;
  let maxSendLagMs = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && start + (next * 1000) / job.ratePerSec <= now) {
        maxSendLagMs = Math.max(maxSendLagMs, now - (start + (next * 1000) / job.ratePerSec));
        const p = post(next++);
        inFlight.add(p);
        void p.then(() => inFlight.delete(p));
      }
      if (next >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  // Bounded: POSTs still queued or unanswered 10 s after the last one was due count as errors.
  await Promise.race([Promise.all([...inFlight]), sleep(10_000)]);
  for (const req of open) req.destroy(new Error('not answered 10 s after the last POST was due'));
  agent.destroy();

  if (seen.size < accepted) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, job.graceSec * 1000);
      onAllReceived = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  const durationSec = (performance.now() - start) / 1000;
  receiver.closeAllConnections();
  receiver.close();
  return {
    mode: 'e2e',
    sent: total,
    accepted,
    rejected,
    errors,
    received: seen.size,
    missing: accepted - seen.size,
    badSignature,
    duplicates,
    unknown,
    latency: summarize(latencies),
    postLatency: summarize(postLatencies),
    maxSendLagMs: round(maxSendLagMs),
    durationSec: round(durationSec),
  };
}

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2], 'utf8')) as LoadJob;
  const result: LoadResult = job.mode === 'cannon' ? await runCannon(job) : await runE2e(job);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`load worker failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
