import type { InsurerPlanResult } from '@/modules/insurers/domain/insurer-connector';
import { type Answer271, map271 } from '@/modules/insurers/domain/clearinghouse/x271-result.mapper';
import { read271 } from '@/lib/x12/x271.reader';
import type { BenefitItem, Plan } from '@/lib/benefits/benefit.types';
import { jane271 } from './fixtures';

/** The mapper's options in the 271 specs: asked on 2026-03-15 about someone born 1980-01-15. */
export const MAP271_OPTIONS = { inquiryDate: '2026-03-15', queryDob: '1980-01-15' };

/** A 271's text read and mapped (with MAP271_OPTIONS unless told). */
export function answer271(text: string, options = MAP271_OPTIONS): Answer271 {
  return map271(read271(text), options);
}

/** The plans of a 271 that found its subscriber; any other answer fails the test. */
export function plans271(text: string, options = MAP271_OPTIONS): InsurerPlanResult[] {
  const answer = answer271(text, options);
  if (answer.kind !== 'found')
    throw new Error(`expected plans, got ${answer.kind}: ${answer.reason}`);
  return answer.plans;
}

/** The plan of Jane Doe's 271 (jane271) with these segments after her 2100C. */
export function janePlan(segments: string[]): InsurerPlanResult {
  return plans271(jane271(segments))[0];
}

/** The benefit tree that plan gives Jane. */
export function janeTree(segments: string[]): Plan {
  return janePlan(segments).persons[0].plan;
}

/** The first item of `code` in a tree, depth first. */
export function findItem(items: BenefitItem[], code: string): BenefitItem | undefined {
  for (const item of items) {
    if (item.benefit_code === code) return item;
    const inner = findItem(item.items ?? [], code);
    if (inner) return inner;
  }
  return undefined;
}
