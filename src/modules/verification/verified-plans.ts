import { planFromJson, type PlanJson } from '@/modules/estimates/plan-input';
import type { InsurerPlanResult } from '@/modules/insurers/insurer-connector';
import type { VerifiedPlanDto } from './dto/verification-input.dto';

/**
 * The plans of a `complete` (validated V2 plan results, CONTRACT §18) as the search stores any
 * insurer's answer: the same shape the X12 mapper and the sandbox give, so the request renders,
 * estimates and webhooks them the same way. Ids, names and plan tokens are the service's.
 */
export function plansFromVerified(plans: VerifiedPlanDto[]): InsurerPlanResult[] {
  return plans.map((p) => ({
    status: p.status,
    planName: p.plan_name,
    planGroup: p.plan_group ?? '',
    planGroupId: p.plan_group_id ?? null,
    planBeginDate: p.plan_begin_date,
    planEndDate: p.plan_end_date ?? null,
    planRefreshDate: p.plan_refresh_date ?? null,
    planIsActive: p.plan_is_active,
    persons: p.persons.map((x) => ({
      firstName: x.first_name,
      lastName: x.last_name,
      dob: x.dob,
      sex: x.sex,
      memberId: x.member_id ?? null,
      ssnLastFour: x.ssn_last_four ?? null,
      type: x.type,
      address: {
        line1: x.address.line1,
        line2: x.address.line2 || null,
        city: x.address.city,
        zipcode: x.address.zipcode,
        state: x.address.state,
      },
      email: x.email ?? null,
      phone: x.phone ?? '',
      isActive: x.is_active ?? null,
      plan: planFromJson(x.plan as unknown as PlanJson),
    })),
  }));
}
