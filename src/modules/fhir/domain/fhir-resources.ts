import { formatInstant } from '@/platform/kernel/time';
import { serviceCodeForBenefit } from '@/lib/benefits';
import { insurerName } from '@/lib/insurer-codes';
import { extensionUrl, SYSTEMS, US_CORE_PATIENT, type FhirResource } from './fhir.constants';

/**
 * The door's resources from what the JSON API stores (docs/api.md, FHIR R4): pure functions of a
 * request, its V2 answer and its exchanges' AAA codes. Ids are derived from stored ids: the
 * Patient is the request's id, the n-th insurer's CoverageEligibilityResponse and Coverage are
 * `<request id>-<n>`.
 */

type Json = Record<string, any>;

/** The stored request, as the door reads it. */
export interface RequestView {
  id: string;
  uid: string;
  createdAt: Date;
  insurerCodes: string[];
  query: {
    firstName: string;
    lastName: string;
    dob: string;
    zipcode?: string | null;
    memberId?: string | null;
    subscriber?: unknown;
  };
}

/** The V2 answer's parts the door maps (docs/api.md, V1 and V2 results). */
export interface V2View {
  status: string;
  error_code: string | null;
  error_detail: string | null;
  results: Json[] | null;
  insurers?: Json[];
}

export const responseId = (request: RequestView, n: number) => `${request.id}-${n}`;

/** `<request id>-<n>` → its parts, or null when the id is not one the door hands out. */
export function parseResponseId(id: string): { requestId: string; n: number } | null {
  const m = /^([1-9]\d{0,17})-([1-9]\d?)$/.exec(id);
  return m ? { requestId: m[1], n: Number(m[2]) } : null;
}

export function parsePatientId(id: string): string | null {
  return /^[1-9]\d{0,17}$/.test(id) ? id : null;
}

const insurerRef = (code: string) => ({
  identifier: { system: SYSTEMS.insurerCode, value: code },
  display: insurerName(code),
});

const coding = (system: string, code: string, display?: string) => ({
  coding: [{ system, code, ...(display ? { display } : {}) }],
});

/** The outcome of the n-th insurer: queued → partial (a person checking) → complete | error. */
export function outcomeOf(v2: V2View, entry: Json | undefined): string {
  if (v2.status === 'error') return 'error';
  const state = entry?.state as string | undefined;
  if (state === 'failed') return 'error';
  if (state === 'waiting_for_person') return 'partial';
  if (state === 'found' || state === 'no_plan' || state === 'not_asked') return 'complete';
  return v2.status === 'complete' ? 'complete' : 'queued';
}

export function coverageEligibilityResponse(
  request: RequestView,
  n: number,
  v2: V2View,
  aaaCodes: string[],
): FhirResource {
  const code = request.insurerCodes[n - 1];
  const entry = (v2.insurers ?? []).find<Json>((e): e is Json => e.insurer_code === code);
  const outcome = outcomeOf(v2, entry);
  const uid = { system: SYSTEMS.requestUid, value: request.uid };
  const out: FhirResource = {
    resourceType: 'CoverageEligibilityResponse',
    id: responseId(request, n),
    identifier: [uid],
    status: 'active',
    purpose: ['benefits'],
    patient: { reference: `Patient/${request.id}` },
    created: formatInstant(request.createdAt, 'api'),
    request: { type: 'CoverageEligibilityRequest', identifier: uid },
    outcome,
    insurer: insurerRef(code),
  };
  const disposition = entry?.detail ?? (outcome === 'error' ? v2.error_detail : null);
  if (typeof disposition === 'string' && disposition) out.disposition = disposition;
  if (outcome === 'complete') {
    const ids = new Set<number>((entry?.result_ids as number[] | undefined) ?? []);
    const plans = (v2.results ?? []).filter(
      (r) => r.insurer_code === code && (ids.size === 0 || ids.has(r.id as number)),
    );
    const insurance = plans.map((plan) => insuranceOf(request, n, plan));
    if (insurance.length > 0) out.insurance = insurance;
  }
  if (outcome === 'error') {
    const errorCode =
      v2.status === 'error' ? (v2.error_code ?? 'insurer_problem') : 'insurer_problem';
    out.error = [
      {
        code: {
          coding: [
            { system: SYSTEMS.errorCode, code: errorCode },
            ...aaaCodes.map((c) => ({ system: SYSTEMS.aaaReason, code: c })),
          ],
          ...(typeof disposition === 'string' && disposition ? { text: disposition } : {}),
        },
      },
    ];
  }
  return out;
}

/** The person of a plan the request asked about: by name and date of birth, else the first. */
function personOf(request: RequestView, plan: Json): Json | undefined {
  const persons = (plan.persons as Json[] | undefined) ?? [];
  const same = (a: unknown, b: unknown) =>
    typeof a === 'string' &&
    typeof b === 'string' &&
    a.trim().toLowerCase() === b.trim().toLowerCase();
  return (
    persons.find(
      (p) =>
        same(p.first_name, request.query.firstName) &&
        same(p.last_name, request.query.lastName) &&
        p.dob === request.query.dob,
    ) ?? persons[0]
  );
}

function insuranceOf(request: RequestView, n: number, plan: Json): Json {
  const person = personOf(request, plan);
  const benefitPlan = (person?.plan ?? {}) as Json;
  const start = benefitPlan.begin_date ?? plan.plan_begin_date;
  const end = benefitPlan.end_date ?? plan.plan_end_date;
  const items: Json[] = [];
  const networks: ('inn' | 'oon')[] =
    benefitPlan.insurer_state === 'oon' ? ['inn', 'oon'] : ['inn'];
  const walk = (list: Json[] | undefined) => {
    for (const item of list ?? []) {
      for (const network of networks) {
        const mapped = itemOf(item, network);
        if (mapped) items.push(mapped);
      }
      walk(item.items as Json[] | undefined);
    }
  };
  walk(benefitPlan.items as Json[] | undefined);
  return {
    coverage: { reference: `Coverage/${responseId(request, n)}` },
    inforce: plan.status === 'active',
    ...(start ? { benefitPeriod: { start, ...(end ? { end } : {}) } } : {}),
    ...(items.length > 0 ? { item: items } : {}),
  };
}

/** The entries of a flag-based list that apply in `network` (no network flag: both). */
function applying(list: unknown, network: 'inn' | 'oon'): Json[] {
  if (!Array.isArray(list)) return [];
  return (list as Json[]).filter((e) => {
    const flags = (e.flags as string[] | undefined) ?? [];
    const other = network === 'inn' ? 'oon' : 'inn';
    return !flags.includes(other);
  });
}

const money = (value: unknown) => ({ value: Number(value), currency: 'USD' });

function itemOf(item: Json, network: 'inn' | 'oon'): Json | null {
  const benefitCode = String(item.benefit_code ?? '');
  const flags = (item.flags as string[] | undefined) ?? [];
  if (flags.includes(network === 'inn' ? 'oon' : 'inn')) return null;
  const first = (name: string) => applying(item[name], network)[0];
  const benefits: Json[] = [];
  const add = (type: string, allowed: Json | null, used: Json | null) => {
    if (allowed || used)
      benefits.push({ type: coding(SYSTEMS.benefitType, type), ...allowed, ...used });
  };
  const copay = first('copayment');
  if (copay) add('copay', { allowedMoney: money(copay.value) }, null);
  const coinsurance = first('coinsurance');
  if (coinsurance) add('copay-percent', { allowedString: String(coinsurance.value) }, null);
  const allowance = first('allowance');
  const accepted = first('allowance_accepted');
  if (allowance || accepted)
    add(
      'benefit',
      allowance ? { allowedMoney: money(allowance.value) } : null,
      accepted ? { usedMoney: money(accepted.value) } : null,
    );
  const deductible = first('deductible');
  if (deductible) add('deductible', { allowedMoney: money(deductible.value) }, null);
  const quantity = first('quantity');
  const quantityUsed = first('quantity_accepted');
  if (quantity || quantityUsed)
    add(
      'visit',
      quantity ? { allowedUnsignedInt: Number(quantity.value) } : null,
      quantityUsed ? { usedUnsignedInt: Number(quantityUsed.value) } : null,
    );
  const code = serviceCodeForBenefit(benefitCode);
  const named =
    code.kind === 'service_type'
      ? { category: coding(SYSTEMS.serviceType, code.code) }
      : {
          productOrService: coding(code.system === 'cpt' ? SYSTEMS.cpt : SYSTEMS.hcpcs, code.code),
        };
  const extension: Json[] = [];
  const frequency = item.frequency as Json | undefined;
  if (frequency && typeof frequency.count === 'number') {
    const period = (frequency.period ?? {}) as Json;
    extension.push({
      url: extensionUrl('benefit-frequency'),
      valueTiming: {
        repeat: {
          frequency: frequency.count,
          ...(typeof period.months === 'number' ? { period: period.months, periodUnit: 'mo' } : {}),
        },
        ...(period.kind ? { code: coding(SYSTEMS.frequencyPeriod, String(period.kind)) } : {}),
      },
    });
  }
  if (typeof item.next_eligible_date === 'string')
    extension.push({ url: extensionUrl('next-eligible-date'), valueDate: item.next_eligible_date });
  const authorization = first('is_authorization_required');
  const comment = typeof item.comment === 'string' && item.comment ? item.comment : null;
  return {
    ...(extension.length > 0 ? { extension } : {}),
    ...named,
    ...(flags.includes('not_covered') ? { excluded: true } : {}),
    name: benefitCode,
    ...(comment ? { description: comment } : {}),
    network: coding(SYSTEMS.benefitNetwork, network === 'inn' ? 'in' : 'out'),
    unit: coding(SYSTEMS.benefitUnit, 'individual'),
    ...(benefits.length > 0 ? { benefit: benefits } : {}),
    ...(authorization ? { authorizationRequired: Boolean(authorization.value) } : {}),
  };
}

const GENDERS = new Set(['male', 'female', 'other', 'unknown']);

/** US Core 5.0.1 Patient: the request's patient, with the sex an insurer answered when one did. */
export function patientOf(request: RequestView, v2: V2View | null): FhirResource {
  const q = request.query;
  let sex: string | undefined;
  for (const plan of v2?.results ?? []) {
    const s = personOf(request, plan)?.sex;
    if (typeof s === 'string' && GENDERS.has(s.toLowerCase())) sex = s.toLowerCase();
    if (sex) break;
  }
  return {
    resourceType: 'Patient',
    id: request.id,
    meta: { profile: [US_CORE_PATIENT] },
    identifier: [
      { system: SYSTEMS.patient, value: request.id },
      ...(q.memberId
        ? [
            {
              type: coding(SYSTEMS.identifierType, 'MB', 'Member Number'),
              system: SYSTEMS.memberId,
              value: q.memberId,
            },
          ]
        : []),
    ],
    name: [{ family: q.lastName, given: [q.firstName] }],
    gender: sex ?? 'unknown',
    birthDate: q.dob,
    ...(q.zipcode ? { address: [{ postalCode: q.zipcode }] } : {}),
  };
}

/** The n-th insurer's Coverage: the member id asked with, the patient, the insurer. */
export function coverageOf(request: RequestView, n: number): FhirResource {
  const code = request.insurerCodes[n - 1];
  return {
    resourceType: 'Coverage',
    id: responseId(request, n),
    status: 'active',
    type: coding(SYSTEMS.actCode, 'VISPOL', 'vision care policy'),
    ...(request.query.memberId ? { subscriberId: request.query.memberId } : {}),
    beneficiary: { reference: `Patient/${request.id}` },
    ...(request.query.subscriber
      ? {}
      : { relationship: coding(SYSTEMS.relationship, 'self', 'Self') }),
    payor: [insurerRef(code)],
  };
}
