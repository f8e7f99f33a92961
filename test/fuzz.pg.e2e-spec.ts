import fc from 'fast-check';
import type { AddressInfo } from 'node:net';
import { createTestApp, freePort, TestApp } from './support/app';
import { patient as searchPatient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import {
  BODY_MAX_BYTES,
  BODY_MAX_VALUES,
  confused,
  confusion,
  countValues,
  describeFailure,
  encodeSegment,
  FuzzClient,
  injectionStrings,
  junk,
  mutate,
  Mutation,
  mutation,
  oddString,
  WIDE_MAX_BYTES,
} from './support/fuzz';
import { TestReceiver } from './support/receiver';

/**
 * Property-based tests: generated bad input against every endpoint. Whatever comes in, the answer
 * is never a 5xx, and every 4xx is `{"errors": {...}}` or `{"detail": "..."}` (docs/api.md, Errors).
 * At least 10,000 cases per run (FUZZ_SCALE multiplies the counts). The run prints its seed;
 * `FUZZ_SEED=<seed> npx jest test/fuzz.pg.e2e-spec.ts` generates the same cases again (each property
 * draws from the same seeds, so `-t '<property>'` replays one alone).
 */
const SCALE = Number(process.env.FUZZ_SCALE ?? '1');
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
const MIN_CASES = runs(10_000);
/** Each property runs as this many concurrent streams (own seeds): the service waits on I/O. */
const STREAMS = 6;
// Properties are bound by throughput: where cores are shared (CI, suites in parallel) one can take
// minutes. They fail on what the service answers, not on time.
jest.setTimeout(300_000);
const BASE_SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000_000);
const replay =
  `FUZZ_SEED=${BASE_SEED}` +
  (SCALE === 1 ? '' : ` FUZZ_SCALE=${SCALE}`) +
  ' npx jest test/fuzz.pg.e2e-spec.ts';

/**
 * fc.assert over `numRuns` cases, split into concurrent streams; a failure names its seed, the
 * shrunk input and what the service answered (the thrown violation says both). Every stream runs
 * to its end before the test fails, so a failure is never hidden behind another stream's
 * "connection refused" once the app has closed.
 */
async function assertConcurrently<T extends unknown[]>(
  property: fc.IAsyncProperty<T>,
  numRuns: number,
): Promise<void> {
  const outcomes = await Promise.allSettled(
    Array.from({ length: STREAMS }, (_, i) =>
      fc.assert(property, {
        numRuns: Math.ceil(numRuns / STREAMS),
        seed: BASE_SEED + i,
        reporter: (details) => {
          if (details.failed) throw new Error(failureReport(details));
        },
      }),
    ),
  );
  const failures = outcomes.flatMap((o) =>
    o.status === 'rejected' ? [describeFailure(o.reason)] : [],
  );
  if (failures.length > 0) throw new Error(failures.join('\n\n'));
}

/** A failed run in a few readable kilobytes, however large its input (counterexamples can hold megabytes). */
function failureReport<T>(details: fc.RunDetails<T>): string {
  let input: string;
  try {
    input = fc.stringify(details.counterexample);
  } catch (e) {
    input = `(not printable: ${describeFailure(e)})`;
  }
  const answer = describeFailure(details.errorInstance);
  return (
    `replay: ${replay}; stream seed ${details.seed}, path ${details.counterexamplePath}, after ${details.numRuns} runs:\n` +
    `input: ${input.slice(0, 2_000)}${input.length > 2_000 ? `… (${input.length} characters)` : ''}\n` +
    `answer: ${answer}`
  );
}

/** A property's verdict: the violation itself is thrown, so a failure report shows the body and the answer. */
function passes(problem: string | null): true {
  if (problem !== null) throw new Error(problem);
  return true;
}

interface Ctx {
  locationCode: string;
  patientCode: string;
  claimCode: string;
  uid: string;
  resultId: number;
  personId: number;
  webhookId: string;
  deliveryId: string;
  hookUrl: string;
}

interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `{name}` marks a path parameter. */
  path: string;
  body?: (c: Ctx) => unknown;
  /** Query parameters the endpoint reads. */
  query?: string[];
}

const person = {
  first_name: 'Maria',
  last_name: 'Gonzalez',
  dob: '1986-04-12',
  type: 'self',
  sex: 'female',
  member_id: 'VSP104882211',
  ssn_last_four: '4321',
  email: 'maria@example.com',
  phone: '512-555-0142',
  address: { line1: '1 Main St', line2: null, city: 'Austin', zipcode: '78701', state: 'TX' },
};

/** Every endpoint of the API, with a valid body to mutate where it takes one. */
const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/api/auth/v1/locations/' },
  {
    method: 'POST',
    path: '/api/auth/v1/iframe-session/',
    body: () => ({ entry_point: 'add_patient' }),
  },
  { method: 'POST', path: '/api/auth/v1/locations/', body: () => ({ title: 'Downtown' }) },
  {
    method: 'POST',
    path: '/api/auth/v1/eligibility/',
    body: (c) => ({
      insurer_code: 'insurer:demo:vision',
      location_code: c.locationCode,
      patient: { ...searchPatient(), ssn_last_four: '1234', member_id: 'M1' },
    }),
  },
  {
    method: 'POST',
    path: '/api/auth/v1/eligibility/',
    body: () => ({
      insurer_code_list: ['insurer:demo:vision', 'insurer:vision:vsp'],
      patient: searchPatient(),
    }),
  },
  { method: 'GET', path: '/api/auth/v1/eligibility/{uid}/' },
  { method: 'GET', path: '/api/auth/v2/eligibility/{uid}/' },
  // docs/api.md, The eligibility snapshot: junk ids are field errors, never a 500.
  { method: 'GET', path: '/api/auth/v2/eligibility/{uid}/pdf/', query: ['result_id', 'person_id'] },
  {
    method: 'POST',
    path: '/api/auth/v1/eligibility/{uid}/details/',
    body: (c) => ({ request_uid: c.uid, result_id: c.resultId, person_id: c.personId }),
  },
  {
    method: 'POST',
    path: '/api/auth/v1/patients/',
    body: (c) => ({
      ...person,
      middle_name: 'Ana',
      account_number: 'CHART-1',
      location_code: c.locationCode,
      force_similar: true,
      address: { ...person.address, recipient: null },
    }),
  },
  {
    method: 'GET',
    path: '/api/auth/v1/patients/',
    query: ['limit', 'cursor', 'search', 'dob', 'location_code', 'account_number'],
  },
  { method: 'GET', path: '/api/auth/v1/patients/{code}/' },
  {
    method: 'POST',
    path: '/api/auth/v1/patients/{code}/eligibility/',
    body: (c) => ({ request_uid: c.uid }),
  },
  { method: 'GET', path: '/api/auth/v1/patients/{code}/eligibility/' },
  // docs/api.md, Patients (benefit history).
  {
    method: 'POST',
    path: '/api/auth/v1/patients/{code}/benefit-history/',
    body: () => ({
      insurer_code: 'insurer:demo:vision',
      benefit_code: 'materials.frames',
      date: '2025-08-31',
      note: 'Bought elsewhere.',
    }),
  },
  { method: 'GET', path: '/api/auth/v1/patients/{code}/benefit-history/' },
  {
    method: 'POST',
    path: '/api/auth/v1/claims/',
    body: (c) => ({
      patient: person,
      primary_member: { ...person, insurer_code: 'insurer:vision:vsp' },
      services: [
        {
          codes: ['92014'],
          date: '2026-01-14',
          quantity: 1,
          cost: '145.00',
          diagnosis_codes: ['H52.13'],
        },
        { codes: ['V2100'], date: '2026-01-14', quantity: '2', cost: 90.5 },
      ],
      paid_amount: '235.50',
      accept_assignment: false,
      metadata: { account_number: 'CHART-1', tags: ['oon'] },
      location_code: c.locationCode,
    }),
  },
  { method: 'GET', path: '/api/auth/v1/claims/', query: ['limit', 'cursor'] },
  { method: 'GET', path: '/api/auth/v1/claims/{code}/' },
  {
    method: 'POST',
    path: '/api/auth/v1/claims/{code}/notify-customer/',
    body: () => ({ email: 'patient@example.com' }),
  },
  {
    method: 'POST',
    path: '/api/auth/v1/webhooks/',
    body: (c) => ({
      url: c.hookUrl,
      secret: 'fuzz-secret-123',
      is_active: false,
      description: 'fuzz',
      version: 'v1',
    }),
  },
  {
    method: 'POST',
    path: '/api/auth/v1/webhooks/',
    body: (c) => ({ url: c.hookUrl, generate_secret: true, is_active: false }),
  },
  { method: 'GET', path: '/api/auth/v1/webhooks/' },
  { method: 'GET', path: '/api/auth/v1/webhooks/{id}/' },
  {
    method: 'PATCH',
    path: '/api/auth/v1/webhooks/{id}/',
    body: (c) => ({ url: c.hookUrl, description: 'renamed', version: 'v2', is_active: false }),
  },
  {
    method: 'PATCH',
    path: '/api/auth/v1/webhooks/{id}/',
    body: () => ({ rotate_secret: true, secret: null }),
  },
  { method: 'DELETE', path: '/api/auth/v1/webhooks/{id}/' },
  { method: 'GET', path: '/api/auth/v1/webhooks/{id}/deliveries/', query: ['limit', 'cursor'] },
  { method: 'POST', path: '/api/auth/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver/' },
  // docs/api.md, Next eligible dates.
  {
    method: 'POST',
    path: '/api/auth/v1/benefits/next-eligible/',
    body: () => ({
      as_of: '2026-01-15',
      rules: [
        {
          benefit_code: 'materials.frames',
          frequency: {
            count: 1,
            period: { kind: 'rolling', months: 24 },
            shared_with: ['materials.contact_lenses'],
          },
          payer_next_eligible_date: '2027-01-01',
        },
        { benefit_code: 'exam.routine', frequency: { count: 2, period: { kind: 'plan_year' } } },
      ],
      history: [
        { benefit_code: 'materials.contact_lenses', date: '2025-03-10', source: 'claim' },
        { benefit_code: 'exam.routine', date: '2025-06-01' },
      ],
      plan: { begin_date: '2025-01-01', end_date: '2026-12-31' },
    }),
  },
  // docs/api.md, Appointments.
  { method: 'PUT', path: '/api/auth/v1/appointments/{external_id}/', body: (c) => appointment(c) },
  {
    method: 'PUT',
    path: '/api/auth/v1/appointments/{external_id}/',
    body: (c) => ({
      ...appointment(c),
      patient: null,
      subscriber: null,
      patient_code: c.patientCode,
      insurer_code_list: null,
      insurer_code: 'insurer:vision:vsp',
    }),
  },
  { method: 'GET', path: '/api/auth/v1/appointments/{external_id}/' },
  // docs/api.md, The counter: every order field is a field error when wrong, never a 500.
  {
    method: 'POST',
    path: '/api/auth/v1/quotes/',
    body: (c) => ({
      request_uid: c.uid,
      person_id: c.personId,
      date_of_service: '2026-11-21',
      order: {
        frame: { retail: '189.00' },
        lenses: { type: 'progressive_premium', tier: 2, retail: '320.00' },
        lens_options: [{ option: 'polycarbonate', retail: '60.00' }],
        contact_lenses: { kind: 'elective', retail: '180.00' },
        fitting: { kind: 'premium', retail: '90.00' },
        in_lieu_keep: 'frame',
      },
    }),
  },
  {
    method: 'POST',
    path: '/api/auth/v1/quotes/',
    body: () => ({
      plan: {
        insurer_state: 'inn',
        items: [{ benefit_code: 'materials.frames', refresh_date: '2027-01-01' }],
        materials: {
          network: 'inn',
          frame: { allowance: '150.00', discount_percent: '20' },
          lenses: { progressive_premium: { tiers: { '2': { copayment: '110.00' } } } },
          lens_options: { polycarbonate: { copayment: '15.00', max_age: 18 } },
          in_lieu_of: [['contact_lenses', 'frame']],
        },
      },
      patient_age: 9,
      order: {
        frame: { retail: '189.00' },
        lenses: { type: 'progressive_premium', tier: '2', retail: 320 },
        lens_options: [{ option: 'polycarbonate', retail: '60.00' }],
      },
    }),
  },
  { method: 'GET', path: '/api/auth/v1/quotes/{id}/' },
  { method: 'GET', path: '/api/auth/v1/quotes/{id}/pdf/' },
  { method: 'DELETE', path: '/api/auth/v1/appointments/{external_id}/' },
  {
    method: 'GET',
    path: '/api/auth/v1/appointments/',
    query: ['from', 'to', 'location_code', 'coverage_state', 'limit', 'cursor'],
  },
  {
    method: 'POST',
    path: '/api/auth/v1/appointments/sync/',
    body: (c) => ({
      from: '2031-01-01T00:00:00Z',
      to: '2031-01-08T00:00:00-06:00',
      location_code: c.locationCode,
      appointments: [
        { external_id: 'fuzz-sync-1', ...appointment(c) },
        { external_id: 'fuzz-sync-2', ...appointment(c), starts_at: '2031-01-02T09:00:00Z' },
      ],
    }),
  },
  { method: 'GET', path: '/api/auth/v1/appointment-policy/' },
  {
    method: 'PUT',
    path: '/api/auth/v1/appointment-policy/',
    body: () => ({
      on_booking: true,
      days_before: [3, 0],
      hours_before: [24],
      freshness_hours: 48,
      statuses: ['booked', 'arrived'],
    }),
  },
];

/** A full appointment body (docs/api.md, Appointments). */
function appointment(c: Ctx): Record<string, unknown> {
  return {
    starts_at: '2026-11-24T15:00:00-06:00',
    ends_at: '2026-11-24T15:30:00-06:00',
    status: 'booked',
    location_code: c.locationCode,
    services: ['exam.routine', 'materials.frames'],
    patient: { ...searchPatient(), ssn_last_four: '4321', member_id: 'VSP104882211' },
    subscriber: { first_name: 'Carlos', last_name: 'Garcia', dob: '1982-02-03', member_id: 'VSP1' },
    insurer_code_list: ['insurer:vision:vsp', 'insurer:vision:eye_med'],
    source_updated_at: '2026-11-20T09:12:44.123-06:00',
  };
}

const bodyEndpoints = ENDPOINTS.filter((e) => e.body);
const paramEndpoints = ENDPOINTS.filter((e) => e.path.includes('{'));
const queryEndpoints = ENDPOINTS.filter((e) => e.query);

function fill(path: string, c: Ctx, override?: { name: string; value: string }): string {
  const values: Record<string, string> = {
    uid: c.uid,
    code: path.includes('/claims/') ? c.claimCode : c.patientCode,
    id: c.webhookId,
    delivery_id: c.deliveryId,
    external_id: 'fuzz-visit',
  };
  return path.replace(/\{(\w+)\}/g, (_, name: string) =>
    override?.name === name ? override.value : encodeURIComponent(values[name]),
  );
}

/** Webhook targets stay on this machine: any other URL a mutation produces is replaced. */
function keepTargetsLocal(endpoint: Endpoint, body: unknown, c: Ctx): unknown {
  if (!endpoint.path.includes('/webhooks/') || !body || typeof body !== 'object') return body;
  const b = body as Record<string, unknown>;
  if (typeof b.url === 'string') {
    try {
      const parsed = new URL(b.url);
      if (parsed.hostname !== '127.0.0.1') b.url = c.hookUrl;
    } catch {
      // not a URL: refused by validation, nothing is contacted
    }
  }
  return body;
}

/** A path segment: encoded junk, or raw odd text that Express must decode itself. */
const pathJunk = fc.oneof(
  oddString.map(encodeSegment),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '..', '.', '%2e%2e', '%2F', ';', '%ff%fe', '~'),
  fc.constantFrom(...injectionStrings).map(encodeSegment),
  fc.constantFrom(2_000, 20_000).map((n) => 'A'.repeat(n)),
  fc.constantFrom(
    '0',
    '-1',
    '99999999999999999999',
    '1e5',
    'null',
    '00000000-0000-0000-0000-000000000000',
  ),
);

const queryValue = fc.oneof(
  oddString,
  fc.constantFrom('0', '-1', '201', '1e3', '1.5', '', ' ', 'abc', '99999999999999999999'),
  fc.constantFrom('eyJ4IjoxfQ', 'MjAyNi0xMS0yMXww', '!!!', 'a'.repeat(5000)),
);

describe('property-based: bad input never breaks the service', () => {
  let t: TestApp;
  let a: TestAccount;
  let ctx: Ctx;
  let client: FuzzClient;
  const receiver = new TestReceiver();
  const started = Date.now();

  beforeAll(async () => {
    // First, so that a run that fails or hangs can be replayed.
    process.stdout.write(`fuzz: seed ${BASE_SEED} (replay: ${replay})\n`);
    await receiver.start();
    t = await createTestApp({
      listen: true,
      env: { WEBHOOK_RETRY_SCHEDULE: '3600', SEARCH_RETRY_BASE_MS: '50' },
    });
    a = await createAccount(t.app, { iframeEnabled: true });
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    client = new FuzzClient(`http://127.0.0.1:${port}`);

    const hookUrl = receiver.url('/fuzz');
    const hook = await client.send('POST', '/api/auth/v1/webhooks/', {
      headers: a.auth,
      body: { url: hookUrl, secret: 'context-hook-secret' },
    });
    const webhookId = JSON.parse(hook.text).id as string;
    const uid = await startSearch(t.app, a.auth, { patient: searchPatient() });
    const result = await waitForResult(t.app, a.auth, uid);
    await receiver.waitFor('/fuzz', 1);
    const deliveries = await client.send('GET', `/api/auth/v1/webhooks/${webhookId}/deliveries/`, {
      headers: a.auth,
    });
    // Inactive from here on: accepted fuzz searches need not each be delivered.
    await client.send('PATCH', `/api/auth/v1/webhooks/${webhookId}/`, {
      headers: a.auth,
      body: { is_active: false },
    });
    const patient = await client.send('POST', '/api/auth/v1/patients/', {
      headers: a.auth,
      body: { first_name: 'Fuzz', last_name: 'Target', dob: '1990-01-01' },
    });
    const claim = await client.send('POST', '/api/auth/v1/claims/', {
      headers: a.auth,
      body: {
        patient: person,
        primary_member: { ...person, insurer_code: 'insurer:vision:cigna_vision' },
        services: [{ codes: ['92014'], date: '2026-01-14', quantity: 1, cost: '10' }],
        paid_amount: '10',
      },
    });
    expect([patient.status, claim.status]).toEqual([200, 201]);
    ctx = {
      locationCode: a.locationCode,
      patientCode: JSON.parse(patient.text).code,
      claimCode: JSON.parse(claim.text).code,
      uid,
      resultId: result.results[0].id,
      personId: result.results[0].persons[0].id,
      webhookId,
      deliveryId: JSON.parse(deliveries.text).result[0].id,
      hookUrl,
    };
    client.sent = 0;
    client.statuses.clear();
  });

  afterAll(async () => {
    if (process.env.FUZZ_DEBUG) console.log(client.sent, client.busyMs, client.slowest);
    await t?.close();
    await receiver.stop();
  });

  it('covers every endpoint of the OpenAPI document', async () => {
    const doc = JSON.parse((await client.send('GET', '/docs-json')).text) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'patch', 'put', 'delete'].includes(m))
        .map((m) => `${m.toUpperCase()} ${path.replace(/\/?$/, '/')}`),
    );
    const shape = (op: string) => op.replace(/\{\w+\}/g, '{}');
    const covered = new Set(ENDPOINTS.map((e) => shape(`${e.method} ${e.path}`)));
    // Every documented API operation gets fuzzed: the known ones with schema-aware mutations,
    // any other one (added later) by the generic property below, through this list.
    extraOperations = documented.filter((op) => op.includes('/api/') && !covered.has(shape(op)));
    expect(new Set(documented.map(shape).filter((op) => covered.has(op))).size).toBe(covered.size);
  });

  let extraOperations: string[] = [];

  it('answers mutated bodies (wrong types, nulls, missing and extra fields, huge, deep, odd unicode, injection) with 2xx or a 4xx envelope', async () => {
    await assertConcurrently(
      fc.asyncProperty(
        fc.constantFrom(...bodyEndpoints),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        async (endpoint, mutations) => {
          const body = keepTargetsLocal(endpoint, mutate(endpoint.body!(ctx), mutations), ctx);
          const problem = await client.check('body', endpoint.method, fill(endpoint.path, ctx), {
            headers: a.auth,
            body,
          });
          return passes(problem);
        },
      ),
      runs(3_000),
    );
  });

  it('answers type confusion at every depth (lists in lists, objects for strings, strings for lists, nesting at the depth and size limits) with 2xx or a 4xx envelope', async () => {
    await assertConcurrently(
      fc.asyncProperty(
        fc.constantFrom(...bodyEndpoints),
        fc.array(
          fc.oneof({ weight: 3, arbitrary: confusion }, { weight: 1, arbitrary: mutation }),
          { minLength: 1, maxLength: 3 },
        ),
        async (endpoint, mutations) => {
          const body = keepTargetsLocal(endpoint, mutate(endpoint.body!(ctx), mutations), ctx);
          const problem = await client.check(
            'confusion',
            endpoint.method,
            fill(endpoint.path, ctx),
            {
              headers: a.auth,
              body,
            },
          );
          return passes(problem);
        },
      ),
      runs(2_000),
    );
  });

  it('answers junk path parameters with a 4xx envelope', async () => {
    await assertConcurrently(
      fc.asyncProperty(
        fc.constantFrom(...paramEndpoints),
        pathJunk,
        fc.nat(),
        async (endpoint, value, pick) => {
          const names = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
          const path = fill(endpoint.path, ctx, { name: names[pick % names.length], value });
          const body = endpoint.body ? endpoint.body(ctx) : undefined;
          const problem = await client.check('path', endpoint.method, path, {
            headers: a.auth,
            body: keepTargetsLocal(endpoint, body, ctx),
          });
          return passes(problem);
        },
      ),
      runs(1_500),
    );
  });

  it('answers junk query strings (bad limits and cursors, repeated and bracketed keys) with 2xx or a 4xx envelope', async () => {
    await assertConcurrently(
      fc.asyncProperty(
        fc.constantFrom(...queryEndpoints),
        fc.array(fc.tuple(fc.nat(), queryValue, fc.constantFrom('', '[]', '[$gt]', '[0]')), {
          minLength: 1,
          maxLength: 4,
        }),
        async (endpoint, pairs) => {
          const params = new URLSearchParams();
          for (const [pick, value, suffix] of pairs)
            params.append(endpoint.query![pick % endpoint.query!.length] + suffix, value);
          const problem = await client.check(
            'query',
            'GET',
            `${fill(endpoint.path, ctx)}?${params.toString()}`,
            { headers: a.auth },
          );
          return passes(problem);
        },
      ),
      runs(1_500),
    );
  });

  it('answers raw bodies (malformed JSON, odd content types and charsets, over 1 MiB) with a 4xx envelope', async () => {
    const rawBody = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          '{',
          '{"a":',
          '[1,2',
          '{"a":1,}',
          "{'a':1}",
          'NaN',
          'undefined',
          '\u0000',
          '{"__proto__":{"x":1}}',
          '{"constructor":{"prototype":{"x":1}}}',
          '{"a":"\\ud800"}',
          '{"a":"\\u0000"}',
          '"\\udfff"',
        ),
      },
      { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
      { weight: 3, arbitrary: junk.map((v) => JSON.stringify(v) ?? 'null') },
      // Over the 1 MiB limit: 413, whatever the endpoint.
      { weight: 1, arbitrary: fc.constant(`{"title":"${'x'.repeat(1_100_000)}"}`) },
    );
    const contentType = fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/merge-patch+json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      '',
    );
    const encoding = fc.constantFrom(undefined, 'gzip', 'deflate', 'br', 'identity', 'bogus');
    await assertConcurrently(
      fc.asyncProperty(
        fc.constantFrom(...bodyEndpoints),
        rawBody,
        contentType,
        encoding,
        async (endpoint, raw, type, contentEncoding) => {
          const headers: Record<string, string> = { ...a.auth };
          if (type) headers['Content-Type'] = type;
          if (contentEncoding) headers['Content-Encoding'] = contentEncoding;
          const problem = await client.check('raw', endpoint.method, fill(endpoint.path, ctx), {
            headers,
            raw,
          });
          return passes(problem);
        },
      ),
      runs(1_000),
    );
  });

  it('answers bad credentials on every endpoint with 401 detail', async () => {
    const header = fc.oneof(
      fc.constantFrom(
        '',
        'Api',
        'Api ',
        'api vk_x',
        'Bearer x',
        'Basic YTpi',
        'Api  vk_',
        'Api vk_' + 'A'.repeat(43) + ' ',
        'Api vk_' + 'A'.repeat(5000),
      ),
      fc.string({ maxLength: 80 }).map((s) => 'Api ' + s.replace(/[^\x20-\x7e]/g, '')),
      fc.string({ maxLength: 80 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
    );
    await assertConcurrently(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), header, async (endpoint, value) => {
        const res = await client.send(endpoint.method, fill(endpoint.path, ctx), {
          headers: value === '' ? {} : { Authorization: value },
          body: endpoint.body?.(ctx),
        });
        // docs/api.md, Authentication: 401 {detail, hint} with WWW-Authenticate, whatever the header held.
        let body: unknown;
        try {
          body = JSON.parse(res.text);
        } catch {
          body = undefined;
        }
        const b = body as { detail?: unknown; hint?: unknown } | undefined;
        const ok =
          res.status === 401 &&
          typeof b?.detail === 'string' &&
          b.hint === 'Send the header Authorization: Api <key>.' &&
          Object.keys(b).length === 2 &&
          res.headers.get('www-authenticate') === 'Api realm="api"';
        return passes(
          ok
            ? null
            : `${endpoint.method} ${endpoint.path} with Authorization ${JSON.stringify(value.slice(0, 100))} → ` +
                `${res.status} ${res.headers.get('www-authenticate') ?? '(no WWW-Authenticate)'} ${res.text.slice(0, 300)}`,
        );
      }),
      runs(500),
    );
  });

  it('answers any method on any path, documented or not, with a 4xx envelope for junk', async () => {
    const operations = [
      ...ENDPOINTS.map((e): { method: string; path: string } => ({
        method: e.method,
        path: e.path,
      })),
      ...extraOperations.map((op) => {
        const [method, path] = op.split(' ');
        return { method, path };
      }),
    ];
    await assertConcurrently(
      fc.asyncProperty(
        fc.constantFrom(...operations),
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
        fc.boolean(),
        pathJunk,
        junk,
        async (op, otherMethod, useOther, segment, body) => {
          const method = useOther ? otherMethod : op.method;
          const path = op.path.replace(/\{(\w+)\}/g, segment) + (useOther ? segment + '/' : '');
          const problem = await client.check('any', method, path, {
            headers: a.auth,
            body:
              method === 'GET' ? undefined : keepTargetsLocal({ method: 'POST', path }, body, ctx),
          });
          return passes(problem);
        },
      ),
      runs(1_500),
    );
  });

  it(`sent at least ${MIN_CASES} cases with no 5xx, and the service is healthy afterwards`, async () => {
    expect(client.violations).toEqual([]);
    expect(client.sent).toBeGreaterThanOrEqual(MIN_CASES);
    expect(client.statuses.get(500) ?? 0).toBe(0);
    // PostgreSQL answers the readiness check (Redis is absent in npm test's tier: jest.config.js).
    const ready = await client.send('GET', '/health/ready');
    expect(JSON.parse(ready.text).details.database).toEqual({ status: 'up' });
    const created = await client.send('POST', '/api/auth/v1/patients/', {
      headers: a.auth,
      body: { first_name: 'After', last_name: 'Fuzz', dob: '1990-01-01' },
    });
    expect(created.status).toBe(200);
    const uid = await startSearch(t.app, a.auth, {
      patient: searchPatient({ last_name: 'After' }),
    });
    expect((await waitForResult(t.app, a.auth, uid)).status).toBe('complete');
    const summary = [...client.statuses.entries()].sort(([x], [y]) => x - y);
    // One line for RELIABILITY.md's figures.
    process.stdout.write(
      `fuzz: seed ${BASE_SEED}, ${client.sent} cases in ${((Date.now() - started) / 1000).toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(summary))}\n`,
    );
  });
});

describe('bad input the fuzzer found, answered in the envelope (regressions)', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    a = await createAccount(t.app);
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  const post = async (path: string, body: string) => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { ...a.auth, 'Content-Type': 'application/json' },
      body,
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('builds a sendable body from wide → text → wide and answers it in the envelope (FUZZ_SEED=479790281)', async () => {
    // The chain that stopped CI (issue 25): 5,000 copies of the body, that list as a string, then
    // 5,000 copies of the string: 425 MB, past V8's string limit. `wide` is now bounded in bytes.
    const chain: Mutation[] = [
      { kind: 'confuse', level: 361646056, pick: 741383329, shape: { to: 'wide', spare: 2 } },
      { kind: 'confuse', level: 641377913, pick: 1025475986, shape: { to: 'text' } },
      { kind: 'confuse', level: 98901757, pick: 998460676, shape: { to: 'wide', spare: 2 } },
    ];
    const text = JSON.stringify(mutate({ entry_point: 'add_patient' }, chain));
    expect(text.length).toBeGreaterThan(BODY_MAX_BYTES);
    expect(text.length).toBeLessThanOrEqual(2 * WIDE_MAX_BYTES);
    const res = await fetch(`${base}/api/auth/v1/iframe-session/`, {
      method: 'POST',
      headers: { ...a.auth, 'Content-Type': 'application/json' },
      body: text,
    });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 413,
      body: { detail: 'Request body too large.' },
    });
  });

  it('answers a benefit named like a property of every object (hasOwnProperty, constructor, ...) without a 500 (FUZZ_SEED=786608807)', async () => {
    // The case that stopped CI: a rule's benefit_code `hasOwnProperty` read the label table's
    // inherited method as the benefit's words, and the answer failed to render.
    const names = Object.getOwnPropertyNames(Object.prototype);
    for (const code of names) {
      const res = await post(
        '/api/auth/v1/benefits/next-eligible/',
        JSON.stringify({
          as_of: '2026-01-15',
          rules: [
            {
              benefit_code: code,
              frequency: {
                count: 1,
                period: { kind: 'rolling', months: 24 },
                shared_with: ['materials.contact_lenses'],
              },
              payer_next_eligible_date: '2027-01-01',
            },
            {
              benefit_code: 'exam.routine',
              frequency: { count: 2, period: { kind: 'plan_year' } },
            },
          ],
          history: [
            { benefit_code: 'materials.contact_lenses', date: '2025-03-10', source: 'claim' },
            { benefit_code: 'exam.routine', date: '2025-06-01' },
          ],
          plan: { begin_date: '2025-01-01', end_date: '2026-12-31' },
        }),
      );
      expect({ code, status: res.status < 500 }).toEqual({ code, status: true });
      if (res.status === 200) expect(JSON.stringify(res.body)).not.toContain('function');
    }
  });

  it('bounds every wide list in bytes as well as in values, whatever it copies', () => {
    for (const value of ['x'.repeat(70_000), 'é'.repeat(20_000), { a: ['add_patient'] }, 7]) {
      const list = confused(value, { to: 'wide', spare: 2 }, 1, { k: value }) as unknown[];
      expect(list.length).toBeGreaterThanOrEqual(1);
      expect(JSON.stringify(list).length).toBeLessThanOrEqual(WIDE_MAX_BYTES + 1);
    }
    // A small value still fills the body up to its value limit, one over it with spare 2.
    const small = confused('add_patient', { to: 'wide', spare: 2 }, 1, {
      entry_point: 'add_patient',
    }) as unknown[];
    expect(countValues({ entry_point: small })).toBe(BODY_MAX_VALUES + 2);
  });

  it('reports a request that got no answer with its cause and a bounded body, not a bare "fetch failed"', async () => {
    const closed = new FuzzClient(`http://127.0.0.1:${await freePort()}`);
    const problem = await closed.check('body', 'POST', '/api/auth/v1/locations/', {
      body: { title: 'x'.repeat(10_000) },
    });
    expect(problem).toMatch(
      /^body: POST \/api\/auth\/v1\/locations\/ → no answer: TypeError: fetch failed ← Error: connect ECONNREFUSED .*; sent: \{"title":"x{1490}… \(10012 characters\)$/,
    );
  });

  it('refuses U+0000 and lone surrogates in string fields with field errors, not a 500', async () => {
    const nul = await post('/api/auth/v1/locations/', '{"title": "Main\\u0000St"}');
    expect(nul).toEqual({
      status: 400,
      body: { errors: { title: { $: ['Null characters are not allowed.'] } } },
    });
    const surrogate = await post(
      '/api/auth/v1/eligibility/',
      JSON.stringify({ insurer_code: 'insurer:demo:vision', patient: searchPatient() }).replace(
        '"Maria"',
        '"Ma\\udfffria"',
      ),
    );
    expect(surrogate).toEqual({
      status: 400,
      body: {
        errors: { patient: { first_name: { $: ['Surrogate characters are not allowed.'] } } },
      },
    });
  });

  it('answers U+0000 in a path parameter (reaching PostgreSQL) and in a query filter with 400, not a 500', async () => {
    const path = await fetch(`${base}/api/auth/v1/eligibility/abc%00def/`, { headers: a.auth });
    expect({ status: path.status, body: await path.json() }).toEqual({
      status: 400,
      body: { errors: { $: ['Null characters are not allowed.'] } },
    });
    const query = await fetch(`${base}/api/auth/v1/patients/?search=ma%00ria`, {
      headers: a.auth,
    });
    expect({ status: query.status, body: await query.json() }).toEqual({
      status: 400,
      body: { errors: { search: { $: ['Null characters are not allowed.'] } } },
    });
  });

  it('answers a 20 KiB URL with 431 in the envelope instead of a bare status line', async () => {
    const res = await fetch(`${base}/api/auth/v1/patients/${'A'.repeat(20_000)}/`, {
      headers: a.auth,
    });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ detail: 'Request headers or URL too large.' });
  });

  it('refuses bodies of more than 5,000 values or 64 levels at once, before validation', async () => {
    const started = Date.now();
    const many = await post(
      '/api/auth/v1/locations/',
      JSON.stringify({ x: new Array(100_000).fill(1) }),
    );
    expect(many).toEqual({
      status: 400,
      body: { errors: { $: ['Too many values in the body (at most 5000).'] } },
    });
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = [deep];
    const nested = await post('/api/auth/v1/webhooks/', JSON.stringify(deep));
    expect(nested).toEqual({
      status: 400,
      body: { errors: { $: ['The body is nested too deeply (at most 64 levels).'] } },
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    // Within the limits a real body still passes.
    expect((await post('/api/auth/v1/locations/', '{"title": "Uptown"}')).status).toBe(201);
  });

  it('reports an overlong list by its size alone, not item by item', async () => {
    const res = await post(
      '/api/auth/v1/eligibility/',
      JSON.stringify({
        insurer_code_list: new Array(4_000).fill('nope'),
        patient: searchPatient(),
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.errors.insurer_code_list).toEqual({
      $: ['Ensure this field has no more than 10 elements.', 'Duplicate values are not allowed.'],
    });
  });
});
