import { randomBytes } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import request from 'supertest';
import { isApiPath } from '@/platform/http/doors';
import { listRoutes, type RouteDeclaration } from '@/modules/audit/domain/route-declarations';
import { DEMO, patient, startSearch, waitForResult } from './eligibility';
import { FHIR, submitBundle, UID_SYSTEM } from './fhir';
import type { TestAccount } from './factories';

/**
 * One working call of every route under /api/ (SECURITY.md tests): the audit-trail and scope
 * specs walk the application's own route list and look each route up here, so a new route
 * without a sample fails them until it is added (with what it should record).
 */

export interface Fixtures {
  /** A complete sandbox search. */
  uid: string;
  resultId: number;
  personId: number;
  patientCode: string;
  claimCode: string;
  webhookId: string;
  /** The account's default location. */
  locationCode: string;
  /** A batch of two sandbox checks. */
  batchUid: string;
  /** An appointment (docs/api.md, Appointments). */
  appointmentId: string;
  /** A visit to come (of the sandbox), which a check may be asked for. */
  upcomingId: string;
  /** A quote on the search's person (docs/api.md, The counter). */
  quoteId: string;
  /** The search's FHIR ids (docs/api.md, FHIR R4): its response from the sandbox, its Patient. */
  fhir: { responseId: string; patientId: string };
  /** docs/api.md, Insurers and assisted verification: VSP searches' verification tasks, one per route that changes a task. */
  tasks: {
    read: string;
    claim: string;
    complete: string;
    fail: string;
    needsInfo: string;
    info: string;
  };
}

/** A valid `complete` of a verification task (docs/api.md, Insurers and assisted verification). */
export const COMPLETE_TASK_BODY = {
  plans: [
    {
      status: 'active',
      plan_name: 'VSP Choice',
      plan_begin_date: '2026-01-01',
      plan_is_active: true,
      persons: [
        {
          first_name: 'Ana',
          last_name: 'Lopez',
          dob: '1990-02-03',
          sex: 'female',
          type: 'self',
          address: { line1: '1 Main St', city: 'Austin', zipcode: '78701', state: 'TX' },
          plan: {
            insurer_state: 'oon',
            items: [{ benefit_code: 'exam.routine', refresh_date: '2027-01-01' }],
          },
        },
      ],
    },
  ],
  evidence: { source: 'portal', checked_at: '2026-11-24T10:00:00Z' },
};

const TASKS = '/api/auth/v1/verification-tasks';

/** An order at the counter (docs/api.md, The counter): a frame and single-vision lenses. */
const QUOTE_ORDER = {
  frame: { retail: '189.00' },
  lenses: { type: 'single_vision', retail: '120.00' },
};
const APPOINTMENTS = '/api/auth/v1/appointments';

/** A valid appointment body (docs/api.md, Appointments). */
export const APPOINTMENT_BODY = {
  starts_at: '2026-11-24T15:00:00-06:00',
  status: 'booked',
  patient: { first_name: 'Maria', last_name: 'Garcia', dob: '1984-06-15', zipcode: '78701' },
  insurer_code: 'insurer:vision:vsp',
};

export interface ExpectedAudit {
  resource_type: string;
  action: string;
  /** The resource id the event names (null for lists). */
  resource_id: string | null;
}

export interface RouteSample {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  url: string;
  body?: Record<string, unknown>;
  /** Headers of its own besides the key's (the MCP door's Accept). */
  headers?: Record<string, string>;
  /** The success status. */
  status: number;
  /** What the audit trail records; absent for routes that are not patient data. */
  audit?: (answer: request.Response) => ExpectedAudit;
}

const unique = () => randomBytes(4).toString('hex');

const member = {
  first_name: 'Maria',
  last_name: 'Gonzalez',
  dob: '1986-04-12',
  type: 'self',
  sex: 'female',
  member_id: 'VSP104882211',
};

export const CLAIM_BODY = {
  patient: member,
  primary_member: { ...member, insurer_code: 'insurer:vision:vsp' },
  services: [
    {
      codes: ['92014'],
      date: '2026-11-14',
      quantity: 1,
      cost: '145.00',
      diagnosis_codes: ['H52.13'],
    },
  ],
  paid_amount: '145.00',
};

/** An accepted 999 (docs/api.md, Claim reports and remittances) for an 837P no claim sent: stored, matching nothing. */
const SAMPLE_999 = [
  'ISA*00*          *00*          *ZZ*CLEARINGHOUSE  *ZZ*EYEPRACTICE    *260112*1031*^*00501*000000302*0*P*:~',
  'GS*FA*CLEARINGHOUSE*EYEPRACTICE*20260112*1031*302*X*005010X231A1~',
  'ST*999*0001*005010X231A1~',
  'AK1*HC*999999*005010X222A1~',
  'AK2*837*999999*005010X222A1~',
  'IK5*A~',
  'AK9*A*1*1*1~',
  'SE*6*0001~',
  'GE*1*302~',
  'IEA*1*000000302~',
].join('\n');

const audit =
  (resource_type: string, action: string, id: (r: request.Response) => string | null) =>
  (r: request.Response): ExpectedAudit => ({ resource_type, action, resource_id: id(r) });

/** Keyed `METHOD /path/` as route-declarations.ts lists them. */
export const ROUTE_SAMPLES: Record<string, (fx: Fixtures) => RouteSample> = {
  // docs/api.md, FHIR R4: the door's reads are audited as the JSON API's, by the request's uid.
  // docs/api.md, MCP: a message is no patient data itself (a tool call records its own events);
  // GET and DELETE, which a stateless server does not serve, answer 405.
  'POST /mcp/': () => ({
    method: 'post',
    url: '/mcp',
    headers: { Accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    status: 200,
  }),
  'GET /mcp/': () => ({ method: 'get', url: '/mcp', status: 405 }),
  'DELETE /mcp/': () => ({ method: 'delete', url: '/mcp', status: 405 }),
  // Any other path under the door: a FHIR 404 to any valid key, nothing recorded.
  'ALL /fhir/R4/*path/': () => ({ method: 'get', url: `${FHIR}/Practitioner/1`, status: 404 }),
  'GET /fhir/R4/metadata/': () => ({ method: 'get', url: `${FHIR}/metadata`, status: 200 }),
  'GET /fhir/R4/StructureDefinition/:id/': () => ({
    method: 'get',
    url: `${FHIR}/StructureDefinition/wait-for`,
    status: 200,
  }),
  'POST /fhir/R4/CoverageEligibilityRequest/$submit/': () => ({
    method: 'post',
    url: `${FHIR}/CoverageEligibilityRequest/$submit`,
    body: submitBundle([DEMO]),
    status: 201,
    audit: audit('eligibility_request', 'create', (r) => r.body.identifier[0].value),
  }),
  'GET /fhir/R4/CoverageEligibilityResponse/:id/': (fx) => ({
    method: 'get',
    url: `${FHIR}/CoverageEligibilityResponse/${fx.fhir.responseId}`,
    status: 200,
    audit: audit('eligibility_request', 'read', () => fx.uid),
  }),
  'GET /fhir/R4/CoverageEligibilityResponse/': (fx) => ({
    method: 'get',
    url: `${FHIR}/CoverageEligibilityResponse?identifier=${UID_SYSTEM}|${fx.uid}`,
    status: 200,
    audit: audit('eligibility_request', 'list', () => null),
  }),
  'GET /fhir/R4/Patient/:id/': (fx) => ({
    method: 'get',
    url: `${FHIR}/Patient/${fx.fhir.patientId}`,
    status: 200,
    audit: audit('eligibility_request', 'read', () => fx.uid),
  }),
  'GET /fhir/R4/Coverage/:id/': (fx) => ({
    method: 'get',
    url: `${FHIR}/Coverage/${fx.fhir.responseId}`,
    status: 200,
    audit: audit('eligibility_request', 'read', () => fx.uid),
  }),
  'POST /api/auth/v1/eligibility/': () => ({
    method: 'post',
    url: '/api/auth/v1/eligibility/',
    body: { insurer_code: 'insurer:demo:vision', patient: patient() },
    status: 201,
    audit: audit('eligibility_request', 'create', (r) => r.body.request_uid),
  }),
  'GET /api/auth/v1/eligibility/:request_uid/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/eligibility/${fx.uid}/`,
    status: 200,
    audit: audit('eligibility_request', 'read', () => fx.uid),
  }),
  'GET /api/auth/v2/eligibility/:request_uid/': (fx) => ({
    method: 'get',
    url: `/api/auth/v2/eligibility/${fx.uid}/`,
    status: 200,
    audit: audit('eligibility_request', 'read', () => fx.uid),
  }),
  'GET /api/auth/v2/eligibility/:request_uid/pdf/': (fx) => ({
    method: 'get',
    url: `/api/auth/v2/eligibility/${fx.uid}/pdf/?result_id=${fx.resultId}&person_id=${fx.personId}`,
    status: 200,
    audit: audit('eligibility_request', 'read', () => fx.uid),
  }),
  'POST /api/auth/v1/eligibility/:request_uid/details/': (fx) => ({
    method: 'post',
    url: `/api/auth/v1/eligibility/${fx.uid}/details/`,
    body: { request_uid: fx.uid, result_id: fx.resultId, person_id: fx.personId },
    status: 201,
    audit: audit('eligibility_request', 'create', (r) => r.body.request_uid),
  }),
  'POST /api/auth/v1/patients/': () => ({
    method: 'post',
    url: '/api/auth/v1/patients/',
    body: { first_name: `Ana${unique()}`, last_name: 'Lopez', dob: '1990-01-02' },
    status: 200,
    audit: audit('patient', 'create', (r) => r.body.code),
  }),
  'GET /api/auth/v1/patients/': () => ({
    method: 'get',
    url: '/api/auth/v1/patients/?search=lopez',
    status: 200,
    audit: audit('patient', 'list', () => null),
  }),
  'GET /api/auth/v1/patients/:code/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/patients/${fx.patientCode}/`,
    status: 200,
    audit: audit('patient', 'read', () => fx.patientCode),
  }),
  'POST /api/auth/v1/patients/:code/eligibility/': (fx) => ({
    method: 'post',
    url: `/api/auth/v1/patients/${fx.patientCode}/eligibility/`,
    body: { request_uid: fx.uid },
    status: 200,
    audit: audit('patient', 'link', () => fx.patientCode),
  }),
  'GET /api/auth/v1/patients/:code/eligibility/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/patients/${fx.patientCode}/eligibility/`,
    status: 200,
    audit: audit('patient', 'read', () => fx.patientCode),
  }),
  'POST /api/auth/v1/patients/:code/benefit-history/': (fx) => ({
    method: 'post',
    url: `/api/auth/v1/patients/${fx.patientCode}/benefit-history/`,
    body: { insurer_code: 'insurer:demo:vision', benefit_code: 'exam.routine', date: '2025-03-04' },
    status: 201,
    audit: audit('patient', 'update', () => fx.patientCode),
  }),
  'GET /api/auth/v1/patients/:code/benefit-history/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/patients/${fx.patientCode}/benefit-history/`,
    status: 200,
    audit: audit('patient', 'read', () => fx.patientCode),
  }),
  'POST /api/auth/v1/claims/': () => ({
    method: 'post',
    url: '/api/auth/v1/claims/',
    body: CLAIM_BODY,
    status: 201,
    audit: audit('claim', 'create', (r) => r.body.code),
  }),
  'GET /api/auth/v1/claims/': () => ({
    method: 'get',
    url: '/api/auth/v1/claims/',
    status: 200,
    audit: audit('claim', 'list', () => null),
  }),
  'GET /api/auth/v1/claims/:code/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/claims/${fx.claimCode}/`,
    status: 200,
    audit: audit('claim', 'read', () => fx.claimCode),
  }),
  'GET /api/auth/v1/claims/:code/form/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/claims/${fx.claimCode}/form/`,
    status: 200,
    audit: audit('claim', 'read', () => fx.claimCode),
  }),
  // The fixture claim goes the paper route (no clearinghouse here): it has no 837P, so the call
  // is refused with 404 and records nothing (the audit trail records answers that gave data).
  'GET /api/auth/v1/claims/:code/x12/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/claims/${fx.claimCode}/x12/`,
    status: 404,
  }),
  // The fixture claim may be `ready` or already `ready_to_mail` (the worker's pace), and a
  // second mailing is 409: an unknown code answers the same 404 every time.
  'POST /api/auth/v1/claims/:code/mailed/': () => ({
    method: 'post',
    url: '/api/auth/v1/claims/CLM00000000/mailed/',
    status: 404,
  }),
  'POST /api/auth/v1/claims/:code/notify-customer/': (fx) => ({
    method: 'post',
    url: `/api/auth/v1/claims/${fx.claimCode}/notify-customer/`,
    body: { email: 'maria@example.com' },
    status: 200,
    audit: audit('claim', 'notify', () => fx.claimCode),
  }),
  'POST /api/auth/v1/claim-reports/': () => ({
    method: 'post',
    url: '/api/auth/v1/claim-reports/',
    body: { x12: SAMPLE_999 },
    status: 202,
    audit: audit('claim_report', 'create', (r) => r.body.id),
  }),
  'GET /api/auth/v1/remittances/': () => ({
    method: 'get',
    url: '/api/auth/v1/remittances/',
    status: 200,
    audit: audit('remittance', 'list', () => null),
  }),
  // No remittance in the fixtures: an unknown id answers 404 and records nothing.
  'GET /api/auth/v1/remittances/:id/': () => ({
    method: 'get',
    url: '/api/auth/v1/remittances/00000000-0000-4000-8000-000000000000/',
    status: 404,
  }),
  'GET /api/auth/v1/remittances/:id/x12/': () => ({
    method: 'get',
    url: '/api/auth/v1/remittances/00000000-0000-4000-8000-000000000000/x12/',
    status: 404,
  }),
  'GET /api/auth/v1/insurers/': () => ({
    method: 'get',
    url: '/api/auth/v1/insurers/',
    status: 200,
  }),
  'GET /api/auth/v1/insurers/health/': () => ({
    method: 'get',
    url: '/api/auth/v1/insurers/health/',
    status: 200,
  }),
  'GET /api/auth/v1/verification-tasks/': () => ({
    method: 'get',
    url: `${TASKS}/`,
    status: 200,
    audit: audit('verification_task', 'list', () => null),
  }),
  'GET /api/auth/v1/verification-tasks/:id/': (fx) => ({
    method: 'get',
    url: `${TASKS}/${fx.tasks.read}/`,
    status: 200,
    audit: audit('verification_task', 'read', () => fx.tasks.read),
  }),
  'POST /api/auth/v1/verification-tasks/:id/claim/': (fx) => ({
    method: 'post',
    url: `${TASKS}/${fx.tasks.claim}/claim/`,
    status: 200,
    audit: audit('verification_task', 'update', () => fx.tasks.claim),
  }),
  'POST /api/auth/v1/verification-tasks/:id/complete/': (fx) => ({
    method: 'post',
    url: `${TASKS}/${fx.tasks.complete}/complete/`,
    body: COMPLETE_TASK_BODY,
    status: 200,
    audit: audit('verification_task', 'update', () => fx.tasks.complete),
  }),
  'POST /api/auth/v1/verification-tasks/:id/fail/': (fx) => ({
    method: 'post',
    url: `${TASKS}/${fx.tasks.fail}/fail/`,
    body: { reason: 'portal_down', detail: 'Maintenance.' },
    status: 200,
    audit: audit('verification_task', 'update', () => fx.tasks.fail),
  }),
  'POST /api/auth/v1/verification-tasks/:id/needs-info/': (fx) => ({
    method: 'post',
    url: `${TASKS}/${fx.tasks.needsInfo}/needs-info/`,
    body: { detail: 'Which card?' },
    status: 200,
    audit: audit('verification_task', 'update', () => fx.tasks.needsInfo),
  }),
  'POST /api/auth/v1/verification-tasks/:id/info/': (fx) => ({
    method: 'post',
    url: `${TASKS}/${fx.tasks.info}/info/`,
    body: { detail: 'The blue one.' },
    status: 200,
    audit: audit('verification_task', 'update', () => fx.tasks.info),
  }),
  // `verification:credentials` is never part of a key's default (docs/api.md, Insurers and assisted verification): refused.
  'GET /api/auth/v1/verification-tasks/:id/credentials/': (fx) => ({
    method: 'get',
    url: `${TASKS}/${fx.tasks.read}/credentials/`,
    status: 403,
  }),
  'GET /api/auth/v1/plan-designs/': () => ({
    method: 'get',
    url: '/api/auth/v1/plan-designs/',
    status: 200,
    audit: audit('plan_design', 'list', () => null),
  }),
  'GET /api/auth/v1/plan-designs/:id/': () => ({
    method: 'get',
    url: '/api/auth/v1/plan-designs/00000000-0000-4000-8000-000000000000/',
    status: 404,
  }),
  'POST /api/auth/v1/estimates/': (fx) => ({
    method: 'post',
    url: '/api/auth/v1/estimates/',
    body: {
      request_uid: fx.uid,
      person_id: fx.personId,
      services: [{ codes: ['92014'], cost: '120.00' }],
    },
    status: 200,
    audit: audit('estimate', 'create', () => fx.uid),
  }),
  'POST /api/auth/v1/quotes/': (fx) => ({
    method: 'post',
    url: '/api/auth/v1/quotes/',
    body: { request_uid: fx.uid, person_id: fx.personId, order: QUOTE_ORDER },
    status: 201,
    audit: audit('quote', 'create', (r) => r.body.id),
  }),
  'GET /api/auth/v1/quotes/:id/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/quotes/${fx.quoteId}/`,
    status: 200,
    audit: audit('quote', 'read', () => fx.quoteId),
  }),
  'GET /api/auth/v1/quotes/:id/pdf/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/quotes/${fx.quoteId}/pdf/`,
    status: 200,
    audit: audit('quote', 'read', () => fx.quoteId),
  }),
  // docs/api.md, Next eligible dates: stateless, nothing naming a patient; no audit event.
  'POST /api/auth/v1/benefits/next-eligible/': () => ({
    method: 'post',
    url: '/api/auth/v1/benefits/next-eligible/',
    body: {
      as_of: '2026-01-15',
      rules: [
        {
          benefit_code: 'exam.routine',
          frequency: { count: 1, period: { kind: 'rolling', months: 12 } },
        },
      ],
      history: [{ benefit_code: 'exam.routine', date: '2025-06-01' }],
    },
    status: 200,
  }),
  'POST /api/auth/v1/eligibility/batches/': () => ({
    method: 'post',
    url: '/api/auth/v1/eligibility/batches/',
    body: { items: [{ insurer_code: 'insurer:demo:vision', patient: patient() }] },
    status: 201,
    audit: audit('eligibility_batch', 'create', (res) => res.body.batch_uid),
  }),
  'GET /api/auth/v1/eligibility/batches/:batch_uid/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/eligibility/batches/${fx.batchUid}/`,
    status: 200,
    audit: audit('eligibility_batch', 'read', () => fx.batchUid),
  }),
  'GET /api/auth/v1/eligibility/batches/:batch_uid/items/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/eligibility/batches/${fx.batchUid}/items/`,
    status: 200,
    audit: audit('eligibility_batch', 'list', () => fx.batchUid),
  }),
  'PUT /api/auth/v1/appointments/:external_id/': () => ({
    method: 'put',
    url: `${APPOINTMENTS}/visit-${unique()}/`,
    body: APPOINTMENT_BODY,
    status: 201,
    audit: audit('appointment', 'update', (r) => r.body.external_id),
  }),
  'GET /api/auth/v1/appointments/:external_id/': (fx) => ({
    method: 'get',
    url: `${APPOINTMENTS}/${fx.appointmentId}/`,
    status: 200,
    audit: audit('appointment', 'read', () => fx.appointmentId),
  }),
  'DELETE /api/auth/v1/appointments/:external_id/': (fx) => ({
    method: 'delete',
    url: `${APPOINTMENTS}/${fx.appointmentId}/`,
    status: 200,
    audit: audit('appointment', 'update', () => fx.appointmentId),
  }),
  'POST /api/auth/v1/appointments/:external_id/check/': (fx) => ({
    method: 'post',
    url: `${APPOINTMENTS}/${fx.upcomingId}/check/`,
    status: 202,
    audit: audit('appointment', 'update', () => fx.upcomingId),
  }),
  'GET /api/auth/v1/appointments/': () => ({
    method: 'get',
    url: `${APPOINTMENTS}/?from=2026-11-24T00:00:00Z`,
    status: 200,
    audit: audit('appointment', 'list', () => null),
  }),
  // A window of its own: the sync cancels none of the fixtures.
  'POST /api/auth/v1/appointments/sync/': () => ({
    method: 'post',
    url: `${APPOINTMENTS}/sync/`,
    body: { from: '2031-01-01T00:00:00Z', to: '2031-01-02T00:00:00Z', appointments: [] },
    status: 200,
    audit: audit('appointment', 'update', () => null),
  }),
  'GET /api/auth/v1/appointment-policy/': () => ({
    method: 'get',
    url: '/api/auth/v1/appointment-policy/',
    status: 200,
  }),
  'PUT /api/auth/v1/appointment-policy/': () => ({
    method: 'put',
    url: '/api/auth/v1/appointment-policy/',
    body: {
      on_booking: true,
      days_before: [3],
      hours_before: [24],
      freshness_hours: 48,
      statuses: ['booked', 'arrived'],
    },
    status: 200,
  }),
  'GET /api/auth/v1/audit-events/': () => ({
    method: 'get',
    url: '/api/auth/v1/audit-events/',
    status: 200,
  }),
  'GET /api/auth/v1/locations/': () => ({
    method: 'get',
    url: '/api/auth/v1/locations/',
    status: 200,
  }),
  'POST /api/auth/v1/locations/': () => ({
    method: 'post',
    url: '/api/auth/v1/locations/',
    body: { title: `Branch ${unique()}` },
    status: 201,
  }),
  'PATCH /api/auth/v1/locations/:code/': (fx) => ({
    method: 'patch',
    url: `/api/auth/v1/locations/${fx.locationCode}/`,
    body: { organization_name: `Practice ${unique()}` },
    status: 200,
  }),
  'POST /api/auth/v1/iframe-session/': () => ({
    method: 'post',
    url: '/api/auth/v1/iframe-session/',
    body: { entry_point: 'add_patient' },
    status: 200,
  }),
  'POST /api/auth/v1/webhooks/': () => ({
    method: 'post',
    url: '/api/auth/v1/webhooks/',
    body: { url: 'http://127.0.0.1:9/hook' },
    status: 201,
  }),
  'GET /api/auth/v1/webhooks/': () => ({
    method: 'get',
    url: '/api/auth/v1/webhooks/',
    status: 200,
  }),
  'GET /api/auth/v1/webhooks/:id/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/webhooks/${fx.webhookId}/`,
    status: 200,
  }),
  'PATCH /api/auth/v1/webhooks/:id/': (fx) => ({
    method: 'patch',
    url: `/api/auth/v1/webhooks/${fx.webhookId}/`,
    body: { description: 'Front desk' },
    status: 200,
  }),
  'DELETE /api/auth/v1/webhooks/:id/': (fx) => ({
    method: 'delete',
    url: `/api/auth/v1/webhooks/${fx.webhookId}/`,
    status: 204,
  }),
  'GET /api/auth/v1/webhooks/:id/deliveries/': (fx) => ({
    method: 'get',
    url: `/api/auth/v1/webhooks/${fx.webhookId}/deliveries/`,
    status: 200,
  }),
  'POST /api/auth/v1/webhooks/:id/deliveries/:delivery_id/redeliver/': (fx) => ({
    method: 'post',
    url: `/api/auth/v1/webhooks/${fx.webhookId}/deliveries/00000000-0000-4000-8000-000000000000/redeliver/`,
    status: 404,
  }),
};

/** The application's API routes (isApiPath: the JSON API and the doors), with their declarations. */
export function apiRoutes(app: INestApplication): RouteDeclaration[] {
  return listRoutes(app.get(DiscoveryService), app.get(MetadataScanner)).filter((r) =>
    isApiPath(r.path),
  );
}

export const routeKey = (r: RouteDeclaration) => `${r.method} ${r.path}`;

/** A complete search, a patient, a claim and a webhook of the account. */
export async function createFixtures(app: INestApplication, a: TestAccount): Promise<Fixtures> {
  const http = () => request(app.getHttpServer());
  const uid = await startSearch(app, a.auth, { patient: patient() });
  const result = await waitForResult(app, a.auth, uid);
  const found = await http()
    .get(`${FHIR}/CoverageEligibilityResponse?identifier=${UID_SYSTEM}|${uid}`)
    .set(a.auth)
    .expect(200);
  const responseId = found.body.entry[0].resource.id as string;
  const fhir = { responseId, patientId: responseId.replace(/-\d+$/, '') };
  const patientRes = await http()
    .post('/api/auth/v1/patients/')
    .set(a.auth)
    .send({ first_name: 'Rosa', last_name: 'Diaz', dob: '1979-03-04' })
    .expect(200);
  const claim = await http().post('/api/auth/v1/claims/').set(a.auth).send(CLAIM_BODY).expect(201);
  const batch = await http()
    .post('/api/auth/v1/eligibility/batches/')
    .set(a.auth)
    .send({
      items: [
        { insurer_code: 'insurer:demo:vision', patient: patient({ first_name: 'Ana' }) },
        { insurer_code: 'insurer:demo:vision', patient: patient({ first_name: 'Luis' }) },
      ],
    })
    .expect(201);
  const appointmentId = `visit-${unique()}`;
  await http()
    .put(`${APPOINTMENTS}/${appointmentId}/`)
    .set(a.auth)
    .send(APPOINTMENT_BODY)
    .expect(201);
  const upcomingId = `upcoming-${unique()}`;
  await http()
    .put(`${APPOINTMENTS}/${upcomingId}/`)
    .set(a.auth)
    .send({
      ...APPOINTMENT_BODY,
      starts_at: '2031-06-16T15:00:00-05:00',
      insurer_code: 'insurer:demo:vision',
    })
    .expect(201);
  const quote = await http()
    .post('/api/auth/v1/quotes/')
    .set(a.auth)
    .send({ request_uid: uid, person_id: result.results[0].persons[0].id, order: QUOTE_ORDER })
    .expect(201);
  const webhook = await http()
    .post('/api/auth/v1/webhooks/')
    .set(a.auth)
    .send({ url: 'http://127.0.0.1:9/hook', is_active: false })
    .expect(201);
  const task = async () => {
    const vsp = await startSearch(app, a.auth, {
      insurer_code: 'insurer:vision:vsp',
      patient: patient(),
    });
    for (let i = 0; i < 300; i++) {
      const res = await http().get(`/api/auth/v1/eligibility/${vsp}/`).set(a.auth);
      if (res.body.verification) return res.body.verification.task_id as string;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no verification task for ${vsp}`);
  };
  const tasks = {
    read: await task(),
    claim: await task(),
    complete: await task(),
    fail: await task(),
    needsInfo: await task(),
    info: await task(),
  };
  await http()
    .post(`${TASKS}/${tasks.info}/needs-info/`)
    .set(a.auth)
    .send({ detail: 'Which card?' })
    .expect(200);
  return {
    tasks,
    uid,
    resultId: result.results[0].id,
    personId: result.results[0].persons[0].id,
    patientCode: patientRes.body.code,
    claimCode: claim.body.code,
    webhookId: webhook.body.id,
    locationCode: a.locationCode,
    batchUid: batch.body.batch_uid,
    appointmentId,
    upcomingId,
    quoteId: quote.body.id,
    fhir,
  };
}

/** Sends a sample with the given key and request id. */
export function send(
  app: INestApplication,
  sample: RouteSample,
  auth: { Authorization: string },
  requestId: string,
): request.Test {
  const call = request(app.getHttpServer())
    [sample.method](sample.url)
    .set(auth)
    .set('X-Request-Id', requestId);
  if (sample.headers) call.set(sample.headers);
  return sample.body ? call.send(sample.body) : call;
}
