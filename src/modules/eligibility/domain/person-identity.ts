import type { EligibilityPerson } from '../store/eligibility-result.entity';

/*
 * No value import here: the bench's bare search baseline loads the finishing statement
 * (store/search-runs.sql.ts) and this file with it, without the service's module paths.
 */

type PersonIdentity = Pick<
  EligibilityPerson,
  'firstName' | 'lastName' | 'dob' | 'sex' | 'memberId' | 'ssnLastFour' | 'type'
>;

/** Who a person is, in the spec's order and words: the first fields of a person everywhere. */
export function personIdentity(p: PersonIdentity) {
  return {
    first_name: p.firstName,
    last_name: p.lastName,
    dob: p.dob,
    sex: p.sex,
    member_id: p.memberId,
    ssn_last_four: p.ssnLastFour,
    type: p.type,
  };
}
