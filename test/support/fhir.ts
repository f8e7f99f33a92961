import type { INestApplication } from '@nestjs/common';
import request from 'supertest';

/** The door's own names, as a client writes them (docs/api.md, FHIR R4). */
export const FHIR = '/fhir/R4';
export const FHIR_JSON = 'application/fhir+json';
export const CANONICAL = 'https://fhir.vision-eligibility.example/fhir/R4';
export const INSURER_SYSTEM = 'urn:vision-eligibility:insurer-code';
export const UID_SYSTEM = 'urn:vision-eligibility:request-uid';

type Json = any;

export interface BundlePatient {
  given?: string;
  family?: string;
  birthDate?: string;
  postalCode?: string;
  memberId?: string;
}

/**
 * A $submit Bundle: one CoverageEligibilityRequest per insurer for one Patient, its Coverage,
 * the insurers' Organizations and a provider (docs/api.md, FHIR R4's example, generalised).
 */
export function submitBundle(
  insurers: string[],
  p: BundlePatient = {},
  extra: { waitFor?: string; requestUid?: string } = {},
): Json {
  const patient = {
    resourceType: 'Patient',
    id: 'p1',
    name: [{ family: p.family ?? 'Garcia', given: [p.given ?? 'Maria'] }],
    gender: 'female',
    birthDate: p.birthDate ?? '1984-06-15',
    address: [{ postalCode: p.postalCode ?? '78701' }],
  };
  const orgs = insurers.map((code, i) => ({
    resourceType: 'Organization',
    id: `ins${i + 1}`,
    identifier: [{ system: INSURER_SYSTEM, value: code }],
    name: code,
  }));
  const coverage = {
    resourceType: 'Coverage',
    id: 'cov1',
    status: 'active',
    ...(p.memberId === undefined ? {} : { subscriberId: p.memberId }),
    beneficiary: { reference: 'Patient/p1' },
    payor: [{ reference: 'Organization/ins1' }],
  };
  const provider = {
    resourceType: 'Practitioner',
    id: 'dr1',
    identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' }],
    name: [{ family: 'Nguyen', given: ['Ana'] }],
  };
  const requests = insurers.map((_, i) => ({
    resourceType: 'CoverageEligibilityRequest',
    id: `req${i + 1}`,
    ...(i === 0 && extra.waitFor
      ? {
          extension: [
            { url: `${CANONICAL}/StructureDefinition/wait-for`, valueCode: extra.waitFor },
          ],
        }
      : {}),
    ...(i === 0 && extra.requestUid
      ? { identifier: [{ system: UID_SYSTEM, value: extra.requestUid }] }
      : {}),
    status: 'active',
    purpose: ['benefits'],
    patient: { reference: 'Patient/p1' },
    created: '2026-12-06',
    provider: { reference: 'Practitioner/dr1' },
    insurer: { reference: `Organization/ins${i + 1}` },
    insurance: [{ coverage: { reference: 'Coverage/cov1' } }],
  }));
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [...requests, patient, coverage, ...orgs, provider].map((resource) => ({
      fullUrl: `urn:uuid:00000000-0000-4000-8000-${String(Math.abs(hash(JSON.stringify(resource))))
        .padStart(12, '0')
        .slice(0, 12)}`,
      resource,
    })),
  };
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return h;
}

/** POSTs a $submit Bundle (Bearer, as FHIR clients send the key). */
export function submit(app: INestApplication, key: string, bundle: unknown) {
  return request(app.getHttpServer())
    .post(`${FHIR}/CoverageEligibilityRequest/$submit`)
    .set('Authorization', `Bearer ${key}`)
    .set('Content-Type', FHIR_JSON)
    .send(JSON.stringify(bundle));
}

export function fhirGet(app: INestApplication, key: string, path: string) {
  return request(app.getHttpServer())
    .get(`${FHIR}/${path}`)
    .set('Authorization', `Bearer ${key}`)
    .set('Accept', FHIR_JSON);
}

/** Polls a CoverageEligibilityResponse until its outcome is one of `until` (bounded). */
export async function pollOutcome(
  app: INestApplication,
  key: string,
  id: string,
  until: string[] = ['complete', 'error'],
  timeoutMs = 30_000,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fhirGet(app, key, `CoverageEligibilityResponse/${id}`);
    if (res.status !== 200) throw new Error(`GET ${id}: ${res.status} ${res.text}`);
    const body = JSON.parse(res.text);
    if (until.includes(body.outcome)) return body;
    if (Date.now() > deadline) throw new Error(`${id} still ${body.outcome} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
