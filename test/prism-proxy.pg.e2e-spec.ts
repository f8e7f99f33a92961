import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createAccount, TestAccount } from './support/factories';
import { DEMO, patient } from './support/eligibility';
import { submitBundle } from './support/fhir';
import { OpenApiChecker, type OpenApiDocument } from './support/openapi';
import { createTestApp, freePort, TestApp } from './support/app';

type Json = Record<string, any>;

const ROOT = join(__dirname, '..');
const DOCUMENT = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8')) as Json;
const PRISM = join(ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const VSP = 'insurer:vision:vsp';
const report = (name: string) => readFileSync(resolve(__dirname, 'x12/reports', name), 'utf8');

interface Violation {
  location: string[];
  severity: string;
  code?: string;
  message: string;
}

/**
 * docs/api.md: every answer the service gives is one the OpenAPI document describes. An
 * independent validator, Prism in proxy mode (openapi.json; status, content type, headers and
 * body of each answer), stands in front of traffic that touches every operation of the
 * document, error answers included, and reports no violation. Between Prism and the service a
 * small forwarder can spoil one answer on request, which shows that Prism does check nested
 * bodies (a validator that skipped schemas it cannot compile would pass everything).
 */
describe('Prism in proxy mode in front of the service (openapi.json)', () => {
  let t: TestApp;
  let a: TestAccount;
  let prism: ChildProcess;
  let prismUrl: string;
  let forwarder: http.Server;
  const checker = new OpenApiChecker(DOCUMENT as OpenApiDocument);
  const touched = new Map<string, Set<number>>();
  const violations: string[] = [];

  beforeAll(async () => {
    const appPort = await freePort();
    t = await createTestApp({
      listen: appPort,
      env: { PUBLIC_URL: `http://127.0.0.1:${appPort}` },
    });
    a = await createAccount(t.app);
    forwarder = await startForwarder(appPort);
    const port = await freePort();
    prismUrl = `http://127.0.0.1:${port}`;
    const upstream = `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}`;
    prism = spawn(
      process.execPath,
      [PRISM, 'proxy', join(ROOT, 'openapi.json'), upstream, '--port', String(port)]
        .concat(['--host', '127.0.0.1', '--errors', 'false', '--validate-request', 'false'])
        .concat(['--verboseLevel', 'error']),
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    prism.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    for (let i = 0; ; i += 1) {
      const up = await fetch(`${prismUrl}/health/live/`).then(
        () => true,
        () => false,
      );
      if (up) break;
      if (prism.exitCode !== null || i > 600) throw new Error(`Prism did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 180_000);

  afterAll(async () => {
    if (prism && prism.exitCode === null) {
      prism.kill();
      await new Promise((r) => prism.once('exit', r));
    }
    await new Promise((r) => forwarder?.close(r));
    await t?.close();
  });

  /** Sends through Prism; records the operation, the status and Prism's response violations. */
  async function call(
    method: string,
    path: string,
    options: {
      auth?: boolean;
      body?: unknown;
      text?: string;
      plant?: boolean;
      accept?: string;
    } = {},
  ): Promise<{ status: number; body: any; headers: Headers }> {
    const headers: Record<string, string> = {};
    if (options.accept) headers.Accept = options.accept;
    if (options.auth !== false) headers.Authorization = a.auth.Authorization;
    if (options.plant) headers['x-plant'] = '1';
    let payload: string | undefined;
    if (options.text !== undefined) {
      headers['Content-Type'] = 'text/plain';
      payload = options.text;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(options.body);
    }
    const res = await fetch(`${prismUrl}${path}`, { method, headers, body: payload });
    const raw = Buffer.from(await res.arrayBuffer());
    const found = res.headers.get('sl-violations');
    const list: Violation[] = found ? (JSON.parse(found) as Violation[]) : [];
    const mine = list.filter((v) => v.location[0] === 'response');
    if (!options.plant)
      for (const v of mine)
        violations.push(`${method} ${path} → ${res.status}: ${v.location.join('.')} ${v.message}`);
    const template = checker.template(path);
    if (template && !options.plant) {
      const key = `${method.toLowerCase()} ${template}`;
      if (!touched.has(key)) touched.set(key, new Set());
      touched.get(key)!.add(res.status);
    }
    const type = res.headers.get('content-type') ?? '';
    const body = /json/.test(type) && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : raw;
    return { status: res.status, body, headers: res.headers };
  }

  const until = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 300; i += 1) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  it('reports a planted mismatch in a nested body: every schema is compiled', async () => {
    const created = await call('POST', '/api/auth/v1/eligibility/', {
      body: { insurer_code: DEMO, patient: patient() },
    });
    const uid = created.body.request_uid as string;
    await until('the search', async () => {
      const res = await call('GET', `/api/auth/v2/eligibility/${uid}/`);
      return res.body.status === 'complete' ? true : undefined;
    });
    const res = await fetch(`${prismUrl}/api/auth/v2/eligibility/${uid}/`, {
      headers: { ...a.auth, 'x-plant': '1' },
    });
    const planted = JSON.parse(res.headers.get('sl-violations') ?? '[]') as Violation[];
    const at = planted.map((v) => v.location.join('.'));
    // A person's integer id as a string, three levels down; a nullable enum with a value it lacks.
    expect(at).toEqual(
      expect.arrayContaining(['response.body.results.0.persons.0.id', 'response.body.error_code']),
    );
  });

  it('flags no answer over traffic that touches every operation, error answers included', async () => {
    const patientBody = { first_name: 'Maria', last_name: 'Prism', dob: '1984-06-15' };
    const missing = '00000000-0000-4000-8000-000000000000';

    // Probes, locations, insurers, audit.
    await call('GET', '/health/live/', { auth: false });
    await call('GET', '/health/ready/', { auth: false });
    const location = await call('POST', '/api/auth/v1/locations/', { body: { title: 'Prism' } });
    await call('POST', '/api/auth/v1/locations/', { body: { title: '' } });
    await call('PATCH', `/api/auth/v1/locations/${location.body.code}/`, { body: { title: 'P2' } });
    await call('PATCH', '/api/auth/v1/locations/LOC00000000/', { body: { title: 'P2' } });
    await call('GET', '/api/auth/v1/locations/');
    await call('GET', '/api/auth/v1/insurers/');
    await call('GET', '/api/auth/v1/insurers/health/');

    // Eligibility: a sandbox search, its results, details, snapshot.
    const search = await call('POST', '/api/auth/v1/eligibility/', {
      body: { insurer_code: DEMO, patient: patient() },
    });
    await call('POST', '/api/auth/v1/eligibility/', { body: { patient: { dob: 'x' } } });
    const uid = search.body.request_uid as string;
    const result = await until('the search', async () => {
      const res = await call('GET', `/api/auth/v2/eligibility/${uid}/`);
      return res.body.status === 'complete' ? res.body : undefined;
    });
    await call('GET', `/api/auth/v1/eligibility/${uid}/`);
    await call('GET', '/api/auth/v1/eligibility/nope/');
    await call('GET', '/api/auth/v2/eligibility/nope/');
    const resultId = result.results[0].id as number;
    const personId = result.results[0].persons[0].id as number;
    await call('POST', `/api/auth/v1/eligibility/${uid}/details/`, {
      body: { request_uid: uid, result_id: resultId, person_id: personId },
    });
    await call('POST', `/api/auth/v1/eligibility/${uid}/details/`, { body: { result_id: 'x' } });
    await call(
      'GET',
      `/api/auth/v2/eligibility/${uid}/pdf/?result_id=${resultId}&person_id=${personId}`,
    );
    await call('GET', `/api/auth/v2/eligibility/${uid}/pdf/?result_id=x`);

    // Batches.
    const batch = await call('POST', '/api/auth/v1/eligibility/batches/', {
      body: { items: [{ insurer_code: DEMO, patient: patient({ first_name: 'Ana' }) }] },
    });
    await call('POST', '/api/auth/v1/eligibility/batches/', { body: { items: [] } });
    await call('GET', `/api/auth/v1/eligibility/batches/${batch.body.batch_uid}/`);
    await call('GET', `/api/auth/v1/eligibility/batches/${batch.body.batch_uid}/items/?limit=1`);
    await call('GET', '/api/auth/v1/eligibility/batches/nope/');
    await call('GET', '/api/auth/v1/eligibility/batches/nope/items/');

    // Webhooks: a receiver of our own (the forwarder answers 404 to deliveries, so they fail).
    const hook = await call('POST', '/api/auth/v1/webhooks/', {
      body: {
        url: `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}/hook`,
        events: ['eligibility', 'verification'],
        secret: 'prism-secret-123',
      },
    });
    await call('POST', '/api/auth/v1/webhooks/', { body: { url: 'ftp://x' } });
    const hookId = hook.body.id as string;
    await call('GET', '/api/auth/v1/webhooks/');
    await call('GET', `/api/auth/v1/webhooks/${hookId}/`);
    await call('GET', `/api/auth/v1/webhooks/${missing}/`);
    await call('PATCH', `/api/auth/v1/webhooks/${hookId}/`, { body: { description: 'Prism' } });
    await call('PATCH', `/api/auth/v1/webhooks/${hookId}/`, { body: { events: ['nope'] } });
    const next = await call('POST', '/api/auth/v1/eligibility/', {
      body: { insurer_code: DEMO, patient: patient({ first_name: 'Hook' }) },
    });
    const delivery = await until('a delivery', async () => {
      const res = await call('GET', `/api/auth/v1/webhooks/${hookId}/deliveries/?limit=5`);
      return res.body.result.find((d: Json) => d.request_uid === next.body.request_uid);
    });
    await call('GET', `/api/auth/v1/webhooks/${missing}/deliveries/`);
    await call('POST', `/api/auth/v1/webhooks/${hookId}/deliveries/${delivery.id}/redeliver/`);
    await call('POST', `/api/auth/v1/webhooks/${hookId}/deliveries/${missing}/redeliver/`);

    // Assisted verification: a VSP search opens a task.
    const vsp = await call('POST', '/api/auth/v1/eligibility/', {
      body: { insurer_code: VSP, patient: patient({ first_name: 'Vera' }), max_age_hours: 0 },
    });
    const taskId = await until('a task', async () => {
      const res = await call('GET', `/api/auth/v2/eligibility/${vsp.body.request_uid}/`);
      return res.body.verification?.task_id as string | undefined;
    });
    await call('GET', '/api/auth/v1/verification-tasks/?state=queued');
    await call('GET', '/api/auth/v1/verification-tasks/?state=nope');
    await call('GET', `/api/auth/v1/verification-tasks/${taskId}/`);
    await call('GET', `/api/auth/v1/verification-tasks/${missing}/`);
    await call('POST', `/api/auth/v1/verification-tasks/${taskId}/claim/`);
    await call('GET', `/api/auth/v1/verification-tasks/${taskId}/credentials/`);
    await call('POST', `/api/auth/v1/verification-tasks/${taskId}/needs-info/`, {
      body: { detail: 'Which member id?' },
    });
    await call('POST', `/api/auth/v1/verification-tasks/${taskId}/info/`, {
      body: { detail: 'VSP104882211' },
    });
    await call('POST', `/api/auth/v1/verification-tasks/${taskId}/complete/`, {
      body: { plans: 'x' },
    });
    await call('POST', `/api/auth/v1/verification-tasks/${taskId}/complete/`, {
      body: {
        plans: [{ ...result.results[0], persons: [{ plan: result.results[0].persons[0].plan }] }],
        evidence: { source: 'phone', checked_at: '2026-11-24T15:04:00Z' },
      },
    });
    await call('POST', `/api/auth/v1/verification-tasks/${taskId}/fail/`, {
      body: { reason: 'portal_down' },
    });
    await call('POST', `/api/auth/v1/verification-tasks/${missing}/fail/`, {
      body: { reason: 'nope' },
    });
    const designs = await call('GET', '/api/auth/v1/plan-designs/?limit=5');
    await call('GET', `/api/auth/v1/plan-designs/${designs.body.result[0]?.id ?? missing}/`);
    await call('GET', `/api/auth/v1/plan-designs/${missing}/`);

    // Estimates and next eligible dates (the document's own examples).
    const example = (path: string) => {
      const content = DOCUMENT.paths[path].post.requestBody.content['application/json'];
      return content.example ?? Object.values(content.examples as Json)[0].value;
    };
    await call('POST', '/api/auth/v1/estimates/', { body: example('/api/auth/v1/estimates/') });
    await call('POST', '/api/auth/v1/estimates/', { body: { services: 'x' } });
    await call('POST', '/api/auth/v1/benefits/next-eligible/', {
      body: example('/api/auth/v1/benefits/next-eligible/'),
    });
    await call('POST', '/api/auth/v1/benefits/next-eligible/', { body: { plan: 1 } });

    // Quotes (docs/api.md, The counter): the document's example, a refused order, read and print.
    const quote = await call('POST', '/api/auth/v1/quotes/', {
      body: example('/api/auth/v1/quotes/'),
    });
    await call('POST', '/api/auth/v1/quotes/', { body: { order: 'x' } });
    await call('GET', `/api/auth/v1/quotes/${quote.body.id ?? missing}/`);
    await call('GET', `/api/auth/v1/quotes/${missing}/`);
    await call('GET', `/api/auth/v1/quotes/${quote.body.id ?? missing}/pdf/`);

    // The FHIR door (docs/api.md, FHIR R4): a sandbox Bundle, a refused one, the reads.
    const submitted = await call('POST', '/fhir/R4/CoverageEligibilityRequest/$submit', {
      body: submitBundle([DEMO]),
    });
    await call('POST', '/fhir/R4/CoverageEligibilityRequest/$submit', {
      body: { resourceType: 'Patient' },
    });
    const fhirId = (submitted.body.id as string | undefined) ?? '1-1';
    await call('GET', '/fhir/R4/metadata');
    await call('GET', '/fhir/R4/StructureDefinition/wait-for');
    await call('GET', '/fhir/R4/StructureDefinition/nope');
    await call('GET', `/fhir/R4/CoverageEligibilityResponse/${fhirId}`);
    await call('GET', '/fhir/R4/CoverageEligibilityResponse/999999999-1');
    await call(
      'GET',
      `/fhir/R4/CoverageEligibilityResponse?patient=Patient/${fhirId.split('-')[0]}`,
    );
    await call('GET', `/fhir/R4/Patient/${fhirId.split('-')[0]}`);
    await call('GET', '/fhir/R4/Patient/999999999');
    await call('GET', `/fhir/R4/Coverage/${fhirId}`);
    await call('GET', '/fhir/R4/Coverage/999999999-1');

    // The MCP door (docs/api.md, MCP): a message, a body that is none.
    await call('POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      accept: 'application/json, text/event-stream',
    });
    await call('POST', '/mcp', { body: [], accept: 'application/json, text/event-stream' });

    // Patients.
    const created = await call('POST', '/api/auth/v1/patients/', { body: patientBody });
    await call('POST', '/api/auth/v1/patients/', { body: { first_name: '' } });
    const code = created.body.code as string;
    await call('GET', '/api/auth/v1/patients/?limit=1');
    await call('GET', '/api/auth/v1/patients/?cursor=nope');
    await call('GET', `/api/auth/v1/patients/${code}/`);
    await call('GET', '/api/auth/v1/patients/PAT00000000/');
    await call('POST', `/api/auth/v1/patients/${code}/eligibility/`, {
      body: { request_uid: uid },
    });
    await call('POST', `/api/auth/v1/patients/${code}/eligibility/`, { body: {} });
    await call('GET', `/api/auth/v1/patients/${code}/eligibility/`);
    await call('POST', `/api/auth/v1/patients/${code}/benefit-history/`, {
      body: { insurer_code: DEMO, benefit_code: 'materials.frames', date: '2026-01-15' },
    });
    await call('POST', `/api/auth/v1/patients/${code}/benefit-history/`, { body: { x: 1 } });
    await call('GET', `/api/auth/v1/patients/${code}/benefit-history/`);
    await call('GET', '/api/auth/v1/patients/PAT00000000/benefit-history/');

    // Appointments.
    const putBody = {
      // A visit to come (a check runs only for one).
      starts_at: `${new Date().getUTCFullYear() + 1}-11-24T15:00:00-06:00`,
      ends_at: `${new Date().getUTCFullYear() + 1}-11-24T15:30:00-06:00`,
      status: 'booked',
      services: ['exam.routine', 'materials.frames'],
      patient: { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' },
      insurer_code: DEMO,
      source_updated_at: '2026-11-20T09:00:00Z',
    };
    await call('POST', '/api/auth/v1/appointments/sync/', {
      body: {
        from: `${new Date().getUTCFullYear() + 1}-11-24T00:00:00Z`,
        to: `${new Date().getUTCFullYear() + 1}-12-24T00:00:00Z`,
        appointments: [{ external_id: 'prism-sync', ...putBody }],
      },
    });
    await call('POST', '/api/auth/v1/appointments/sync/', { body: { appointments: 'x' } });
    await call('GET', '/api/auth/v1/appointments/');
    await call('GET', '/api/auth/v1/appointments/?from=x');
    await call('PUT', '/api/auth/v1/appointments/prism-1/', { body: putBody });
    await call('PUT', '/api/auth/v1/appointments/prism-1/', { body: putBody });
    await call('PUT', '/api/auth/v1/appointments/prism-2/', { body: { start: 'x' } });
    await call('GET', '/api/auth/v1/appointments/prism-1/');
    await call('GET', '/api/auth/v1/appointments/nope/');
    await call('POST', '/api/auth/v1/appointments/prism-1/check/');
    await call('POST', '/api/auth/v1/appointments/nope/check/');
    await call('DELETE', '/api/auth/v1/appointments/prism-1/');
    await call('DELETE', '/api/auth/v1/appointments/nope/');
    const policy = await call('GET', '/api/auth/v1/appointment-policy/');
    await call('PUT', '/api/auth/v1/appointment-policy/', { body: policy.body });
    await call('PUT', '/api/auth/v1/appointment-policy/', { body: { days_before: 'x' } });

    // Claims, claim reports, remittances.
    // The document's example, at this account's default location.
    const claim = await call('POST', '/api/auth/v1/claims/', {
      body: { ...example('/api/auth/v1/claims/'), location_code: undefined },
    });
    await call('POST', '/api/auth/v1/claims/', { body: { services: [] } });
    const claimCode = claim.body.code as string;
    await call('GET', '/api/auth/v1/claims/?limit=1');
    await call('GET', `/api/auth/v1/claims/${claimCode}/`);
    await call('GET', '/api/auth/v1/claims/CLM00000000/');
    await call('GET', `/api/auth/v1/claims/${claimCode}/form/`);
    await call('GET', '/api/auth/v1/claims/CLM00000000/form/');
    await call('GET', `/api/auth/v1/claims/${claimCode}/x12/`);
    await call('POST', `/api/auth/v1/claims/${claimCode}/mailed/`);
    await call('POST', `/api/auth/v1/claims/${claimCode}/notify-customer/`, {
      body: { email: 'patient@example.com' },
    });
    await call('POST', '/api/auth/v1/claims/CLM00000000/notify-customer/', {
      body: { email: 'x' },
    });
    await call('POST', '/api/auth/v1/claim-reports/', { text: report('835-two-sets.x12') });
    await call('POST', '/api/auth/v1/claim-reports/', { body: { x12: 'hello, this is no X12' } });
    const remittances = await call('GET', '/api/auth/v1/remittances/');
    const remittanceId = remittances.body.result[0].id as string;
    await call('GET', `/api/auth/v1/remittances/${remittanceId}/`);
    await call('GET', `/api/auth/v1/remittances/${remittanceId}/x12/`);
    await call('GET', `/api/auth/v1/remittances/${missing}/`);
    await call('GET', `/api/auth/v1/remittances/${missing}/x12/`);

    // The rest, then the webhook's removal.
    await call('POST', '/api/auth/v1/iframe-session/', { body: {} });
    await call('POST', '/api/auth/v1/iframe-session/', { body: { entry_point: 'add_patient' } });
    await call('GET', '/api/auth/v1/audit-events/?limit=5');
    await call('GET', '/api/auth/v1/audit-events/?limit=x');
    await call('DELETE', `/api/auth/v1/webhooks/${hookId}/`);
    await call('DELETE', `/api/auth/v1/webhooks/${hookId}/`);

    // Every API operation once more without a key: the 401 every one documents.
    for (const [path, item] of Object.entries(DOCUMENT.paths as Record<string, Json>)) {
      if (!path.startsWith('/api/')) continue;
      for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
        const concrete = path.replace(/\{[^}]+\}/g, 'x1');
        await call(method.toUpperCase(), concrete, { auth: false });
      }
    }

    expect(violations).toEqual([]);
    const operations = Object.entries(DOCUMENT.paths as Record<string, Json>).flatMap(
      ([path, item]) =>
        Object.keys(item)
          .filter((m) => METHODS.includes(m))
          .map((m) => `${m} ${path}`),
    );
    expect(operations.filter((op) => !touched.has(op))).toEqual([]);
    // Beside the 401s, each operation answered something else too: a success or another error.
    const onlyUnauthorized = [...touched.entries()]
      .filter(([op, statuses]) => op.includes('/api/') && [...statuses].every((s) => s === 401))
      .map(([op]) => op);
    expect(onlyUnauthorized).toEqual([]);
    const successes = [...touched.values()].filter((s) => [...s].some((x) => x < 300)).length;
    expect(successes).toBeGreaterThan(operations.length * 0.8);
  }, 300_000);
});

/**
 * Between Prism and the service: passes every request on, and for a request with `x-plant`
 * spoils the JSON answer in two places (a nested integer, a nullable enum). Its own paths (a
 * webhook delivery to `/hook`) are answered 404.
 */
async function startForwarder(appPort: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!/^\/(api\/|health\/|fhir\/|mcp$)/.test(req.url!)) {
        res.statusCode = 404;
        res.end();
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && !['host', 'connection', 'x-plant'].includes(name))
          headers[name] = value;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      void fetch(`http://127.0.0.1:${appPort}${req.url}`, { method: req.method, headers, body })
        .then(async (answer) => {
          let raw = Buffer.from(await answer.arrayBuffer());
          if (req.headers['x-plant']) {
            const json = JSON.parse(raw.toString('utf8')) as Json;
            json.results[0].persons[0].id = String(json.results[0].persons[0].id);
            json.error_code = 'not_a_code';
            raw = Buffer.from(JSON.stringify(json));
          }
          answer.headers.forEach((value, name) => {
            if (
              !['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(
                name,
              )
            )
              res.setHeader(name, value);
          });
          res.statusCode = answer.status;
          res.setHeader('content-length', String(raw.length));
          res.end(raw);
        })
        .catch(() => {
          res.statusCode = 502;
          res.end();
        });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}
