import type { ClaimAddress, ClaimPerson } from '../store/claim.entity';

/** A person as a claim's body or its stored JSON gives it: the optional fields may be absent. */
export type ClaimPersonInput = Omit<ClaimPerson, OptionalPersonField | 'address'> &
  Partial<Pick<ClaimPerson, OptionalPersonField>> & {
    address?: ClaimAddressInput | null;
  };
type OptionalPersonField = 'type' | 'sex' | 'member_id' | 'ssn_last_four' | 'email' | 'phone';
type ClaimAddressInput = Omit<ClaimAddress, 'line2' | 'recipient'> &
  Partial<Pick<ClaimAddress, 'line2' | 'recipient'>>;

/**
 * The person a claim stores and its GET answers (docs/api.md, Claims): every field present, an
 * absent one null, in this order, nothing else.
 */
export function claimPerson(p: ClaimPersonInput): ClaimPerson {
  return {
    first_name: p.first_name,
    last_name: p.last_name,
    dob: p.dob,
    type: p.type ?? null,
    sex: p.sex ?? null,
    member_id: p.member_id ?? null,
    ssn_last_four: p.ssn_last_four ?? null,
    email: p.email ?? null,
    phone: p.phone ?? null,
    address: p.address ? claimAddress(p.address) : null,
  };
}

function claimAddress(a: ClaimAddressInput): ClaimAddress {
  return {
    line1: a.line1,
    line2: a.line2 ?? null,
    city: a.city,
    zipcode: a.zipcode,
    state: a.state,
    recipient: a.recipient ?? null,
  };
}
