import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { loadConfig } from '@/platform/config/env';
import { freePort, resetState } from './support/app';
import { DEMO } from './support/eligibility';
import { checkWithPromtool, type Sample, samplesOf, total } from './support/prometheus';

const STARTUP_MS = 150_000;
const N = 6;

let output = '';

async function until<T>(probe: () => T | Promise<T>, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every counter and histogram sample of a scrape (they only grow), by series. */
function growing(samples: Sample[], types: Map<string, string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    const family = s.name.replace(/_(bucket|count|sum)$/, '');
    const type = types.get(s.name) ?? types.get(family);
    if (type === 'counter' || (type === 'histogram' && !s.name.endsWith('_sum')))
      out.set(`${s.name}${JSON.stringify(s.labels)}`, s.value);
  }
  return out;
}

const typesOf = (text: string) =>
  new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));

/**
 * METRICS_PORT with `npm start` as a cluster (docs/architecture.md, What operators see): the
 * supervisor serves the metrics of both processes, counters summed, in the Prometheus text
 * format, with no patient data, uid or account name in it. Runs src/main.ts as a child process
 * (ts-node), as test/cluster.pg.e2e-spec.ts does, against this worker's database.
 */
describe('GET /metrics of a cluster', () => {
  let main: ChildProcess | null = null;
  let holder: Client | null = null;

  afterAll(async () => {
    if (main?.pid && main.exitCode === null && main.signalCode === null) main.kill('SIGKILL');
    await holder?.end();
  });

  it(
    'sums both processes, never goes back between scrapes, parses, and holds no patient data',
    async () => {
      const config = loadConfig();
      await resetState(config);
      holder = new Client({ connectionString: config.databaseUrl });
      await holder.connect();
      const port = await freePort();
      const metricsPort = await freePort();
      const base = `http://127.0.0.1:${port}`;
      main = spawn(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'src/main.ts'],
        {
          cwd: join(__dirname, '..'),
          env: {
            ...process.env,
            TS_NODE_PROJECT: 'tsconfig.json',
            PORT: String(port),
            PUBLIC_URL: base,
            WEB_CONCURRENCY: '2',
            ROLE: 'all',
            DEMO_SEED: 'true',
            LOG_LEVEL: 'warn',
            METRICS_PORT: String(metricsPort),
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      main.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      main.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      await until(() => output.includes('Try it:'), 'the demo banner', STARTUP_MS);
      const key = /API key:\s+(vk_\S+)/.exec(output)![1];
      const auth = { Authorization: `Api ${key}` };
      const { rows: accounts } = await holder.query<{ name: string }>('SELECT name FROM accounts');
      const http = request(base);
      const scrape = async () => {
        const res = await request(`http://127.0.0.1:${metricsPort}`).get('/metrics');
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
        return res.text;
      };

      // Patients of their own: none of their words may appear in a scrape.
      const people = Array.from({ length: N }, (_, i) => ({
        first_name: `Quillon${i}`,
        last_name: `Brackenridge${i}`,
        dob: `1971-03-${String(10 + i).padStart(2, '0')}`,
        zipcode: '78701',
        member_id: `MBRX${9000 + i}`,
      }));
      const uids: string[] = [];
      for (const p of people) {
        const res = await http
          .post('/api/auth/v1/eligibility/')
          .set(auth)
          .send({ insurer_code: DEMO, patient: p, request_uid: `uid-metrics-${p.member_id}` });
        expect(res.status).toBe(201);
        uids.push(res.body.request_uid as string);
      }
      for (const uid of uids)
        await until(
          async () =>
            (await http.get(`/api/auth/v2/eligibility/${uid}/`).set(auth)).body.status ===
            'complete',
          'the searches to complete',
          30_000,
        );

      // Both processes took part (the supervisor hands connections to them in turn), and the
      // supervisor answers for both.
      const first = await scrape();
      expect(checkWithPromtool(first)).toBe('');
      const a = samplesOf(first);
      expect(total(a, 'eligibility_searches_total')).toBe(N);
      expect(a.filter((x) => x.name === 'eligibility_searches_total').map((x) => x.labels)).toEqual(
        [{ insurer: DEMO, outcome: 'found' }],
      );
      expect(total(a, 'insurer_request_duration_seconds_count')).toBe(N);
      expect(
        total(a, 'insurer_request_duration_seconds_count', { insurer: DEMO, transport: 'sandbox' }),
      ).toBe(N);
      expect(total(a, 'eligibility_search_duration_seconds_count', { path: 'electronic' })).toBe(N);
      const posts = a.filter(
        (x) =>
          x.name === 'http_server_request_duration_seconds_count' &&
          x.labels.method === 'POST' &&
          x.labels.status_class === '2xx',
      );
      expect(posts).toHaveLength(1);
      expect(posts[0].value).toBe(N);
      // Route templates, never the paths that carry uids.
      const routes = new Set(
        a
          .filter((x) => x.name === 'http_server_request_duration_seconds_count')
          .map((x) => x.labels.route),
      );
      expect([...routes].some((r) => r.includes(':'))).toBe(true);
      for (const r of routes) expect(r).not.toMatch(/uid-metrics|[0-9a-f]{8}-[0-9a-f]{4}/);
      // The database's gauges once, not once per process.
      expect(total(a, 'service_processes_live', { role: 'all' })).toBe(2);
      expect(
        a
          .filter((x) => x.name === 'queue_jobs_due')
          .map((x) => x.labels.queue)
          .sort(),
      ).toEqual(['claims', 'eligibility-batch', 'eligibility-search', 'mail', 'webhook-delivery']);
      expect(total(a, 'verification_tasks_overdue')).toBe(0);
      for (const f of ['nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes'])
        expect(a.some((x) => x.name === f)).toBe(true);

      for (let i = 0; i < 5; i++)
        expect((await http.get('/api/auth/v1/locations/').set(auth)).status).toBe(200);
      const second = await scrape();
      expect(checkWithPromtool(second)).toBe('');
      const b = samplesOf(second);
      const before = growing(a, typesOf(first));
      const after = growing(b, typesOf(second));
      expect(before.size).toBeGreaterThan(20);
      for (const [series, value] of before)
        expect({ series, grew: (after.get(series) ?? -1) >= value }).toEqual({
          series,
          grew: true,
        });
      expect(total(b, 'eligibility_searches_total')).toBe(N);
      expect(
        total(b, 'http_server_request_duration_seconds_count', {
          method: 'GET',
          status_class: '2xx',
        }),
      ).toBeGreaterThanOrEqual(5);

      for (const text of [first, second]) {
        for (const p of people)
          for (const word of [p.first_name, p.last_name, p.dob, p.member_id])
            expect(text).not.toContain(word);
        for (const uid of uids) expect(text).not.toContain(uid);
        for (const acc of accounts) expect(text).not.toContain(acc.name);
        expect(text).not.toContain(key);
      }

      main.kill('SIGTERM');
      await until(() => output.includes('All processes stopped.'), 'the stop', 60_000);
    },
    STARTUP_MS + 120_000,
  );
});
