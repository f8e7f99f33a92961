/**
 * A client program as a developer writes it from SERVICE-SPEC.md, against the types that
 * openapi-typescript generates from /docs-json (`./api`), with openapi-fetch. It is compiled
 * with `tsc --strict` and run against the service by test/openapi-client.pg.e2e-spec.ts: a field
 * typed wrongly in the document breaks the compilation, a path or shape that lies breaks the run.
 * Kept as text because `./api` exists only once the test has generated it.
 */
export const CLIENT_PROGRAM = String.raw`
import createClient from 'openapi-fetch';
import type { components, paths } from './api';

type Schemas = components['schemas'];
type ResultV2 = Schemas['EligibilityResultV2'];
type BenefitItem = Schemas['BenefitItemDoc'];

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(name + ' is not set');
  return value;
};

const client = createClient<paths>({
  baseUrl: env('BASE_URL'),
  headers: { Authorization: 'Api ' + env('API_KEY') },
});

function check<T>(what: string, answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined)
    throw new Error(what + ': ' + answer.response.status + ' ' + JSON.stringify(answer.error));
  return answer.data;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the V2 result until the search leaves processing. */
async function pollV2(requestUid: string): Promise<ResultV2> {
  for (let i = 0; i < 300; i++) {
    const result = check(
      'poll ' + requestUid,
      await client.GET('/api/auth/v2/eligibility/{request_uid}/', {
        params: { path: { request_uid: requestUid } },
      }),
    );
    if (result.status !== 'processing') return result;
    await sleep(100);
  }
  throw new Error(requestUid + ' is still processing');
}

/** Visits every benefit item of a tree (unlimited depth). */
function walk(items: BenefitItem[], depth: number, visit: (item: BenefitItem, depth: number) => void) {
  for (const item of items) {
    visit(item, depth);
    walk(item.items, depth + 1, visit);
  }
}

async function main(): Promise<void> {
  // A webhook first, so the results below are delivered to it.
  const webhook = check(
    'create webhook',
    await client.POST('/api/auth/v1/webhooks/', {
      body: { url: env('WEBHOOK_URL'), secret: 'client-program-secret', version: 'v2' },
    }),
  );
  const secretShownOnce: string | null = webhook.secret;

  const patient = check(
    'create patient',
    await client.POST('/api/auth/v1/patients/', {
      body: {
        first_name: 'Maria',
        last_name: 'Garcia',
        dob: '1984-06-15',
        sex: 'female',
        email: 'maria.garcia@example.com',
        address: { line1: '412 Oak Street', line2: null, city: 'Austin', state: 'TX', zipcode: '78701' },
        force_similar: true,
      },
    }),
  );
  const middleName: string | null = patient.middle_name;
  const patientLine2: string | null | undefined = patient.address?.line2;

  const started = check(
    'start eligibility',
    await client.POST('/api/auth/v1/eligibility/', {
      body: {
        insurer_code: 'insurer:demo:vision',
        patient: { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701', member_id: null },
      },
    }),
  );
  const result = await pollV2(started.request_uid);
  if (result.status !== 'complete' || !result.results || result.results.length === 0)
    throw new Error('search ended ' + result.status + ' / ' + result.error_code);
  const errorCode: 'insurer_problem' | 'unexpected_error' | null = result.error_code;

  const entry = result.results[0];
  const person = entry.persons[0];
  const resultId: number = entry.id;
  const personId: number = person.id;
  const groupId: string | null = entry.plan_group_id;
  const planEnd: string | null = entry.plan_end_date;
  const refresh: string | null = entry.plan_refresh_date;
  const memberId: string | null = person.member_id;
  const email: string | null = person.email;
  const active: boolean | null = person.is_active;
  // A person a verifier gave without an address has none (null).
  const line2: string | null = person.address ? person.address.line2 : null;
  const token: string | null | undefined = person.plan_token;

  // The benefit tree: depth, benefit codes, and the typed values of the flag-based lists.
  let items = 0;
  let depth = 0;
  let units = 0;
  let copayments = 0;
  walk(person.plan.items, 1, (item, d) => {
    items += 1;
    depth = Math.max(depth, d);
    for (const q of item.quantity ?? []) units += q.value;
    for (const c of item.copayment ?? []) copayments += Number(c.value);
    const flags: (
      | 'inn'
      | 'oon'
      | 'exclusive-use'
      | 'required'
      | 'requires-parent-use'
      | 'not_covered'
    )[] = item.flags;
    void flags;
  });
  const planBegin: string | null = person.plan.begin_date;

  const details = check(
    'request details',
    await client.POST('/api/auth/v1/eligibility/{request_uid}/details/', {
      params: { path: { request_uid: started.request_uid } },
      body: { request_uid: started.request_uid, result_id: resultId, person_id: personId },
    }),
  );
  const detailed = await pollV2(details.request_uid);
  const detailedPersons = (detailed.results ?? []).flatMap((r) => r.persons).length;

  const link = check(
    'link',
    await client.POST('/api/auth/v1/patients/{code}/eligibility/', {
      params: { path: { code: patient.code } },
      body: { request_uid: started.request_uid },
    }),
  );
  const linked = check(
    'links',
    await client.GET('/api/auth/v1/patients/{code}/eligibility/', { params: { path: { code: patient.code } } }),
  );

  const member = {
    first_name: 'Maria',
    last_name: 'Garcia',
    dob: '1984-06-15',
    sex: 'female' as const,
    member_id: person.member_id ?? 'DMV004512345',
    address: { line1: '412 Oak Street', line2: null, city: 'Austin', state: 'TX', zipcode: '78701' },
  };
  const claim = check(
    'create claim',
    await client.POST('/api/auth/v1/claims/', {
      body: {
        patient: member,
        primary_member: { ...member, insurer_code: 'insurer:demo:vision' },
        services: [
          { codes: ['92014'], date: '2026-11-14', quantity: 1, cost: 12.22, diagnosis_codes: ['H52.13'] },
          { codes: ['V2100'], date: '2026-11-14', quantity: '2', cost: '44.21' },
        ],
        paid_amount: '10.00',
        metadata: { account_number: 'CHART-20931' },
      },
    }),
  );
  const claimLine2: string | null | undefined = claim.patient.address?.line2;
  const fetched = check(
    'get claim',
    await client.GET('/api/auth/v1/claims/{code}/', { params: { path: { code: claim.code } } }),
  );

  // The webhook received both finished requests (search and details).
  let deliveries: Schemas['DeliveryResponse'][] = [];
  for (let i = 0; i < 150; i++) {
    const page = check(
      'deliveries',
      await client.GET('/api/auth/v1/webhooks/{id}/deliveries/', {
        params: { path: { id: webhook.id }, query: { limit: 10 } },
      }),
    );
    deliveries = page.result;
    const nextCursor: string | null = page.next_cursor;
    void nextCursor;
    if (deliveries.filter((d) => d.status === 'succeeded').length >= 2) break;
    await sleep(100);
  }
  const completedAt: string | null = deliveries[0]?.completed_at ?? null;
  const statusCode: number | null = deliveries[0]?.attempts[0]?.status_code ?? null;

  process.stdout.write(
    JSON.stringify({
      webhook: { id: webhook.id, secretShownOnce: secretShownOnce !== null },
      patient: { code: patient.code, middleName, patientLine2 },
      search: { uid: started.request_uid, status: result.status, errorCode, resultId, personId, groupId, planEnd, refresh, memberId, email, active, line2, token: token === undefined ? 'absent' : 'present' },
      tree: { items, depth, units, copayments, planBegin },
      details: { uid: details.request_uid, status: detailed.status, persons: detailedPersons },
      link: { uid: link.request_uid, url: link.provider_app_url, linked: linked.result.length },
      claim: { code: claim.code, status: claim.status, fetchedCode: fetched.code, fetchedStatus: fetched.status, claimLine2, quantities: claim.services.map((s) => s.quantity), costs: claim.services.map((s) => s.cost) },
      deliveries: { succeeded: deliveries.filter((d) => d.status === 'succeeded').length, completedAt, statusCode },
    }) + '\n',
  );
}

main().catch((e: unknown) => {
  process.stderr.write((e instanceof Error ? e.message : String(e)) + '\n');
  process.exit(1);
});
`;
