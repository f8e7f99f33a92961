import { type ErrorTree, ValidationFailed } from '@/platform/kernel/errors';
import { createValidationPipe } from '@/platform/http/validation/validation-errors';
import { CreateEligibilityDto } from '@/modules/eligibility';
import { extensionUrl, SYSTEMS, type FhirResource } from './fhir.constants';

/** The API's own pipe (as registered globally): the same rules and messages as the JSON POST. */
const pipe = createValidationPipe();

/** What a $submit Bundle may hold (docs/api.md, FHIR R4). */
const ACCEPTED = [
  'CoverageEligibilityRequest',
  'Patient',
  'Coverage',
  'Organization',
  'Practitioner',
  'PractitionerRole',
  'Location',
] as const;

/** The JSON fields of a search and where a $submit Bundle gives them. */
const FIELD_PATHS: Record<string, string> = {
  'patient.first_name': 'Patient.name[0].given[0]',
  'patient.last_name': 'Patient.name[0].family',
  'patient.dob': 'Patient.birthDate',
  'patient.zipcode': 'Patient.address[0].postalCode',
  'patient.member_id': 'Coverage.subscriberId',
  'patient.ssn_last_four': 'Patient.identifier',
  insurer_code: 'CoverageEligibilityRequest.insurer',
  insurer_code_list: 'CoverageEligibilityRequest.insurer',
  request_uid: 'CoverageEligibilityRequest.identifier',
  wait_for: `CoverageEligibilityRequest.extension('${extensionUrl('wait-for')}')`,
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const refuse = (message: string): never => {
  throw ValidationFailed.request(message);
};

/**
 * A $submit Bundle as the JSON API's search body: one CoverageEligibilityRequest is a search of
 * its insurer, several (one per insurer) one Universal Search. Refuses, with a whole-request
 * error, a body that is no collection Bundle of one patient's requests; the search's own fields
 * are then validated by the JSON route's pipe, their errors named by where the Bundle gives them.
 */
export async function searchOfBundle(
  sent: unknown,
): Promise<{ dto: CreateEligibilityDto; requests: number }> {
  const body = unwrapped(sent);
  if (!isObject(body) || body.resourceType !== 'Bundle')
    refuse('The body must be a FHIR Bundle (resourceType "Bundle").');
  const bundle = body as Json;
  if (bundle.type !== 'collection') refuse('The Bundle must be of type "collection".');
  if (!Array.isArray(bundle.entry) || bundle.entry.length === 0) refuse('The Bundle has no entry.');
  const resources = (bundle.entry as unknown[]).map((entry, i) => {
    if (!isObject(entry) || !isObject(entry.resource))
      refuse(`Bundle.entry[${i}] has no resource.`);
    const resource = (entry as Json).resource as FhirResource;
    const type = resource.resourceType;
    if (typeof type !== 'string' || !(ACCEPTED as readonly string[]).includes(type))
      refuse(
        `Bundle.entry[${i}] is a ${typeof type === 'string' ? type : 'resource without resourceType'}: ` +
          `a $submit Bundle holds ${ACCEPTED.join(', ')} only.`,
      );
    const fullUrl = typeof (entry as Json).fullUrl === 'string' ? (entry as Json).fullUrl : null;
    return { resource, fullUrl: fullUrl as string | null };
  });
  const find = (reference: unknown, type: string): FhirResource | null => {
    if (!isObject(reference) || typeof reference.reference !== 'string') return null;
    const ref = reference.reference;
    const hit = resources.find(
      ({ resource, fullUrl }) =>
        resource.resourceType === type &&
        (fullUrl === ref || (resource.id !== undefined && `${type}/${resource.id}` === ref)),
    );
    return hit?.resource ?? null;
  };

  const requests = resources
    .map((r) => r.resource)
    .filter((r) => r.resourceType === 'CoverageEligibilityRequest');
  if (requests.length === 0) refuse('The Bundle holds no CoverageEligibilityRequest.');
  if (requests.length > 10)
    refuse('A $submit Bundle holds at most 10 CoverageEligibilityRequests (one per insurer).');
  const patients = resources.map((r) => r.resource).filter((r) => r.resourceType === 'Patient');
  if (patients.length !== 1) refuse('The Bundle must hold exactly one Patient.');
  const patient = patients[0];

  const codes = requests.map((request, i) => {
    const where = `CoverageEligibilityRequest ${i + 1}`;
    if (find(request.patient, 'Patient') !== patient)
      refuse(`${where}: its patient must reference the Bundle's Patient.`);
    const insurer = find(request.insurer, 'Organization');
    const code = insurer ? identifierValue(insurer.identifier, SYSTEMS.insurerCode) : null;
    if (code === null)
      refuse(
        `${where}: its insurer must reference an Organization of the Bundle with an identifier ` +
          `of system ${SYSTEMS.insurerCode}.`,
      );
    return code!;
  });
  const coverage = coverageOf(requests[0], find);
  const first = requests[0];
  const name = (Array.isArray(patient.name) ? patient.name[0] : undefined) as Json | undefined;
  const address = (Array.isArray(patient.address) ? patient.address[0] : undefined) as
    Json | undefined;
  const waitFor = extensionValue(first.extension, extensionUrl('wait-for'));
  const plain: Json = {
    ...(requests.length === 1 ? { insurer_code: codes[0] } : { insurer_code_list: codes }),
    request_uid: identifierValue(first.identifier, SYSTEMS.requestUid),
    patient: {
      first_name: Array.isArray(name?.given) ? name.given[0] : undefined,
      last_name: name?.family,
      dob: patient.birthDate,
      zipcode: address?.postalCode,
      member_id: coverage?.subscriberId ?? null,
    },
    wait_for: waitFor ?? (requests.length > 1 ? 'electronic' : null),
  };
  const dto = (await inFhirTerms(() =>
    pipe.transform(plain, { type: 'body', metatype: CreateEligibilityDto }),
  )) as CreateEligibilityDto;
  return { dto, requests: requests.length };
}

/**
 * `work`, its field errors (the JSON API's, keyed by its fields) named by where a $submit Bundle
 * gives each field: the pipe's and the intake's alike (a request uid already used).
 */
export async function inFhirTerms<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ValidationFailed) throw new ValidationFailed(renamed(e.errors));
    throw e;
  }
}

/** The standard form of $submit's input, a Parameters with a `resource`, or the Bundle itself. */
function unwrapped(body: unknown): unknown {
  if (!isObject(body) || body.resourceType !== 'Parameters' || !Array.isArray(body.parameter))
    return body;
  const resource = (body.parameter as unknown[]).find(
    (p) => isObject(p) && p.name === 'resource' && isObject(p.resource),
  ) as Json | undefined;
  return resource ? resource.resource : body;
}

function coverageOf(
  request: FhirResource,
  find: (reference: unknown, type: string) => FhirResource | null,
): Json | null {
  const insurance = Array.isArray(request.insurance) ? (request.insurance as unknown[]) : [];
  for (const i of insurance) {
    const coverage = isObject(i) ? find(i.coverage, 'Coverage') : null;
    if (coverage) return coverage;
  }
  return null;
}

function identifierValue(identifiers: unknown, system: string): string | null {
  if (!Array.isArray(identifiers)) return null;
  const hit = (identifiers as unknown[]).find(
    (i) => isObject(i) && i.system === system && typeof i.value === 'string',
  ) as Json | undefined;
  return hit ? (hit.value as string) : null;
}

function extensionValue(extensions: unknown, url: string): unknown {
  if (!Array.isArray(extensions)) return undefined;
  const hit = (extensions as unknown[]).find((x) => isObject(x) && x.url === url) as
    Json | undefined;
  return hit ? (hit.valueCode ?? hit.valueString) : undefined;
}

/** The JSON route's error tree, its fields named as the Bundle gives them. */
function renamed(tree: ErrorTree): ErrorTree {
  const out: ErrorTree = {};
  const walk = (node: unknown, path: string[]) => {
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$') {
        const joined = path.join('.');
        const name = path.length === 0 ? '$' : (FIELD_PATHS[joined] ?? joined);
        const list = (out[name] as string[] | undefined) ?? [];
        list.push(...(value as string[]));
        out[name] = list;
      } else walk(value, [...path, key]);
    }
  };
  walk(tree, []);
  // Flat keys: each is one FHIR path, a list of messages.
  return Object.fromEntries(
    Object.entries(out).map(([k, v]) => (k === '$' ? [k, v] : [k, { $: v }])),
  ) as ErrorTree;
}
