/**
 * The FHIR door's names (docs/api.md, FHIR R4): where it is served, and the canonical base of
 * its own definitions. The canonical base is a constant, not the host a request came to: a
 * resource says the same URL for an extension wherever it was read.
 */
export const FHIR_PATH = 'fhir/R4';
export const CANONICAL_BASE = 'https://fhir.vision-eligibility.example/fhir/R4';
export const FHIR_VERSION = '4.0.1';
export const FHIR_JSON = 'application/fhir+json';

export const extensionUrl = (id: ExtensionId) => `${CANONICAL_BASE}/StructureDefinition/${id}`;
export const EXTENSION_IDS = ['wait-for', 'benefit-frequency', 'next-eligible-date'] as const;
export type ExtensionId = (typeof EXTENSION_IDS)[number];

/** Identifier and code systems of the service's own values. */
export const SYSTEMS = {
  requestUid: 'urn:vision-eligibility:request-uid',
  insurerCode: 'urn:vision-eligibility:insurer-code',
  patient: 'urn:vision-eligibility:patient',
  memberId: 'urn:vision-eligibility:member-id',
  errorCode: 'urn:vision-eligibility:error-code',
  aaaReason: 'urn:vision-eligibility:x12-aaa-reject-reason',
  frequencyPeriod: 'urn:vision-eligibility:frequency-period',
  // Published code systems.
  serviceType: 'https://x12.org/codes/service-type-codes',
  cpt: 'http://www.ama-assn.org/go/cpt',
  hcpcs: 'urn:oid:2.16.840.1.113883.6.285',
  benefitType: 'http://terminology.hl7.org/CodeSystem/benefit-type',
  benefitNetwork: 'http://terminology.hl7.org/CodeSystem/benefit-network',
  benefitUnit: 'http://terminology.hl7.org/CodeSystem/benefit-unit',
  identifierType: 'http://terminology.hl7.org/CodeSystem/v2-0203',
  relationship: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship',
  actCode: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
} as const;

export const US_CORE_PATIENT = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';

/** A FHIR resource as this door writes it: plain JSON. */
export type FhirResource = { resourceType: string; id?: string; [key: string]: unknown };
