import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { isApiPath } from '@/platform/http/doors';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { APPOINTMENT_BODY, COMPLETE_TASK_BODY } from './support/api-routes';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient as searchPatient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';
import { TestReceiver } from './support/receiver';
import { UID_SYSTEM } from './support/fhir';

/**
 * Tenant isolation (docs/api.md, Conventions): for every endpoint that takes an id, uid or code, account B's key
 * on account A's object gets exactly what a missing object gets — same status, same body with
 * the id in place — and A's object is left as it was.
 */

const person = {
  first_name: 'Maria',
  last_name: 'Gonzalez',
  dob: '1986-04-12',
  type: 'self',
  sex: 'female',
  member_id: 'VSP104882211',
};

/** A code of the same form as `code` (prefix + 8 Crockford base32) that belongs to nobody. */
const missingCode = (prefix: string) =>
  `${prefix}${Array.from({ length: 8 }, () => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[Math.floor(Math.random() * 32)]).join('')}`;

interface Answer {
  status: number;
  body: unknown;
}

/** The answer with the id written as `<id>`, so A's object and a missing one compare equal. */
function shape(answer: Answer, id: string): { status: number; body: string } {
  const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const token = new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, 'g');
  return { status: answer.status, body: JSON.stringify(answer.body).replace(token, '<id>') };
}

describe('tenant isolation matrix: another account’s object is answered exactly like a missing one', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  const receiver = new TestReceiver();
  const ids = {} as {
    uid: string;
    resultId: number;
    personId: number;
    bUid: string;
    patientCode: string;
    bPatientCode: string;
    claimCode: string;
    webhookId: string;
    deliveryId: string;
    bWebhookId: string;
    batchUid: string;
    remittanceId: string;
    taskId: string;
    designId: string;
    quoteId: string;
    /** A's search's CoverageEligibilityResponse (docs/api.md, FHIR R4); its Patient's id is the prefix. */
    fhirResponseId: string;
    appointmentId: string;
    bCredentialsAuth: { Authorization: string };
  };
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '3600' } });
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    const hook = await http()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: receiver.url('/a'), secret: 'secret-of-account-a' });
    ids.webhookId = hook.body.id;
    ids.bWebhookId = (
      await http()
        .post('/api/auth/v1/webhooks/')
        .set(b.auth)
        .send({ url: receiver.url('/b') })
    ).body.id;
    ids.uid = await startSearch(t.app, a.auth, {
      request_uid: 'shared-visit-0001',
      patient: searchPatient(),
    });
    const result = await waitForResult(t.app, a.auth, ids.uid);
    ids.fhirResponseId = (
      await http()
        .get(`/fhir/R4/CoverageEligibilityResponse?identifier=${UID_SYSTEM}|${ids.uid}`)
        .set(a.auth)
        .expect(200)
    ).body.entry[0].resource.id;
    ids.resultId = result.results[0].id;
    ids.personId = result.results[0].persons[0].id;
    ids.bUid = await startSearch(t.app, b.auth, { patient: searchPatient({ first_name: 'Bea' }) });
    await waitForResult(t.app, b.auth, ids.bUid);
    await receiver.waitFor('/a', 1);
    const deliveries = await http()
      .get(`/api/auth/v1/webhooks/${ids.webhookId}/deliveries/`)
      .set(a.auth);
    ids.deliveryId = deliveries.body.result[0].id;
    ids.patientCode = (
      await http()
        .post('/api/auth/v1/patients/')
        .set(a.auth)
        .send({ first_name: 'Ann', last_name: 'Owner', dob: '1970-01-01' })
    ).body.code;
    // A staff entry of A's (docs/api.md, Next eligible dates): B must neither see nor add to it.
    await http()
      .post(`/api/auth/v1/patients/${ids.patientCode}/benefit-history/`)
      .set(a.auth)
      .send({ insurer_code: DEMO, benefit_code: 'exam.routine', date: '2025-02-03' })
      .expect(201);
    ids.bPatientCode = (
      await http()
        .post('/api/auth/v1/patients/')
        .set(b.auth)
        .send({ first_name: 'Bob', last_name: 'Other', dob: '1971-01-01' })
    ).body.code;
    await http()
      .post(`/api/auth/v1/patients/${ids.patientCode}/eligibility/`)
      .set(a.auth)
      .send({ request_uid: ids.uid })
      .expect(200);
    ids.claimCode = (
      await http()
        .post('/api/auth/v1/claims/')
        .set(a.auth)
        .send({
          patient: person,
          primary_member: { ...person, insurer_code: 'insurer:vision:cigna_vision' },
          services: [{ codes: ['92014'], date: '2026-01-14', quantity: 1, cost: '10' }],
          paid_amount: '10',
        })
    ).body.code;
    ids.batchUid = (
      await http()
        .post('/api/auth/v1/eligibility/batches/')
        .set(a.auth)
        .send({
          batch_uid: 'shared-batch-0001',
          items: [{ insurer_code: 'insurer:demo:vision', patient: searchPatient() }],
        })
        .expect(201)
    ).body.batch_uid;
    // A's remittance (docs/api.md, Claim reports and remittances): an 835 uploaded by A, its claims unmatched.
    await http()
      .post('/api/auth/v1/claim-reports/')
      .set(a.auth)
      .set('content-type', 'text/plain')
      .send(readFileSync(resolve(__dirname, 'x12/reports', '835-several-claims.x12'), 'utf8'))
      .expect(202);
    ids.remittanceId = (
      await http().get('/api/auth/v1/remittances/').set(a.auth).expect(200)
    ).body.result[0].id;
    // docs/api.md, Insurers and assisted verification: a VSP search of A waits for a person: its verification task.
    const vsp = await startSearch(t.app, a.auth, {
      insurer_code: 'insurer:vision:vsp',
      patient: searchPatient(),
    });
    ids.taskId = await waitUntil('the verification task', async () => {
      const res = await http().get(`/api/auth/v1/eligibility/${vsp}/`).set(a.auth);
      return res.body.verification?.task_id as string | undefined;
    });
    // docs/api.md, Plan designs: a saved plan of A.
    [{ id: ids.designId }] = await t.app.get(DataSource).query(
      `INSERT INTO plan_designs (account_id, insurer_code, group_key, plan_name, plan_group_id, items)
       VALUES ($1, 'insurer:vision:vsp', 'GRP-A', 'VSP Choice', 'GRP-A', '[]') RETURNING id`,
      [a.accountId],
    );
    // docs/api.md, The counter: a quote of A.
    ids.quoteId = (
      await http()
        .post('/api/auth/v1/quotes/')
        .set(a.auth)
        .send({
          plan: { insurer_state: 'inn', items: [], materials: { network: 'inn' } },
          order: { frame: { retail: '100.00' } },
        })
        .expect(201)
    ).body.id;
    // docs/api.md, Appointments: an appointment of A.
    ids.appointmentId = 'shared-appointment-0001';
    await http()
      .put(`/api/auth/v1/appointments/${ids.appointmentId}/`)
      .set(a.auth)
      .send(APPOINTMENT_BODY)
      .expect(201);
    ids.bCredentialsAuth = {
      Authorization: `Api ${(await t.app.get(ApiKeysService).create(b.accountId, 'bot', ['verification:credentials'])).key}`,
    };
    expect(Object.values(ids).every((v) => v !== undefined)).toBe(true);
    // The claims worker moves the claim on (paper: no clearinghouse here, so it waits to be
    // mailed); snapshots start after.
    await waitUntil('the claim to be ready to mail', async () => {
      const res = await http().get(`/api/auth/v1/claims/${ids.claimCode}/`).set(a.auth);
      return res.body.status === 'ready_to_mail' ? true : undefined;
    });
    // The batch's item finishes and is delivered to A's webhook: snapshots start once nothing of
    // A's is still moving.
    await waitUntil('the batch to complete', async () => {
      const res = await http().get(`/api/auth/v1/eligibility/batches/${ids.batchUid}/`).set(a.auth);
      return res.body.status === 'complete' ? true : undefined;
    });
    await waitUntil("A's webhook deliveries to settle", async () => {
      const [{ n }] = await t.app
        .get(DataSource)
        .query(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE account_id = $1 AND status = 'pending'`,
          [a.accountId],
        );
      return n === 0 ? true : undefined;
    });
  });

  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  /** What A's own key sees of its objects: must be the same after B's attempts. */
  async function snapshotOfA() {
    const get = async (path: string) => (await http().get(path).set(a.auth)).body;
    return {
      v1: await get(`/api/auth/v1/eligibility/${ids.uid}/`),
      patient: await get(`/api/auth/v1/patients/${ids.patientCode}/`),
      links: await get(`/api/auth/v1/patients/${ids.patientCode}/eligibility/`),
      history: await get(`/api/auth/v1/patients/${ids.patientCode}/benefit-history/`),
      claim: await get(`/api/auth/v1/claims/${ids.claimCode}/`),
      webhook: await get(`/api/auth/v1/webhooks/${ids.webhookId}/`),
      deliveries: await get(`/api/auth/v1/webhooks/${ids.webhookId}/deliveries/`),
      batchItems: await get(`/api/auth/v1/eligibility/batches/${ids.batchUid}/items/`),
      task: await get(`/api/auth/v1/verification-tasks/${ids.taskId}/`),
      design: await get(`/api/auth/v1/plan-designs/${ids.designId}/`),
      quote: await get(`/api/auth/v1/quotes/${ids.quoteId}/`),
      appointment: await get(`/api/auth/v1/appointments/${ids.appointmentId}/`),
      appointments: await get('/api/auth/v1/appointments/'),
      requests: (
        await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM eligibility_requests')
      )[0].n,
      mail: (await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM mail_messages'))[0]
        .n,
      entries: (
        await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM patient_benefit_history')
      )[0].n,
    };
  }

  type Send = (id: string) => request.Test;
  interface Case {
    endpoint: string;
    /** The id of A's object that B tries. */
    ofA: () => string;
    /** An id of the same form that belongs to nobody. */
    missing: () => string;
    send: Send;
    /** Missing objects answer 404 naming the id; body-field ids answer 400 naming it. */
    status: 404 | 400;
  }

  const path = (p: string) => (id: string) => p.replace('{}', encodeURIComponent(id));
  const cases: Case[] = [
    // docs/api.md, FHIR R4: the door's reads, answered as an OperationOutcome.
    {
      endpoint: 'GET /fhir/R4/CoverageEligibilityResponse/{}/',
      ofA: () => ids.fhirResponseId,
      missing: () => '999999999999-1',
      send: (id) => http().get(path('/fhir/R4/CoverageEligibilityResponse/{}')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /fhir/R4/Patient/{}/',
      ofA: () => ids.fhirResponseId.replace(/-\d+$/, ''),
      missing: () => '999999999999',
      send: (id) => http().get(path('/fhir/R4/Patient/{}')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /fhir/R4/Coverage/{}/',
      ofA: () => ids.fhirResponseId,
      missing: () => '999999999999-1',
      send: (id) => http().get(path('/fhir/R4/Coverage/{}')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v1/eligibility/batches/{batch_uid}/',
      ofA: () => ids.batchUid,
      missing: () => 'no-such-batch-0001',
      send: (id) => http().get(path('/api/auth/v1/eligibility/batches/{}/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v1/eligibility/batches/{batch_uid}/items/',
      ofA: () => ids.batchUid,
      missing: () => 'no-such-batch-0001',
      send: (id) => http().get(path('/api/auth/v1/eligibility/batches/{}/items/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v1/eligibility/{uid}/',
      ofA: () => ids.uid,
      missing: () => 'no-such-visit-0001',
      send: (id) => http().get(path('/api/auth/v1/eligibility/{}/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v2/eligibility/{uid}/',
      ofA: () => ids.uid,
      missing: () => 'no-such-visit-0001',
      send: (id) => http().get(path('/api/auth/v2/eligibility/{}/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v2/eligibility/{uid}/pdf/',
      ofA: () => ids.uid,
      missing: () => 'no-such-visit-0001',
      send: (id) =>
        http()
          .get(path('/api/auth/v2/eligibility/{}/pdf/')(id))
          .query({ result_id: ids.resultId, person_id: ids.personId })
          .set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v2/eligibility/{uid}/pdf/ (result_id of A on B’s request)',
      ofA: () => String(ids.resultId),
      missing: () => '987654321',
      send: (id) =>
        http()
          .get(`/api/auth/v2/eligibility/${ids.bUid}/pdf/`)
          .query({ result_id: id, person_id: ids.personId })
          .set(b.auth),
      status: 404,
    },
    {
      endpoint: 'POST /api/auth/v1/eligibility/{uid}/details/',
      ofA: () => ids.uid,
      missing: () => 'no-such-visit-0001',
      send: (id) =>
        http()
          .post(path('/api/auth/v1/eligibility/{}/details/')(id))
          .set(b.auth)
          .send({ request_uid: id, result_id: ids.resultId, person_id: ids.personId }),
      status: 404,
    },
    {
      endpoint: 'POST /api/auth/v1/eligibility/{uid}/details/ (result_id of A on B’s request)',
      ofA: () => String(ids.resultId),
      missing: () => '987654321',
      send: (id) =>
        http()
          .post(`/api/auth/v1/eligibility/${ids.bUid}/details/`)
          .set(b.auth)
          .send({ request_uid: ids.bUid, result_id: Number(id), person_id: ids.personId }),
      status: 400,
    },
    {
      endpoint: 'GET /api/auth/v1/patients/{code}/',
      ofA: () => ids.patientCode,
      missing: () => missingCode('PAT'),
      send: (id) => http().get(path('/api/auth/v1/patients/{}/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'POST /api/auth/v1/patients/{code}/eligibility/',
      ofA: () => ids.patientCode,
      missing: () => missingCode('PAT'),
      send: (id) =>
        http()
          .post(path('/api/auth/v1/patients/{}/eligibility/')(id))
          .set(b.auth)
          .send({ request_uid: ids.bUid }),
      status: 404,
    },
    {
      endpoint: 'POST /api/auth/v1/patients/{code}/eligibility/ (request_uid of A)',
      ofA: () => ids.uid,
      missing: () => 'no-such-visit-0001',
      send: (id) =>
        http()
          .post(`/api/auth/v1/patients/${ids.bPatientCode}/eligibility/`)
          .set(b.auth)
          .send({ request_uid: id }),
      status: 400,
    },
    {
      endpoint: 'GET /api/auth/v1/patients/{code}/eligibility/',
      ofA: () => ids.patientCode,
      missing: () => missingCode('PAT'),
      send: (id) => http().get(path('/api/auth/v1/patients/{}/eligibility/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'POST /api/auth/v1/patients/{code}/benefit-history/',
      ofA: () => ids.patientCode,
      missing: () => missingCode('PAT'),
      send: (id) =>
        http()
          .post(path('/api/auth/v1/patients/{}/benefit-history/')(id))
          .set(b.auth)
          .send({ insurer_code: DEMO, benefit_code: 'materials.frames', date: '2025-01-02' }),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v1/patients/{code}/benefit-history/',
      ofA: () => ids.patientCode,
      missing: () => missingCode('PAT'),
      send: (id) => http().get(path('/api/auth/v1/patients/{}/benefit-history/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v1/claims/{code}/',
      ofA: () => ids.claimCode,
      missing: () => missingCode('CLM'),
      send: (id) => http().get(path('/api/auth/v1/claims/{}/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v1/claims/{code}/form/',
      ofA: () => ids.claimCode,
      missing: () => missingCode('CLM'),
      send: (id) => http().get(path('/api/auth/v1/claims/{}/form/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v1/claims/{code}/x12/',
      ofA: () => ids.claimCode,
      missing: () => missingCode('CLM'),
      send: (id) => http().get(path('/api/auth/v1/claims/{}/x12/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'POST /api/auth/v1/claims/{code}/notify-customer/',
      ofA: () => ids.claimCode,
      missing: () => missingCode('CLM'),
      send: (id) =>
        http()
          .post(path('/api/auth/v1/claims/{}/notify-customer/')(id))
          .set(b.auth)
          .send({ email: 'someone@example.com' }),
      status: 404,
    },
    {
      // B marking A's paper claim as mailed: 404, and A's claim stays ready_to_mail (snapshot).
      endpoint: 'POST /api/auth/v1/claims/{code}/mailed/',
      ofA: () => ids.claimCode,
      missing: () => missingCode('CLM'),
      send: (id) => http().post(path('/api/auth/v1/claims/{}/mailed/')(id)).set(b.auth),
      status: 404,
    },
    ...(
      [
        ['get', '', null],
        ['post', 'claim/', null],
        ['post', 'complete/', 'complete'],
        ['post', 'fail/', { reason: 'portal_down', detail: 'down' }],
        ['post', 'needs-info/', { detail: 'which card?' }],
        ['post', 'info/', { detail: 'the blue one' }],
        ['get', 'credentials/', null],
      ] as const
    ).map(([method, action, body]) => ({
      endpoint: `${method.toUpperCase()} /api/auth/v1/verification-tasks/{id}/${action}`,
      ofA: () => ids.taskId,
      missing: () => randomUUID(),
      send: (id: string) => {
        const url = `/api/auth/v1/verification-tasks/${id}/${action}`;
        const auth = action === 'credentials/' ? ids.bCredentialsAuth : b.auth;
        if (method === 'get') return http().get(url).set(auth);
        return http()
          .post(url)
          .set(auth)
          .send(body === 'complete' ? COMPLETE_TASK_BODY : (body ?? {}));
      },
      status: 404 as const,
    })),
    {
      endpoint: 'GET /api/auth/v1/plan-designs/{id}/',
      ofA: () => ids.designId,
      missing: () => randomUUID(),
      send: (id) => http().get(path('/api/auth/v1/plan-designs/{}/')(id)).set(b.auth),
      status: 404,
    },
    ...['', 'pdf/'].map((tail) => ({
      endpoint: `GET /api/auth/v1/quotes/{id}/${tail}`,
      ofA: () => ids.quoteId,
      missing: () => randomUUID(),
      send: (id: string) =>
        http()
          .get(path(`/api/auth/v1/quotes/{}/${tail}`)(id))
          .set(b.auth),
      status: 404 as const,
    })),
    {
      endpoint: 'GET /api/auth/v1/appointments/{external_id}/',
      ofA: () => ids.appointmentId,
      missing: () => 'no-such-appointment-0001',
      send: (id) => http().get(path('/api/auth/v1/appointments/{}/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'POST /api/auth/v1/appointments/{external_id}/check/',
      ofA: () => ids.appointmentId,
      missing: () => 'no-such-appointment-0001',
      send: (id) => http().post(path('/api/auth/v1/appointments/{}/check/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'DELETE /api/auth/v1/appointments/{external_id}/',
      ofA: () => ids.appointmentId,
      missing: () => 'no-such-appointment-0001',
      send: (id) => http().delete(path('/api/auth/v1/appointments/{}/')(id)).set(b.auth),
      status: 404,
    },
    {
      // The path's id is an upsert's (B's own, below); what the body names of A is not B's.
      endpoint: 'PUT /api/auth/v1/appointments/{external_id}/ (patient_code of A)',
      ofA: () => ids.patientCode,
      missing: () => missingCode('PAT'),
      send: (id) =>
        http()
          .put('/api/auth/v1/appointments/b-probe-0001/')
          .set(b.auth)
          .send({ ...APPOINTMENT_BODY, patient: null, patient_code: id }),
      status: 400,
    },
    {
      endpoint: 'PUT /api/auth/v1/appointments/{external_id}/ (location_code of A)',
      ofA: () => a.locationCode,
      missing: () => missingCode('LOC'),
      send: (id) =>
        http()
          .put('/api/auth/v1/appointments/b-probe-0002/')
          .set(b.auth)
          .send({ ...APPOINTMENT_BODY, location_code: id }),
      status: 400,
    },
    {
      endpoint: 'POST /api/auth/v1/appointments/sync/ (location_code of A)',
      ofA: () => a.locationCode,
      missing: () => missingCode('LOC'),
      send: (id) =>
        http().post('/api/auth/v1/appointments/sync/').set(b.auth).send({
          from: '2026-11-24T00:00:00Z',
          to: '2026-11-25T00:00:00Z',
          location_code: id,
          appointments: [],
        }),
      status: 400,
    },
    {
      endpoint: 'GET /api/auth/v1/appointments/?location_code= (of A)',
      ofA: () => a.locationCode,
      missing: () => missingCode('LOC'),
      send: (id) =>
        http().get('/api/auth/v1/appointments/').query({ location_code: id }).set(b.auth),
      status: 400,
    },
    {
      endpoint: 'GET /api/auth/v1/remittances/{id}/',
      ofA: () => ids.remittanceId,
      missing: () => randomUUID(),
      send: (id) => http().get(path('/api/auth/v1/remittances/{}/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v1/remittances/{id}/x12/',
      ofA: () => ids.remittanceId,
      missing: () => randomUUID(),
      send: (id) => http().get(path('/api/auth/v1/remittances/{}/x12/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v1/webhooks/{id}/',
      ofA: () => ids.webhookId,
      missing: () => randomUUID(),
      send: (id) => http().get(path('/api/auth/v1/webhooks/{}/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'PATCH /api/auth/v1/webhooks/{id}/',
      ofA: () => ids.webhookId,
      missing: () => randomUUID(),
      send: (id) =>
        http()
          .patch(path('/api/auth/v1/webhooks/{}/')(id))
          .set(b.auth)
          .send({ url: receiver.url('/stolen'), is_active: false, rotate_secret: true }),
      status: 404,
    },
    {
      endpoint: 'DELETE /api/auth/v1/webhooks/{id}/',
      ofA: () => ids.webhookId,
      missing: () => randomUUID(),
      send: (id) => http().delete(path('/api/auth/v1/webhooks/{}/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'GET /api/auth/v1/webhooks/{id}/deliveries/',
      ofA: () => ids.webhookId,
      missing: () => randomUUID(),
      send: (id) => http().get(path('/api/auth/v1/webhooks/{}/deliveries/')(id)).set(b.auth),
      status: 404,
    },
    {
      endpoint: 'POST /api/auth/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver/ (A’s webhook)',
      ofA: () => ids.webhookId,
      missing: () => randomUUID(),
      send: (id) =>
        http()
          .post(`/api/auth/v1/webhooks/${id}/deliveries/${ids.deliveryId}/redeliver/`)
          .set(b.auth),
      status: 404,
    },
    {
      endpoint:
        'POST /api/auth/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver/ (A’s delivery under B’s webhook)',
      ofA: () => ids.deliveryId,
      missing: () => randomUUID(),
      send: (id) =>
        http()
          .post(`/api/auth/v1/webhooks/${ids.bWebhookId}/deliveries/${id}/redeliver/`)
          .set(b.auth),
      status: 404,
    },
    {
      endpoint: 'PATCH /api/auth/v1/locations/{code}/',
      ofA: () => a.locationCode,
      missing: () => missingCode('LOC'),
      send: (id) =>
        http()
          .patch(path('/api/auth/v1/locations/{}/')(id))
          .set(b.auth)
          .send({ npi: '1234567893', organization_name: 'Stolen' }),
      status: 404,
    },
    {
      endpoint: 'POST /api/auth/v1/eligibility/ (location_code of A)',
      ofA: () => a.locationCode,
      missing: () => missingCode('LOC'),
      send: (id) =>
        http().post('/api/auth/v1/eligibility/').set(b.auth).send({
          insurer_code: 'insurer:demo:vision',
          location_code: id,
          patient: searchPatient(),
        }),
      status: 400,
    },
    {
      endpoint: 'POST /api/auth/v1/patients/ (location_code of A)',
      ofA: () => a.locationCode,
      missing: () => missingCode('LOC'),
      send: (id) =>
        http()
          .post('/api/auth/v1/patients/')
          .set(b.auth)
          .send({ first_name: 'Loc', last_name: 'Probe', dob: '1990-01-01', location_code: id }),
      status: 400,
    },
    {
      endpoint: 'POST /api/auth/v1/claims/ (location_code of A)',
      ofA: () => a.locationCode,
      missing: () => missingCode('LOC'),
      send: (id) =>
        http()
          .post('/api/auth/v1/claims/')
          .set(b.auth)
          .send({
            patient: person,
            primary_member: { ...person, insurer_code: 'insurer:vision:cigna_vision' },
            services: [{ codes: ['92014'], date: '2026-01-14', quantity: 1, cost: '10' }],
            paid_amount: '10',
            location_code: id,
          }),
      status: 400,
    },
    {
      endpoint: 'GET /api/auth/v1/patients/?location_code= (of A)',
      ofA: () => a.locationCode,
      missing: () => missingCode('LOC'),
      send: (id) => http().get('/api/auth/v1/patients/').query({ location_code: id }).set(b.auth),
      status: 400,
    },
  ];

  it.each(cases.map((c) => [c.endpoint, c] as const))('%s', async (_name, c) => {
    const before = await snapshotOfA();
    const ofA = c.ofA();
    const missing = c.missing();
    const [onA, onMissing] = [await c.send(ofA), await c.send(missing)];
    expect(shape(onA, ofA)).toEqual(shape(onMissing, missing));
    expect(onA.status).toBe(c.status);
    // The answer names the id that was given (docs/api.md, Errors), and only that.
    expect(JSON.stringify(onA.body)).toContain(ofA);
    if (c.status === 404)
      expect(Object.keys(onA.body as object)).toEqual(
        c.endpoint.includes(' /fhir/') ? ['resourceType', 'issue'] : ['detail'],
      );
    else expect(Object.keys(onA.body as object)).toEqual(['errors']);
    expect(await snapshotOfA()).toEqual(before);
  });

  it('lists show B none of A’s objects', async () => {
    const list = async (p: string) => (await http().get(p).set(b.auth).expect(200)).body;
    const everything = JSON.stringify([
      await list('/api/auth/v1/patients/'),
      await list('/api/auth/v1/claims/'),
      await list('/api/auth/v1/webhooks/'),
      await list('/api/auth/v1/locations/'),
      await list(`/api/auth/v1/patients/${ids.bPatientCode}/eligibility/`),
      await list(`/api/auth/v1/webhooks/${ids.bWebhookId}/deliveries/`),
      await list('/api/auth/v1/appointments/'),
      await list('/fhir/R4/CoverageEligibilityResponse'),
    ]);
    // Searched by A's uid (which its self link repeats), the door finds nothing of A's.
    const byUid = await list(
      `/fhir/R4/CoverageEligibilityResponse?identifier=${UID_SYSTEM}|${ids.uid}`,
    );
    expect([byUid.total, byUid.entry]).toEqual([0, []]);
    for (const id of [
      ids.uid,
      ids.patientCode,
      ids.claimCode,
      ids.webhookId,
      ids.deliveryId,
      a.locationCode,
      ids.fhirResponseId,
    ])
      expect(everything).not.toContain(id);
  });

  it('lets B use a request_uid that A already uses: uniqueness is per account, and reveals nothing', async () => {
    const res = await http()
      .post('/api/auth/v1/eligibility/')
      .set(b.auth)
      .send({
        insurer_code: 'insurer:demo:vision',
        request_uid: 'shared-visit-0001',
        patient: searchPatient({ first_name: 'Bea' }),
      });
    expect(res.status).toBe(201);
    const own = await waitForResult(t.app, b.auth, 'shared-visit-0001');
    const ofA = await waitForResult(t.app, a.auth, 'shared-visit-0001');
    expect(own.results[0].persons[0].first_name).not.toBe(ofA.results[0].persons[0].first_name);
  });

  it('lets B store an appointment under an external_id A uses, and B’s sync of the same window leaves A’s alone', async () => {
    const before = await snapshotOfA();
    const put = await http()
      .put(`/api/auth/v1/appointments/${ids.appointmentId}/`)
      .set(b.auth)
      .send({ ...APPOINTMENT_BODY, status: 'noshow' });
    expect(put.status).toBe(201);
    const sync = await http()
      .post('/api/auth/v1/appointments/sync/')
      .set(b.auth)
      .send({ from: '2026-11-24T00:00:00Z', to: '2026-11-25T00:00:00Z', appointments: [] });
    expect(sync.body).toEqual({ created: 0, updated: 0, unchanged: 0, cancelled: 1, errors: [] });
    expect(await snapshotOfA()).toEqual(before);
    expect(before.appointment.status).toBe('booked');
  });

  it('covers every documented operation that takes an id, uid or code', async () => {
    const doc = (await http().get('/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const withId = Object.entries(doc.paths)
      .filter(([p]) => isApiPath(p) && p.includes('{'))
      .flatMap(([p, ops]) =>
        Object.keys(ops)
          .filter((m) => ['get', 'post', 'patch', 'put', 'delete'].includes(m))
          .map((m) => `${m.toUpperCase()} ${p.replace(/\{\w+\}/g, '{}').replace(/\/?$/, '/')}`),
      );
    const covered = new Set(cases.map((c) => c.endpoint.split(' (')[0].replace(/\{\w+\}/g, '{}')));
    // The door's extensions are defined alike for every account: nothing of one.
    const ofNoAccount = ['GET /fhir/R4/StructureDefinition/{}/'];
    expect(withId.filter((op) => !covered.has(op) && !ofNoAccount.includes(op))).toEqual([]);
  });
});
