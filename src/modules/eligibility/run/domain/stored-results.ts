import type { PlanDetailsQuery, StoredInsurerPerson } from '@/modules/insurers';
import type { EligibilityPerson, EligibilityResult } from '../../store/eligibility-result.entity';

/** A stored person as the connector described it (for a details request). */
export function toInsurerPerson(p: EligibilityPerson): StoredInsurerPerson {
  return {
    firstName: p.firstName,
    lastName: p.lastName,
    dob: p.dob,
    sex: p.sex,
    memberId: p.memberId,
    ssnLastFour: p.ssnLastFour,
    type: p.type,
    address: p.address,
    email: p.email,
    phone: p.phone,
    isActive: p.isActive,
    plan: p.plan,
  };
}

/** A stored result as the connector described it (for a details request). */
export function toPlanResult(
  r: EligibilityResult,
  persons: EligibilityPerson[],
): PlanDetailsQuery['plan'] {
  return {
    status: r.status,
    planName: r.planName,
    planGroup: r.planGroup,
    planGroupId: r.planGroupId,
    planBeginDate: r.planBeginDate,
    planEndDate: r.planEndDate,
    planRefreshDate: r.planRefreshDate,
    planIsActive: r.planIsActive,
    persons: persons.map(toInsurerPerson),
  };
}
