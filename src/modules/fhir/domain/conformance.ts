import {
  CANONICAL_BASE,
  EXTENSION_IDS,
  extensionUrl,
  FHIR_VERSION,
  type ExtensionId,
  type FhirResource,
} from './fhir.constants';

/** The door's own extensions (docs/api.md, FHIR R4): where each goes and the value it takes. */
const EXTENSIONS: Record<
  ExtensionId,
  { title: string; description: string; context: string; type: string }
> = {
  'wait-for': {
    title: 'Wait for',
    description:
      'When a Universal Search is complete: all, electronic (default) or first_active, as the ' +
      "JSON API's wait_for. Read on the first CoverageEligibilityRequest of a $submit Bundle.",
    context: 'CoverageEligibilityRequest',
    type: 'code',
  },
  'benefit-frequency': {
    title: 'Benefit frequency',
    description:
      'How often the plan allows the benefit: repeat.frequency services per repeat.period ' +
      'months; code says how the period is counted (rolling, calendar_year, plan_year).',
    context: 'CoverageEligibilityResponse.insurance.item',
    type: 'Timing',
  },
  'next-eligible-date': {
    title: 'Next eligible date',
    description: 'The first date the patient can have the benefit again.',
    context: 'CoverageEligibilityResponse.insurance.item',
    type: 'date',
  },
};

export function isExtensionId(id: string): id is ExtensionId {
  return (EXTENSION_IDS as readonly string[]).includes(id);
}

/** An extension's StructureDefinition: a simple extension, one value of one type. */
export function structureDefinition(id: ExtensionId): FhirResource {
  const e = EXTENSIONS[id];
  const name = e.title.replace(/\s+/g, '');
  const valueElement = `value${e.type[0].toUpperCase()}${e.type.slice(1)}`;
  return {
    resourceType: 'StructureDefinition',
    id,
    url: extensionUrl(id),
    version: '1.0.0',
    name,
    title: e.title,
    status: 'active',
    description: e.description,
    fhirVersion: FHIR_VERSION,
    kind: 'complex-type',
    abstract: false,
    context: [{ type: 'element', expression: e.context }],
    type: 'Extension',
    baseDefinition: 'http://hl7.org/fhir/StructureDefinition/Extension',
    derivation: 'constraint',
    differential: {
      element: [
        { id: 'Extension', path: 'Extension', short: e.title, definition: e.description, max: '1' },
        { id: 'Extension.extension', path: 'Extension.extension', max: '0' },
        { id: 'Extension.url', path: 'Extension.url', fixedUri: extensionUrl(id) },
        {
          id: 'Extension.value[x]',
          path: 'Extension.value[x]',
          min: 1,
          type: [{ code: e.type }],
        },
        {
          id: `Extension.value[x]:${valueElement}`,
          path: 'Extension.value[x]',
          sliceName: valueElement,
          type: [{ code: e.type }],
        },
      ],
    },
  };
}

/**
 * When the statement last changed: a constant, so that its answer is the same bytes every time
 * (its ETag answers If-None-Match with 304, as every GET of the API does).
 */
const CAPABILITY_DATE = '2026-12-06';

/** What the door serves (GET metadata). */
export function capabilityStatement(): FhirResource {
  const read = [{ code: 'read' }];
  return {
    resourceType: 'CapabilityStatement',
    url: `${CANONICAL_BASE}/CapabilityStatement/vision-eligibility`,
    name: 'VisionEligibility',
    title: 'Vision insurance eligibility: FHIR R4 door',
    status: 'active',
    date: CAPABILITY_DATE,
    kind: 'instance',
    implementation: { description: 'Vision insurance eligibility checks (docs/api.md, FHIR R4)' },
    fhirVersion: FHIR_VERSION,
    format: ['json'],
    rest: [
      {
        mode: 'server',
        security: {
          description:
            'An API key, as `Authorization: Bearer <key>` or `Authorization: Api <key>`, with ' +
            'the scopes of the JSON API (eligibility:write to submit, eligibility:read to read).',
        },
        resource: [
          {
            type: 'CoverageEligibilityRequest',
            operation: [
              {
                name: 'submit',
                definition:
                  'http://hl7.org/fhir/OperationDefinition/CoverageEligibilityRequest-submit',
              },
            ],
          },
          {
            type: 'CoverageEligibilityResponse',
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            searchParam: [
              { name: 'identifier', type: 'token' },
              { name: 'request', type: 'reference' },
              { name: 'patient', type: 'reference' },
              { name: 'created', type: 'date' },
            ],
          },
          {
            type: 'Patient',
            supportedProfile: ['http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient'],
            interaction: read,
          },
          { type: 'Coverage', interaction: read },
          { type: 'StructureDefinition', interaction: read },
        ],
      },
    ],
  };
}
