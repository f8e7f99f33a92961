import { addFieldError, type ErrorTree, ValidationFailed } from '@/platform/kernel/errors';
import { MSG } from '@/platform/kernel/messages';
import { planFromJson, type PlanJson } from '@/lib/benefits';
import type { Nullable, Subscriber } from '@/lib/person';
import type { InsurerPlanResult } from '@/modules/insurers';
import type { VerifiedPersonDto, VerifiedPlanDto } from '../api/dto/verification-input.dto';
import type { TaskView } from './task-view';
import { type DesignItem, mergeDesignItems } from './plan-design-items';

/** The patient as the search asked for them (a task's `patient`). */
export type AskedPatient = TaskView['patient'];

/** The relationships that make a person the subscriber (the one who holds the plan). */
const SUBSCRIBER_TYPES = new Set(['self', 'subscriber']);

type Asked = Nullable<Subscriber>;

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
 * What a plan's `plan_design_id` names (docs/api.md, Plan designs): the design's items, or the
 * field error that refuses it (unknown, another account's, another insurer's).
 */
export type NamedDesign =
  { items: DesignItem[]; materials?: Record<string, unknown> | null } | { refused: string };

/**
 * The plans of a `complete` (validated V2 plan results, docs/api.md, Insurers and assisted verification) as the search stores any
 * insurer's answer: the same shape the X12 mapper and the sandbox give, so the request renders,
 * estimates and webhooks them the same way. Ids, names and plan tokens are the service's. A
 * person's names, date of birth and member id default to the one asked for (askedFor); sex,
 * address, e-mail and phone a portal often does not show stay null. A plan naming a design
 * (`designs`, by the plan's index) gives each person the design's items, merged with the items
 * the person gives (mergeDesignItems); a plan naming none needs each person's `items`.
 */
export function plansFromVerified(
  plans: VerifiedPlanDto[],
  asked: AskedPatient,
  designs: ReadonlyMap<number, NamedDesign> = new Map(),
): InsurerPlanResult[] {
  const errors: ErrorTree = {};
  const out = plans.map((p, i) => {
    const design = designs.get(i);
    if (design && 'refused' in design)
      addFieldError(errors, ['plans', `${i}`, 'plan_design_id'], design.refused);
    const itemsOf = (plan: VerifiedPersonDto['plan'], j: number): DesignItem[] => {
      const given = plan.items as unknown as DesignItem[] | undefined;
      if (design && 'items' in design) return mergeDesignItems(design.items, given ?? []);
      if (given === undefined && !design)
        addFieldError(errors, ['plans', `${i}`, 'persons', `${j}`, 'plan', 'items'], MSG.required);
      return given ?? [];
    };
    return {
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
          plan: planFromJson({
            ...x.plan,
            items: itemsOf(x.plan, j),
            // docs/api.md, The counter: the verifier's price list, else the named design's.
            ...(x.plan.materials
              ? { materials_source: 'verifier' }
              : design && 'items' in design && design.materials
                ? { materials: design.materials, materials_source: 'plan_design' }
                : {}),
          } as unknown as PlanJson),
        };
      }),
    };
  });
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return out;
}
