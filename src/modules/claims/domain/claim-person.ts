import { everyKey, type MailingAddress, type Optional } from '@/lib/person';
import type { ClaimPerson } from '../store/claim.entity';

/** A person as a claim's body or its stored JSON gives it: the optional fields may be absent. */
export type ClaimPersonInput = Optional<Omit<ClaimPerson, 'address'>, OptionalPersonField> & {
  address?: Optional<MailingAddress, 'line2' | 'recipient'> | null;
};
type OptionalPersonField = 'type' | 'sex' | 'member_id' | 'ssn_last_four' | 'email' | 'phone';

/**
 * The person a claim stores and its GET answers (docs/api.md, Claims): every field present, an
 * absent one null, in this order, nothing else.
 */
export function claimPerson(p: ClaimPersonInput): ClaimPerson {
  return {
    ...everyKey(p, PERSON_KEYS),
    address: p.address ? everyKey(p.address, ADDRESS_KEYS) : null,
  };
}

const PERSON_KEYS = [
  'first_name',
  'last_name',
  'dob',
  'type',
  'sex',
  'member_id',
  'ssn_last_four',
  'email',
  'phone',
] as const;
const ADDRESS_KEYS = ['line1', 'line2', 'city', 'zipcode', 'state', 'recipient'] as const;
