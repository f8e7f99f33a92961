import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@/platform/kernel/errors';
import { formatInstant } from '@/platform/kernel/time';
import type { Tx } from '@/platform/db/database';
import { type MaterialsList, printedMaterials, serializePlanJson } from '@/lib/benefits';
import { type InsurerPlanResult, insurerName } from '@/modules/insurers';
import type { VerifiedPlanDto } from '../api/dto/verification-input.dto';
import type { PlanDesign } from '../store/plan-design.entity';
import { type DesignFilter, PlanDesignsRepository } from '../store/plan-designs.repository';
import { type DesignItem, designGroupKey, withoutUsedValues } from './plan-design-items';
import type { TaskView } from './task-view';
import { type NamedDesign, plansFromVerified } from './verified-plans';
import { isUuid } from '@/platform/kernel/codes';

export type { DesignFilter } from '../store/plan-designs.repository';

/** A design as the API lists it (docs/api.md, Plan designs). */
export interface PlanDesignView {
  id: string;
  insurer_code: string;
  plan_name: string;
  plan_group: string | null;
  plan_group_id: string | null;
  used_count: number;
  last_used_at: string | null;
}

/** One design with its benefit tree and its price list (docs/api.md, The counter). */
export interface PlanDesignDetail extends PlanDesignView {
  items: DesignItem[];
  materials: Record<string, unknown> | null;
}

/** A verifier's plans ready for `complete`: converted, and the designs they started from. */
export interface VerifiedAnswer {
  plans: InsurerPlanResult[];
  designIds: string[];
}

const view = (d: PlanDesign): PlanDesignView => ({
  id: d.id,
  insurer_code: d.insurerCode,
  plan_name: d.planName,
  plan_group: d.planGroup,
  plan_group_id: d.planGroupId,
  used_count: d.usedCount,
  last_used_at: d.lastUsedAt ? formatInstant(d.lastUsedAt, 'api') : null,
});

const detail = (d: PlanDesign): PlanDesignDetail => ({
  ...view(d),
  items: d.items as DesignItem[],
  materials: d.materials,
});

const notFound = (id: string) => `Plan design ${id} not found.`;

/**
 * Plan designs (docs/api.md, Plan designs): every completed task leaves its plans' benefit trees,
 * without what the member had used, as the designs of their groups; a later task of a group
 * starts from its design (`plan_design_id`) and the verifier confirms status, dates and used
 * benefits. Stored and counted in the transaction of the `complete` (VerificationTasks).
 */
/** A found plan's group, as the insurer names it: whose design's price list is looked up. */
export interface MaterialsLookup {
  insurerCode: string;
  planGroupId: string | null;
  planGroup: string | null;
}

@Injectable()
export class PlanDesigns {
  constructor(private readonly designs: PlanDesignsRepository) {}

  /**
   * For each lookup, in order, its group's design's price list, or null (docs/api.md, The
   * counter: an answer without its own list takes its group's design's).
   */
  async materialsOf(
    accountId: string,
    lookups: readonly MaterialsLookup[],
  ): Promise<(MaterialsList | null)[]> {
    const keyed = lookups.map((l) => ({ insurerCode: l.insurerCode, groupKey: designGroupKey(l) }));
    const groups = keyed.filter(
      (k): k is { insurerCode: string; groupKey: string } => !!k.groupKey,
    );
    if (groups.length === 0) return lookups.map(() => null);
    const lists = await this.designs.materialsOf(accountId, groups);
    return keyed.map((k) =>
      k.groupKey
        ? ((lists.get(`${k.insurerCode}|${k.groupKey}`) as MaterialsList | undefined) ?? null)
        : null,
    );
  }

  async list(
    accountId: string,
    filter: DesignFilter,
  ): Promise<{ result: PlanDesignView[]; next_cursor: string | null }> {
    const page = await this.designs.page(accountId, filter);
    return { result: page.result.map(view), next_cursor: page.next_cursor };
  }

  /** The account's design `id` with its items; 404 for any other id. */
  async get(accountId: string, id: string): Promise<PlanDesignDetail> {
    const design = isUuid(id) ? await this.designs.find(accountId, id) : null;
    if (!design) throw new NotFoundError(notFound(id));
    return detail(design);
  }

  /** The account's design `id` when it is one of `insurerCode` (a task's form starts from it), else null. */
  async ofInsurer(
    accountId: string,
    insurerCode: string,
    id: string,
  ): Promise<PlanDesignDetail | null> {
    const design = isUuid(id) ? await this.designs.find(accountId, id) : null;
    if (!design || design.insurerCode !== insurerCode) return null;
    return detail(design);
  }

  /**
   * The plans of a `complete` for `task`, converted (plansFromVerified), each plan's
   * `plan_design_id` resolved: an unknown or malformed id, another account's design or one of
   * another insurer than the task's is a field error on it, in the same 400 as the plans' others.
   */
  async answer(
    accountId: string,
    task: TaskView,
    plans: VerifiedPlanDto[],
  ): Promise<VerifiedAnswer> {
    const wanted = [
      ...new Set(plans.map((p) => p.plan_design_id).filter((id): id is string => !!id)),
    ];
    const valid = wanted.filter(isUuid);
    const found = new Map(
      (valid.length ? await this.designs.findMany(accountId, valid) : []).map((d) => [d.id, d]),
    );
    const named = new Map<number, NamedDesign>();
    const used = new Set<string>();
    plans.forEach((p, i) => {
      if (!p.plan_design_id) return;
      const design = isUuid(p.plan_design_id)
        ? found.get(p.plan_design_id.toLowerCase())
        : undefined;
      if (!design) named.set(i, { refused: notFound(p.plan_design_id) });
      else if (design.insurerCode !== task.insurer_code)
        named.set(i, {
          refused:
            `Plan design ${design.id} is a plan of ${insurerName(design.insurerCode)}, ` +
            `not of ${task.insurer_name}.`,
        });
      else {
        named.set(i, { items: design.items as DesignItem[], materials: design.materials });
        used.add(design.id);
      }
    });
    return { plans: plansFromVerified(plans, task.patient, named), designIds: [...used] };
  }

  /**
   * In the transaction of a task's `complete`: one more use of each design the answer started
   * from, then each plan's tree (its first person's items) stored as the design of its group,
   * replacing the group's earlier one. A plan without a group id or group leaves none; of two
   * plans of one group, the later is kept.
   */
  async record(
    tx: Tx,
    accountId: string,
    insurerCode: string,
    answer: VerifiedAnswer,
  ): Promise<void> {
    if (answer.designIds.length > 0) await this.designs.markUsed(accountId, answer.designIds, tx);
    const byGroup = new Map<string, InsurerPlanResult>();
    for (const plan of answer.plans) {
      const key = designGroupKey(plan);
      if (key && plan.persons.length > 0) byGroup.set(key, plan);
    }
    for (const [groupKey, plan] of byGroup) {
      const tree = JSON.parse(serializePlanJson(plan.persons[0].plan)) as { items: DesignItem[] };
      await this.designs.upsert(
        accountId,
        {
          insurerCode,
          groupKey,
          planName: plan.planName,
          planGroup: plan.planGroup.trim() || null,
          planGroupId: plan.planGroupId?.trim() || null,
          items: JSON.stringify(withoutUsedValues(tree.items)),
          // A verifier's own list is the group's from now on; one taken from a design stays.
          materials:
            plan.persons[0].plan.materials && plan.persons[0].plan.materials_source === 'verifier'
              ? JSON.stringify(printedMaterials(plan.persons[0].plan.materials))
              : null,
        },
        tx,
      );
    }
  }
}
