import { isoDate } from '@/platform/kernel/time';
import {
  type ClaimStatusInquiry,
  procedureComposite,
  ProfessionalClaim,
  relationshipCode,
  X837Address,
  X837IndividualProvider,
  X837Person,
} from '@/lib/x12';
import { toMinor } from '@/platform/kernel/decimal';
import type { BillingProvider } from './claim-billing-provider';
import { claimTotalCost } from './claim-charges';
import type { ClaimServiceLine } from '../store/claim-service-line.entity';
import type { MailingAddress } from '@/lib/person';
import type { Claim, ClaimPerson } from '../store/claim.entity';
import { insurerName } from '@/modules/insurers';

/** The patient is the subscriber when marked `self`, or, untyped, when it is the same person. */
export function patientIsSubscriber(claim: Pick<Claim, 'patient' | 'primaryMember'>): boolean {
  const p = claim.patient;
  const m = claim.primaryMember;
  if (p.type) return p.type.toLowerCase() === 'self';
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  return same(p.first_name, m.first_name) && same(p.last_name, m.last_name) && p.dob === m.dob;
}

function address(a: MailingAddress | null): X837Address | null {
  return a
    ? { line1: a.line1, line2: a.line2, city: a.city, state: a.state, zipcode: a.zipcode }
    : null;
}

function person(p: ClaimPerson, fallbackAddress: MailingAddress | null = null): X837Person {
  return {
    firstName: p.first_name,
    lastName: p.last_name,
    dob: p.dob,
    sex: p.sex,
    address: address(p.address ?? fallbackAddress),
  };
}

/**
 * Who 2010BA names (docs/api.md, Claims): the patient, with the primary member's id, when the patient is
 * the subscriber; the patient with their own id when they have a member id of their own (a
 * dependent with their own card); otherwise the primary member, the patient in 2010CA.
 */
function subscriberAndPatient(claim: Claim): {
  subscriber: X837Person & { memberId: string };
  patient: (X837Person & { relationship: string }) | null;
} {
  const p = claim.patient;
  const m = claim.primaryMember;
  const own = !!p.member_id && p.member_id !== m.member_id;
  if (patientIsSubscriber(claim) || own) {
    const self = { ...person(p, m.address), sex: p.sex ?? (own ? null : m.sex) };
    return {
      subscriber: { ...self, memberId: (own ? p.member_id : m.member_id) ?? '' },
      patient: null,
    };
  }
  return {
    subscriber: { ...person(m), memberId: m.member_id ?? '' },
    // A dependent's 2010CA address is required: the patient's, else the primary member's.
    patient: { ...person(p, m.address), relationship: relationshipCode(p.type) },
  };
}

export interface SubmitterIdentity {
  submitterId: string;
  receiverId: string;
  contactEmail: string;
}

/** The rendering provider of a claim: its own (docs/api.md, Claims), else its location's. */
export function renderingProviderOf(
  claim: Claim,
  provider: BillingProvider,
): X837IndividualProvider | null {
  const own = claim.renderingProvider;
  if (own)
    return {
      npi: own.npi,
      firstName: own.first_name,
      lastName: own.last_name,
      taxonomyCode: own.taxonomy_code ?? provider.taxonomyCode,
    };
  return provider.renderingProvider;
}

/**
 * Why a claim cannot go the X12 route (docs/api.md, Claims), one sentence each; empty when the 837P can
 * be written. The claim then goes the paper route with these reasons.
 */
export function x12RouteGaps(
  claim: Claim,
  lines: ClaimServiceLine[],
  provider: BillingProvider,
): string[] {
  const gaps: string[] = [];
  const where = `The location ${provider.locationCode}`;
  const missing: string[] = [];
  if (!provider.taxId) missing.push('tax id');
  if (!provider.address) missing.push('street address');
  else if (!/^\d{5}-\d{4}$/.test(provider.address.zipcode.trim()))
    missing.push('ZIP+4 in its address');
  if (missing.length > 0) gaps.push(`${where} has no ${missing.join(', no ')}.`);
  const rendering = renderingProviderOf(claim, provider);
  if (!rendering)
    gaps.push(
      `No rendering provider (the individual NPI who gave the care) on the claim or the location ${provider.locationCode}.`,
    );
  else if (rendering.npi === provider.npi)
    gaps.push("The rendering provider's NPI is the organisation's: an individual's is needed.");
  const { subscriber, patient } = subscriberAndPatient(claim);
  if (!subscriber.memberId) gaps.push("The primary member has no member id (the payer's card).");
  if (patient === null) {
    const lacks = [
      subscriber.address ? null : 'address',
      subscriber.sex === 'female' || subscriber.sex === 'male' ? null : 'sex',
    ].filter((x) => x !== null);
    if (lacks.length > 0)
      gaps.push(`The subscriber (the patient) has no ${lacks.join(' and no ')} on the claim.`);
  } else if (!patient.address) gaps.push('The patient and the primary member have no address.');
  const sorted = [...lines].sort((a, b) => a.position - b.position);
  const doubled = sorted
    .map((l, i) => ({ i, problem: procedureComposite(l.codes) }))
    .filter((x) => typeof x.problem === 'string');
  const second = doubled.filter((x) => x.problem === SECOND_PROCEDURE);
  if (second.length > 0)
    gaps.push(
      [
        SECOND_PROCEDURE,
        ...second.map((x) => `Service ${x.i + 1} has ${sorted[x.i].codes.join(' and ')}.`),
      ].join(' '),
    );
  for (const x of doubled.filter((d) => d.problem !== SECOND_PROCEDURE))
    gaps.push(`Service ${x.i + 1}: ${String(x.problem)}.`);
  const diagnoses = new Set(
    lines.flatMap((l) => l.diagnosisCodes ?? []).map((c) => c.replace('.', '')),
  );
  if (diagnoses.size === 0) gaps.push('The claim has no diagnosis.');
  if (diagnoses.size > 12) gaps.push('The claim has more than 12 diagnoses.');
  if (lines.length > 50) gaps.push('The claim has more than 50 service lines.');
  if (toMinor(claimTotalCost(lines)) <= 0n) gaps.push('The total charge is zero.');
  return gaps;
}

const SECOND_PROCEDURE = 'One procedure code per service line is needed to file electronically.';

/** A claim as the 837P writer takes it (docs/api.md, Claim lifecycle and Claims); `x12RouteGaps` must be empty. */
export function professionalClaimOf(
  claim: Claim,
  lines: ClaimServiceLine[],
  provider: BillingProvider,
  payerId: string,
  ids: SubmitterIdentity,
): ProfessionalClaim {
  const { subscriber, patient } = subscriberAndPatient(claim);
  return {
    submitter: {
      id: ids.submitterId,
      name: provider.organizationName,
      contactEmail: ids.contactEmail,
    },
    receiver: { id: ids.receiverId, name: ids.receiverId },
    billingProvider: {
      npi: provider.npi,
      organizationName: provider.organizationName,
      taxId: provider.taxId ?? '',
      address: provider.address!,
      taxonomyCode: provider.taxonomyCode,
    },
    renderingProvider: renderingProviderOf(claim, provider)!,
    subscriber,
    patient,
    payer: { id: payerId, name: insurerName(claim.insurerCode) },
    claimCode: claim.code,
    acceptAssignment: claim.acceptAssignment,
    paidAmount: claim.paidAmount,
    services: [...lines]
      .sort((a, b) => a.position - b.position)
      .map((l) => ({
        codes: l.codes,
        date: isoDate(l.serviceDate)!,
        quantity: l.quantity,
        cost: l.cost,
        diagnosisCodes: l.diagnosisCodes ?? [],
      })),
  };
}

/** The 276 asking after a submitted claim. */
export function statusInquiryOf(
  claim: Claim,
  lines: ClaimServiceLine[],
  provider: BillingProvider,
  payerId: string,
  receiverId: string,
  traceNumber: string,
): ClaimStatusInquiry {
  const dates = lines.map((l) => isoDate(l.serviceDate)!).sort();
  const who = (p: ClaimPerson) => ({
    firstName: p.first_name,
    lastName: p.last_name,
    dob: p.dob,
    sex: p.sex,
  });
  return {
    payer: { id: payerId, name: insurerName(claim.insurerCode) },
    receiver: { id: receiverId, name: provider.organizationName },
    provider: { npi: provider.npi, organizationName: provider.organizationName },
    subscriber: { ...who(claim.primaryMember), memberId: claim.primaryMember.member_id ?? '' },
    patient: patientIsSubscriber(claim) ? null : who(claim.patient),
    traceNumber,
    claimCode: claim.code,
    // The clearinghouse's id is not the payer's claim number (REF*1K): the 277 is matched by trace.
    payerClaimNumber: null,
    totalCharge: claimTotalCost(lines),
    serviceFrom: dates[0],
    serviceTo: dates[dates.length - 1],
  };
}
