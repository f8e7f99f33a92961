import fc from 'fast-check';
import {
  applyNextEligible,
  type BenefitItem,
  type Plan,
  planFromJson,
  type PlanJson,
  serializePlanJson,
  SERVICE_SOURCES,
} from '@/lib/benefits';
import { nextEligibleDates } from './estimate.availability';
import { estimateReimbursement } from './estimate.rules';
import { planOf, R } from '../../../../test/support/estimate.fixtures';

/**
 * docs/api.md, Next eligible dates and Estimates, over generated plans and histories: a benefit is
 * part of the one above it, so it is never available before its parent's next eligible date; and
 * an estimate on the V2 answer (as the service reads it back) never pays a benefit that is not
 * available on its date of service. Fixed seed: a failure found here becomes an example test.
 */

const DAY = 86_400_000;
const anyDate = fc
  .integer({ min: Date.UTC(2023, 0, 1) / DAY, max: Date.UTC(2028, 11, 31) / DAY })
  .map((day) => new Date(day * DAY).toISOString().slice(0, 10));

/** The tree: each benefit's parent, and a procedure code that maps to it. */
const TREE: readonly { code: string; parent: string | null; procedure: string }[] = [
  { code: 'exam', parent: null, procedure: '92004' },
  { code: 'exam.routine', parent: 'exam', procedure: '92014' },
  { code: 'materials', parent: null, procedure: '' },
  { code: 'materials.frames', parent: 'materials', procedure: 'V2020' },
  { code: 'materials.spectacle_lenses', parent: 'materials', procedure: 'V2100' },
  { code: 'materials.contact_lenses', parent: 'materials', procedure: 'V2500' },
];
const CODES = TREE.map((t) => t.code);

const frequency = fc.option(
  fc.record({
    count: fc.integer({ min: 1, max: 2 }),
    period: fc.oneof(
      fc.record({ kind: fc.constant('rolling' as const), months: fc.integer({ min: 1, max: 24 }) }),
      fc.record({ kind: fc.constantFrom('calendar_year' as const, 'plan_year' as const) }),
    ),
    shared_with: fc.subarray(['materials.frames', 'materials.contact_lenses'], { maxLength: 1 }),
  }),
  { nil: undefined },
);
const stated = fc.option(
  fc.record({ next_eligible_date: fc.option(anyDate, { nil: undefined }) }),
  { nil: undefined },
);
const itemFacts = fc.record({ frequency, stated });
const history = fc.array(
  fc.record({
    benefit_code: fc.constantFrom(...CODES),
    date: anyDate,
    source: fc.constantFrom(...SERVICE_SOURCES),
  }),
  { maxLength: 6 },
);

function planWith(facts: Record<string, { frequency?: unknown; stated?: unknown }>): Plan {
  const build = (parent: string | null): BenefitItem[] =>
    TREE.filter((t) => t.parent === parent).map((t) => {
      const f = facts[t.code];
      const item: BenefitItem = {
        benefit_code: t.code,
        refresh_date: R,
        allowance: [{ value: '500' }],
        items: build(t.code),
      };
      if (f.frequency) item.frequency = f.frequency as BenefitItem['frequency'];
      if (f.stated) item.stated = f.stated;
      return item;
    });
  return planOf('oon', build(null));
}

const byCode = (items: readonly BenefitItem[], into = new Map<string, BenefitItem>()) => {
  for (const i of items) {
    into.set(i.benefit_code, i);
    byCode(i.items ?? [], into);
  }
  return into;
};

describe('next eligible dates down the benefit tree, and estimates on them', () => {
  it("a child is never available before its parent's next eligible date; an estimate never pays what is not available", () => {
    let held = 0;
    fc.assert(
      fc.property(
        fc.record(Object.fromEntries(CODES.map((c) => [c, itemFacts]))),
        history,
        anyDate,
        anyDate,
        (facts, records, asOf, dateOfService) => {
          const plan = applyNextEligible(planWith(facts), records, asOf);
          const items = byCode(plan.items);
          for (const t of TREE) {
            const parent = t.parent ? items.get(t.parent)! : null;
            const parentDate = parent?.next_eligible?.date;
            if (!parentDate) continue;
            const child = items.get(t.code)!;
            expect(child.next_eligible?.date).toBeDefined();
            expect(child.next_eligible!.date! >= parentDate).toBe(true);
            expect(child.next_eligible_date).toBe(child.next_eligible!.date);
          }
          // As the service reads a stored answer: the V2 JSON, then the plan and its dates.
          const json = JSON.parse(serializePlanJson(plan)) as PlanJson;
          const nextEligible = nextEligibleDates(json.items);
          for (const t of TREE.filter((x) => x.procedure)) {
            const estimate = estimateReimbursement(
              planFromJson(json),
              'oon',
              [{ codes: [t.procedure], cost: '100', quantity: 1 }],
              { dateOfService, nextEligible },
            );
            const line = estimate.lines[0];
            const benefit = items.get(line.benefit_code ?? '');
            if (!benefit) continue;
            const until = [
              benefit,
              ...TREE.filter((x) => line.benefit_code!.startsWith(`${x.code}.`)).map((x) =>
                items.get(x.code)!,
              ),
            ]
              .map((i) => i.next_eligible?.date ?? null)
              .filter((d): d is string => d !== null)
              .sort()
              .at(-1);
            if (until && until > dateOfService) {
              held++;
              expect(line.capped).toBe('0.0000');
              expect(line.notes.join(' ')).toContain(`not eligible until ${until}`);
            }
          }
        },
      ),
      { seed: 6011, numRuns: 300 },
    );
    expect(held).toBeGreaterThan(50);
  });
});
