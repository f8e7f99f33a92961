import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { loadConfig } from '@/platform/config/env';
import { freePort, resetState } from './support/app';
import { FakeClearinghouse } from './support/fake-clearinghouse';
import { TestReceiver } from './support/receiver';

const ROOT = join(__dirname, '..');
const STARTUP_MS = 150_000;
const DAVIS = 'insurer:vision:davis_vision';
const API_KEY = 'ch-key-7f3a';
// Patient data of the search, spelled so that no span name, code or id can contain it by chance.
const PATIENT = {
  first_name: 'Zephyrine',
  last_name: 'Quillfeather',
  dob: '1971-03-29',
  zipcode: '78701',
  member_id: 'QX88291734',
};
const PATIENT_STRINGS = ['Zephyrine', 'Quillfeather', '1971-03-29', '19710329', 'QX88291734'];

/** OTLP/JSON as the exporter sends it (the parts read here). */
interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: OtlpValue }[];
  links?: { traceId: string; spanId: string }[];
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: { key: string; value: OtlpValue }[] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
}
const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

/** A collector on loopback: every POST /v1/traces body, as received. */
class FakeCollector {
  readonly bodies: string[] = [];
  private server: Server | null = null;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/traces') {
          this.bodies.push(Buffer.concat(chunks).toString('utf8'));
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } else res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  spans(): OtlpSpan[] {
    return this.bodies.flatMap((b) =>
      (JSON.parse(b) as OtlpExport).resourceSpans.flatMap((r) =>
        r.scopeSpans.flatMap((s) => s.spans),
      ),
    );
  }

  serviceNames(): string[] {
    return this.bodies.flatMap((b) =>
      (JSON.parse(b) as OtlpExport).resourceSpans.flatMap((r) =>
        r.resource.attributes
          .filter((a) => a.key === 'service.name')
          .map((a) => a.value.stringValue!),
      ),
    );
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

function attr(span: OtlpSpan, key: string): string | number | boolean | undefined {
  const v = span.attributes.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  return v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : v.boolValue);
}

/** The span's ancestors in `spans`, nearest first. */
function ancestors(span: OtlpSpan, spans: OtlpSpan[]): OtlpSpan[] {
  const out: OtlpSpan[] = [];
  let at: OtlpSpan | undefined = span;
  while (at?.parentSpanId) {
    const parentId: string = at.parentSpanId;
    at = spans.find((s) => s.spanId === parentId && s.traceId === span.traceId);
    if (at) out.push(at);
  }
  return out;
}

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

/** The @opentelemetry modules a process loads with the application (src/tracing.ts first, as src/main.ts does). */
function openTelemetryLoaded(env: Record<string, string | undefined>): string[] {
  const script = [
    "require('./src/tracing');",
    "require('./src/app.module');",
    "require('./src/serve');",
    "const loaded = Object.keys(require.cache).filter((p) => p.includes('@opentelemetry'));",
    'process.stdout.write(JSON.stringify(loaded));',
    'process.exit(0);',
  ].join('\n');
  const run = spawnSync(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', '-e', script],
    { cwd: ROOT, env: { ...env, TS_NODE_PROJECT: 'tsconfig.json' }, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`probe failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}

/**
 * docs/observability.md, Tracing; docs/architecture.md, Tracing. The service as `npm start`
 * runs it (src/main.ts in a child process), with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a
 * collector on loopback and a clearinghouse on loopback.
 */
describe('OpenTelemetry tracing', () => {
  let main: ChildProcess | null = null;
  let collector: FakeCollector;
  let clearinghouse: FakeClearinghouse;
  let receiver: TestReceiver;

  afterAll(async () => {
    if (main?.pid && main.exitCode === null && main.signalCode === null) main.kill('SIGKILL');
    await collector?.stop();
    await clearinghouse?.close();
    await receiver?.stop();
  });

  it('loads nothing of OpenTelemetry without OTEL_EXPORTER_OTLP_ENDPOINT, and all of it with', () => {
    const base = { ...process.env };
    delete base.OTEL_EXPORTER_OTLP_ENDPOINT;
    expect(openTelemetryLoaded(base)).toEqual([]);
    const on = openTelemetryLoaded({ ...base, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    for (const name of ['sdk-trace-node', 'instrumentation-http', 'instrumentation-pg'])
      expect(on.some((p) => p.includes(`@opentelemetry/${name}/`))).toBe(true);
  });

  it(
    'traces a search from the POST through its queue job to the clearinghouse call, with PostgreSQL, without patient data',
    async () => {
      collector = await new FakeCollector().start();
      clearinghouse = await FakeClearinghouse.start({ apiKey: API_KEY });
      receiver = await new TestReceiver().start();
      const config = loadConfig();
      await resetState(config);
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      main = spawn(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'src/main.ts'],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            TS_NODE_PROJECT: 'tsconfig.json',
            PORT: String(port),
            PUBLIC_URL: base,
            WEB_CONCURRENCY: '1',
            ROLE: 'all',
            DEMO_SEED: 'true',
            LOG_LEVEL: 'info',
            LOG_FORMAT: 'json',
            OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/`,
            OTEL_SERVICE_NAME: 'vision-under-test',
            // The batch processor's own setting: send every 200 ms instead of every 5 s.
            OTEL_BSP_SCHEDULE_DELAY: '200',
            CLEARINGHOUSE_ELIGIBILITY_URL: clearinghouse.eligibilityUrl,
            CLEARINGHOUSE_API_KEY: API_KEY,
            X12_SUBMITTER_ID: 'VISIONELIG',
            X12_RECEIVER_ID: 'CLEARINGHOUSE',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      main.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      main.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<string>((resolve) =>
        main!.once('exit', (code, signal) => resolve(signal ?? `code ${code}`)),
      );

      await until(() => output.includes('Try it:'), 'the service and its demo banner', STARTUP_MS);
      const key = /API key:\s+(vk_\S+)/.exec(output)![1];
      const location = /Location:\s+(\S+)/.exec(output)![1];
      const auth = { Authorization: `Api ${key}` };
      const http = request(base);
      await http
        .patch(`/api/auth/v1/locations/${location}/`)
        .set(auth)
        .send({
          npi: '1234567893',
          organization_name: 'Bright Eyes Optometry',
          tax_id: '741234567',
        })
        .expect(200);
      await http
        .post('/api/auth/v1/webhooks/')
        .set(auth)
        .send({
          url: `http://127.0.0.1:${receiver.port}/hook?token=s3cr3t-hook-token`,
          version: 'v2',
        })
        .expect(201);

      const created = await http
        .post('/api/auth/v1/eligibility/')
        .set(auth)
        .send({ insurer_code: DAVIS, location_code: location, patient: PATIENT });
      expect(created.status).toBe(201);
      const uid = created.body.request_uid as string;
      await until(
        async () =>
          (await http.get(`/api/auth/v2/eligibility/${uid}/`).set(auth)).body.status === 'complete',
        'the search to complete',
        30_000,
      );
      expect(clearinghouse.calls).toHaveLength(1);
      // A patient search by name: its query string must not reach a span.
      await http.get('/api/auth/v1/patients/?search=Quillfeather').set(auth);
      // A caller's own trace, continued; a probe, not traced.
      const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
      const callerSpan = '00f067aa0ba902b7';
      await http
        .get(`/api/auth/v2/eligibility/${uid}/`)
        .set({ ...auth, traceparent: `00-${callerTrace}-${callerSpan}-01` })
        .expect(200);
      await http.get('/health/live').expect(200);

      const isPost = (s: OtlpSpan) =>
        s.kind === SERVER &&
        attr(s, 'http.request.method') === 'POST' &&
        attr(s, 'http.route') === '/api/auth/v1/eligibility';
      const chCall = (s: OtlpSpan) =>
        s.kind === CLIENT && attr(s, 'url.full') === clearinghouse.baseUrl;
      const delivered = (s: OtlpSpan) =>
        s.name === 'webhook deliver' && attr(s, 'webhook.outcome') === 'delivered';
      await until(
        () => {
          const spans = collector.spans();
          const post = spans.find(isPost);
          return (
            post &&
            spans.some((s) => chCall(s) && s.traceId === post.traceId) &&
            spans.some((s) => delivered(s) && s.traceId === post.traceId) &&
            spans.some(
              (s) => s.kind === SERVER && attr(s, 'http.route') === '/api/auth/v1/patients',
            ) &&
            spans.some((s) => s.traceId === callerTrace && s.kind === SERVER)
          );
        },
        'the spans of the search',
        30_000,
      );

      const spans = collector.spans();
      const post = spans.find(isPost)!;
      const trace = spans.filter((s) => s.traceId === post.traceId);
      expect(collector.serviceNames()).toContain('vision-under-test');
      // Each request's span: named by its route template, with the status it answered.
      expect(post.name).toBe('POST /api/auth/v1/eligibility');
      expect(attr(post, 'http.response.status_code')).toBe(201);
      expect(attr(post, 'url.scheme')).toBe('http');
      const continued = spans.find((s) => s.traceId === callerTrace && s.kind === SERVER)!;
      expect(continued).toBeDefined();
      expect(continued.parentSpanId).toBe(callerSpan);
      expect(attr(continued, 'url.path')).toBe(`/api/auth/v2/eligibility/${uid}/`);
      expect(attr(continued, 'http.response.status_code')).toBe(200);
      expect(continued.name).toBe(`GET ${String(attr(continued, 'http.route'))}`);
      expect(spans.filter((s) => String(attr(s, 'url.path')).startsWith('/health'))).toEqual([]);

      // The job: a consumer span of the search queue, under the POST.
      const job = trace.find((s) => s.name === 'eligibility-search process')!;
      expect(job).toBeDefined();
      expect(job.kind).toBe(CONSUMER);
      expect(attr(job, 'queue.name')).toBe('eligibility-search');
      expect(attr(job, 'queue.path')).toBe('lane');
      expect(ancestors(job, spans)).toContain(post);

      // The insurer call, under the job; the clearinghouse's HTTP call under it.
      const call = trace.find((s) => s.name === 'insurer call')!;
      expect(call).toBeDefined();
      expect(attr(call, 'insurer.code')).toBe(DAVIS);
      expect(attr(call, 'insurer.transport')).toBe('x12');
      expect(attr(call, 'insurer.operation')).toBe('search');
      expect(attr(call, 'insurer.outcome')).toBe('found');
      expect(ancestors(call, spans)).toContain(job);
      const outgoing = trace.find(chCall)!;
      expect(ancestors(outgoing, spans)[0]).toBe(call);
      expect(attr(outgoing, 'http.response.status_code')).toBe(200);

      // PostgreSQL: statements of the POST (intake) and of the job (lease, finishing).
      const pg = trace.filter((s) => attr(s, 'db.system.name') === 'postgresql');
      expect(pg.some((s) => !ancestors(s, spans).includes(job))).toBe(true);
      expect(pg.some((s) => ancestors(s, spans).includes(job))).toBe(true);
      // The statement's text, its values as placeholders.
      const intake = pg.find((s) =>
        attr(s, 'db.query.text')?.toString().includes('INSERT INTO eligibility_requests'),
      );
      expect(intake).toBeDefined();
      expect(intake?.attributes.map((a) => a.key)).not.toContain('db.query.parameter.0');

      // The webhook's first attempt, in the same trace: its URL's origin only.
      const delivery = trace.find(delivered)!;
      expect(attr(delivery, 'webhook.event')).toBe('eligibility.finished');
      const hook = trace.find((s) => s.kind === CLIENT && ancestors(s, spans)[0] === delivery)!;
      expect(attr(hook, 'url.full')).toBe(`http://127.0.0.1:${receiver.port}`);
      expect(hook.attributes.map((a) => a.key)).not.toContain('url.path');

      // The patient search: path only.
      const search = spans.find(
        (s) => s.kind === SERVER && attr(s, 'http.route') === '/api/auth/v1/patients',
      )!;
      expect(attr(search, 'url.path')).toBe('/api/auth/v1/patients/');
      expect(search.attributes.map((a) => a.key)).not.toContain('url.query');

      // No patient data, nor the webhook's token, anywhere in what the collector received.
      const everything = collector.bodies.join('\n').toLowerCase();
      for (const value of [...PATIENT_STRINGS, 's3cr3t-hook-token'])
        expect(everything).not.toContain(value.toLowerCase());

      // Log lines written inside the POST carry its trace id.
      const lines = output
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map(
          (l) => JSON.parse(l) as { trace_id?: string; req?: { method?: string; path?: string } },
        );
      const access = lines.find(
        (l) => l.req?.method === 'POST' && l.req.path === '/api/auth/v1/eligibility/',
      );
      expect(access?.trace_id).toBe(post.traceId);

      // A clean stop: Nest's shutdown hooks end with the signal they were given.
      main.kill('SIGTERM');
      expect(await exited).toBe('SIGTERM');
      expect(output).not.toMatch(/"level":50/);
    },
    STARTUP_MS + 120_000,
  );
});
