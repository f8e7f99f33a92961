import { isoDate } from '@/common/dates';
import type { ClaimStatusInquiry } from '@/modules/x12/x276.writer';
import { ProfessionalClaim, relationshipCode, X837Person } from '@/modules/x12/x837.writer';
import type { BillingProvider } from './claim-billing-provider';
import { claimTotalCost } from './claim-charges';
import type { ClaimServiceLine } from './claim-service-line.entity';
import type { Claim, ClaimPerson } from './claim.entity';
import { insurerName } from './insurer-codes';

/** The patient is the subscriber when marked `self`, or, untyped, when it is the same person. */
export function patientIsSubscriber(claim: Pick<Claim, 'patient' | 'primaryMember'>): boolean {
  const p = claim.patient;
  const m = claim.primaryMember;
  if (p.type) return p.type.toLowerCase() === 'self';
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  return same(p.first_name, m.first_name) && same(p.last_name, m.last_name) && p.dob === m.dob;
}

function person(p: ClaimPerson): X837Person {
  return {
    firstName: p.first_name,
    lastName: p.last_name,
    dob: p.dob,
    sex: p.sex,
    address: p.address
      ? {
          line1: p.address.line1,
          line2: p.address.line2,
          city: p.address.city,
          state: p.address.state,
          zipcode: p.address.zipcode,
        }
      : null,
  };
}

export interface SubmitterIdentity {
  submitterId: string;
  receiverId: string;
  contactEmail: string;
}

/** A claim as the 837P writer takes it (CONTRACT §12). */
export function professionalClaimOf(
  claim: Claim,
  lines: ClaimServiceLine[],
  provider: BillingProvider,
  payerId: string,
  ids: SubmitterIdentity,
): ProfessionalClaim {
  const self = patientIsSubscriber(claim);
  return {
    submitter: {
      id: ids.submitterId,
      name: provider.organizationName,
      contactEmail: ids.contactEmail,
    },
    receiver: { id: ids.receiverId, name: ids.receiverId },
    billingProvider: provider,
    subscriber: { ...person(claim.primaryMember), memberId: claim.primaryMember.member_id ?? '' },
    patient: self
      ? null
      : { ...person(claim.patient), relationship: relationshipCode(claim.patient.type) },
    payer: { id: payerId, name: insurerName(claim.insurerCode) },
    claimCode: claim.code,
    acceptAssignment: claim.acceptAssignment,
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
