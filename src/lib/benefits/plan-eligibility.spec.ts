import fc from 'fast-check';
import type { BenefitItem, Plan } from './benefit.types';
import { serializePlan } from '../../../test/support/serialize-plan';
import { applyNextEligible } from './plan-eligibility';
import { planFromJson, type PlanJson } from './plan-input';
import { SERVICE_SOURCES } from './next-eligible.types';

/** docs/api.md, Next eligible dates in results: a plan's items from what it states and a history. */

const R = '2027-01-01';
const item = (code: string, extra: Partial<BenefitItem> = {}, items: BenefitItem[] = []) => {
  const out: BenefitItem = { benefit_code: code, refresh_date: R, items, ...extra };
  if (out.stated === undefined) delete out.stated;
  return out;
};
const planOf = (items: BenefitItem[]): Plan => ({
  insurer_state: 'inn',
  items,
  refresh_date: null,
  begin_date: '2026-01-01',
  end_date: '2026-12-31',
  flags: [],
});
const every = (months: number, shared_with: string[] = []) => ({
  count: 1,
  period: { kind: 'rolling' as const, months },
  shared_with,
});
const find = (items: BenefitItem[], code: string): BenefitItem | undefined =>
  items.find((i) => i.benefit_code === code) ??
  items.map((i) => find(i.items ?? [], code)).find(Boolean);

/** A sandbox-like tree: frames and lenses with contact lenses in lieu of both, an exam. */
const tree = (stated: Partial<Record<string, BenefitItem['stated']>> = {}) =>
  planOf([
    item('exam', { frequency: every(12), stated: stated.exam }, [
      item('exam.routine', { stated: stated['exam.routine'] }),
    ]),
    item('materials', {}, [
      item('materials.frames', {
        frequency: every(24, ['materials.contact_lenses']),
        stated: stated['materials.frames'],
      }),
      item('materials.spectacle_lenses', { stated: stated['materials.spectacle_lenses'] }),
      item('materials.contact_lenses', {
        frequency: every(12, ['materials.frames', 'materials.spectacle_lenses']),
        stated: stated['materials.contact_lenses'],
      }),
    ]),
    item('lasik', { stated: stated.lasik }),
  ]);

describe('applyNextEligible (docs/api.md, Next eligible dates in results)', () => {
  it('computes a frames claim into frames and, shared, contact lenses; the exam stays available', () => {
    const plan = applyNextEligible(
      tree(),
      [{ benefit_code: 'materials.frames', date: '2025-08-31', source: 'claim' }],
      '2026-03-15',
    );
    const frames = find(plan.items, 'materials.frames');
    expect(frames).toMatchObject({
      last_service: { date: '2025-08-31', source: 'claim' },
      last_service_date: '2025-08-31',
      next_eligible: { date: '2027-08-31', basis: 'computed' },
      next_eligible_date: '2027-08-31',
    });
    expect(find(plan.items, 'materials.contact_lenses')).toMatchObject({
      next_eligible: { date: '2026-08-31', basis: 'computed' },
    });
    // Contact lenses were never had: the frames are named in the explanation, not as theirs.
    expect(find(plan.items, 'materials.contact_lenses')).not.toHaveProperty('last_service');
    expect(find(plan.items, 'exam')?.next_eligible?.date).toBe('2026-03-15');
  });

  it('adds nothing to an item the plan says nothing about, and keeps a stated last service', () => {
    const plan = applyNextEligible(
      tree({ lasik: { last_service: { date: '2024-05-01', source: 'payer' } } }),
      [{ benefit_code: 'materials.spectacle_lenses', date: '2025-01-01', source: 'staff' }],
      '2026-03-15',
    );
    expect(find(plan.items, 'lasik')).toEqual(
      item('lasik', {
        stated: { last_service: { date: '2024-05-01', source: 'payer' } },
        last_service: { date: '2024-05-01', source: 'payer' },
        last_service_date: '2024-05-01',
      }),
    );
    for (const code of ['materials', 'materials.spectacle_lenses'])
      expect(Object.keys(find(plan.items, code)!).sort()).toEqual([
        'benefit_code',
        'items',
        'refresh_date',
      ]);
  });

  it("a benefit under a ruled one carries its parent's date: a used routine exam is not available", () => {
    const plan = applyNextEligible(
      tree(),
      [{ benefit_code: 'exam.routine', date: '2026-03-15', source: 'staff' }],
      '2026-06-01',
    );
    const exam = find(plan.items, 'exam')!;
    expect(exam.next_eligible).toMatchObject({ date: '2027-03-15', basis: 'computed' });
    expect(find(plan.items, 'exam.routine')).toMatchObject({
      next_eligible: exam.next_eligible,
      next_eligible_date: '2027-03-15',
      last_service: { date: '2026-03-15', source: 'staff' },
      last_service_date: '2026-03-15',
    });
    // Its own copy: changing one answer's sentences does not change the other's.
    expect(find(plan.items, 'exam.routine')!.next_eligible).not.toBe(exam.next_eligible);
  });

  it('a child with its own earlier rule takes the later parent date, and says why', () => {
    const plan = applyNextEligible(
      planOf([
        item('exam', { frequency: every(24) }, [item('exam.routine', { frequency: every(12) })]),
      ]),
      [{ benefit_code: 'exam', date: '2026-02-01', source: 'claim' }],
      '2026-03-15',
    );
    const routine = find(plan.items, 'exam.routine')!;
    expect(routine.next_eligible_date).toBe('2028-02-01');
    expect(routine.next_eligible).toMatchObject({ date: '2028-02-01', basis: 'computed' });
    expect(routine.next_eligible!.explanation.at(-1)).toBe(
      'It is part of eye exam, which is not available before 2028-02-01.',
    );
    expect(routine).not.toHaveProperty('last_service');
  });

  it('a date with basis unknown has no next_eligible_date', () => {
    const plan = planOf([
      item('exam', { frequency: { count: 1, period: { kind: 'plan_year', months: 12 } } }),
    ]);
    plan.begin_date = null;
    applyNextEligible(plan, [], '2026-03-15');
    expect(plan.items[0].next_eligible?.basis).toBe('unknown');
    expect(plan.items[0]).not.toHaveProperty('next_eligible_date');
  });

  const anyDate = fc
    .integer({ min: Date.UTC(2022, 0, 1) / 86_400_000, max: Date.UTC(2027, 11, 31) / 86_400_000 })
    .map((day) => new Date(day * 86_400_000).toISOString().slice(0, 10));
  const codes = [
    'exam',
    'exam.routine',
    'materials.frames',
    'materials.spectacle_lenses',
    'materials.contact_lenses',
  ];
  const records = fc.array(
    fc.record({
      benefit_code: fc.constantFrom(...codes),
      date: anyDate,
      source: fc.constantFrom(...SERVICE_SOURCES),
    }),
    { maxLength: 6 },
  );
  const statements = fc.dictionary(
    fc.constantFrom(...codes),
    fc.record(
      {
        last_service: fc.record({ date: anyDate, source: fc.constant('payer' as const) }),
        next_eligible_date: anyDate,
      },
      { requiredKeys: [] },
    ),
  );

  it("run on the payer's dates, then again with a history: as one run with everything", () => {
    fc.assert(
      fc.property(statements, records, anyDate, (stated, history, asOf) => {
        const twice = applyNextEligible(applyNextEligible(tree(stated), [], asOf), history, asOf);
        const once = applyNextEligible(tree(stated), history, asOf);
        expect(serializePlan(twice)).toEqual(serializePlan(once));
      }),
      { seed: 24, numRuns: 300 },
    );
  });

  /** Each item's dates and bases (an explanation may then name a benefit's own service apart). */
  const datesOf = (plan: Plan): unknown[] => {
    const out: unknown[] = [];
    const visit = (items: BenefitItem[]) =>
      items.forEach((i) => {
        out.push([i.benefit_code, i.last_service, i.next_eligible?.date, i.next_eligible?.basis]);
        visit(i.items ?? []);
      });
    visit(plan.items);
    return out;
  };

  /**
   * A payer's date on an item without a frequency is printed as it is (or, older than a service,
   * set aside with basis `unknown`): read back, it states nothing more. Such items are left out.
   */
  const withoutFrequency = new Set(['exam.routine', 'materials.spectacle_lenses']);
  const readableStatements = statements.map((stated) => {
    for (const [code, s] of Object.entries(stated))
      if (withoutFrequency.has(code)) delete s.next_eligible_date;
    return stated;
  });

  it('a plan read back from its printed form (a verifier copying an answer) gives the same dates', () => {
    fc.assert(
      fc.property(readableStatements, records, anyDate, (stated, history, asOf) => {
        const first = applyNextEligible(tree(stated), history, asOf);
        const printed = JSON.parse(JSON.stringify(serializePlan(first))) as PlanJson;
        const again = applyNextEligible(planFromJson(printed), history, asOf);
        expect(datesOf(again)).toEqual(datesOf(first));
      }),
      { seed: 25, numRuns: 300 },
    );
  });
});
