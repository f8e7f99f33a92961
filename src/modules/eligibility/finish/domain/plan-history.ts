import { Injectable } from '@nestjs/common';
import { applyNextEligible, hasFrequency, type Plan } from '@/lib/benefits';
import { todayIso } from '@/platform/kernel/time';
import { InjectHook } from '@/platform/kernel/hooks';
import {
  BenefitHistory,
  type BenefitHistoryPort,
  type HistoryLookup,
} from './benefit-history.port';
import type { FoundPlan } from '../../domain/search-outcome';
import { PlanDesigns } from '@/modules/verification';

/**
 * The found plans' next eligible dates with the practice's own history (docs/api.md, Next
 * eligible dates in results), set once, as a request finishes (or an answered task adds its
 * plans): the stored V2 answer, its webhooks and the person's stored plan then all carry them.
 * Only persons whose plan has a frequency are looked up (one call for all of them); the others'
 * plans are computed from what the insurer stated alone. A plan without its own materials price
 * list takes its group's plan design's (docs/api.md, The counter), looked up once for all.
 */
@Injectable()
export class PlanHistory {
  constructor(
    @InjectHook(BenefitHistory) private readonly history: BenefitHistoryPort,
    private readonly designs: PlanDesigns,
  ) {}

  async apply(accountId: string, found: readonly FoundPlan[]): Promise<void> {
    await this.applyMaterials(accountId, found);
    const asOf = todayIso();
    const lookups: HistoryLookup[] = [];
    const plans: Plan[] = [];
    const seen = new Set<Plan>();
    for (const { code, plan: result } of found) {
      for (const person of result.persons) {
        // A plan object two persons share gets its own copy: their histories differ.
        if (seen.has(person.plan)) person.plan = structuredClone(person.plan);
        seen.add(person.plan);
        if (!hasFrequency(person.plan)) {
          applyNextEligible(person.plan, [], asOf);
          continue;
        }
        lookups.push({
          insurerCode: code,
          person: {
            firstName: person.firstName,
            lastName: person.lastName,
            dob: person.dob,
            memberId: person.memberId,
          },
        });
        plans.push(person.plan);
      }
    }
    const records = await this.history.servicesOf(accountId, lookups);
    plans.forEach((plan, i) => applyNextEligible(plan, records[i] ?? [], asOf));
  }

  private async applyMaterials(accountId: string, found: readonly FoundPlan[]): Promise<void> {
    const lacking = found.filter(({ plan }) => plan.persons.some((p) => !p.plan.materials));
    if (lacking.length === 0) return;
    const lookups = lacking.map(({ code, plan }) => ({
      insurerCode: code,
      planGroupId: plan.planGroupId,
      planGroup: plan.planGroup,
    }));
    const lists = await this.designs.materialsOf(accountId, lookups);
    lacking.forEach(({ plan }, i) => {
      const list = lists[i];
      if (!list) return;
      for (const person of plan.persons) {
        if (person.plan.materials) continue;
        person.plan.materials = structuredClone(list);
        person.plan.materials_source = 'plan_design';
      }
    });
  }
}
