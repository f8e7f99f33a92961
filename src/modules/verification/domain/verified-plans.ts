import { addFieldError, type ErrorTree, ValidationFailed } from '@/platform/kernel/errors';
import { MSG } from '@/platform/kernel/messages';
import { planFromJson, type PlanJson } from '@/lib/benefits';
import type { InsurerPlanResult } from '@/modules/insurers';
import type { VerifiedPersonDto, VerifiedPlanDto } from '../api/dto/verification-input.dto';
import type { TaskView } from './task-view';

/** The patient as the search asked for them (a task's `patient`). */
export type AskedPatient = TaskView['patient'];

/** The relationships that make a person the subscriber (the one who holds the plan). */
const SUBSCRIBER_TYPES = new Set(['self', 'subscriber']);

interface Asked {
  first_name: string | null;
  last_name: string | null;
  dob: string | null;
  member_id: string | null;
}

/**
 * Whom a verifier's person stands for, for what they leave out (docs/api.md "Verification
 * tasks"): when the search named a subscriber, a person of type `self` or `subscriber` is that
 * subscriber and any other person the patient (a dependent: type `dependent` when none is
 * given); otherwise every person is the patient (type `self` when none is given).
 */
function askedFor(person: VerifiedPersonDto, asked: AskedPatient): { who: Asked; type: string } {
  const sub = asked.subscriber;
  const type = person.type ?? (sub ? 'dependent' : 'self');
  if (sub && SUBSCRIBER_TYPES.has(type.toLowerCase())) return { who: sub, type };
  return { who: asked, type };
}

/**
 * The plans of a `complete` (validated V2 plan results, docs/api.md, Insurers and assisted verification) as the search stores any
 * insurer's answer: the same shape the X12 mapper and the sandbox give, so the request renders,
 * estimates and webhooks them the same way. Ids, names and plan tokens are the service's. A
 * person's names, date of birth and member id default to the one asked for (askedFor); sex,
 * address, e-mail and phone a portal often does not show stay null.
 */
export function plansFromVerified(
  plans: VerifiedPlanDto[],
  asked: AskedPatient,
): InsurerPlanResult[] {
  const errors: ErrorTree = {};
  const out = plans.map((p, i) => ({
    status: p.status,
    planName: p.plan_name,
    planGroup: p.plan_group ?? '',
    planGroupId: p.plan_group_id ?? null,
    planBeginDate: p.plan_begin_date,
    planEndDate: p.plan_end_date ?? null,
    planRefreshDate: p.plan_refresh_date ?? null,
    planIsActive: p.plan_is_active,
    persons: p.persons.map((x, j) => {
      const { who, type } = askedFor(x, asked);
      // Only a search whose patient data was erased names nobody: then the verifier must.
      const given = (field: keyof Asked, value: string | null | undefined): string => {
        const v = value ?? who[field];
        if (!v) addFieldError(errors, ['plans', `${i}`, 'persons', `${j}`, field], MSG.required);
        return v ?? '';
      };
      return {
        firstName: given('first_name', x.first_name),
        lastName: given('last_name', x.last_name),
        dob: given('dob', x.dob),
        sex: x.sex ?? null,
        memberId: x.member_id ?? who.member_id ?? null,
        ssnLastFour: x.ssn_last_four ?? null,
        type,
        address: x.address
          ? {
              line1: x.address.line1,
              line2: x.address.line2 || null,
              city: x.address.city,
              zipcode: x.address.zipcode,
              state: x.address.state,
            }
          : null,
        email: x.email ?? null,
        phone: x.phone || null,
        isActive: x.is_active ?? null,
        plan: planFromJson(x.plan as unknown as PlanJson),
      };
    }),
  }));
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return out;
}
