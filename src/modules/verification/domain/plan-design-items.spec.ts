import {
  type DesignItem,
  designGroupKey,
  mergeDesignItems,
  withoutUsedValues,
} from './plan-design-items';

const R = '2027-01-01';

/** A small tree: exam (with a child) and materials with frames. */
const design = (): DesignItem[] => [
  {
    benefit_code: 'exam',
    refresh_date: R,
    flags: [],
    copayment: [{ flags: ['inn'], value: '10.0000' }],
    allowance: [{ flags: ['oon'], value: '45.0000' }],
    items: [{ benefit_code: 'exam.contact_lens_fitting', refresh_date: R, flags: [], items: [] }],
  },
  {
    benefit_code: 'materials',
    refresh_date: R,
    flags: [],
    items: [
      {
        benefit_code: 'materials.frames',
        refresh_date: R,
        flags: ['exclusive-use'],
        allowance: [{ flags: ['inn'], value: '150.0000' }],
        items: [],
      },
    ],
  },
];

describe('plan design items (docs/api.md, Plan designs)', () => {
  it('clears used values at every depth and keeps everything else', () => {
    const used = design();
    Object.assign(used[0], {
      allowance_accepted: [{ value: '20.0000' }],
      quantity_reserved: [{ value: 1 }],
      last_service_date: '2026-03-02',
      next_eligible_date: '2027-03-02',
      last_service: { date: '2026-03-02', source: 'payer' },
      next_eligible: { date: '2027-03-02', basis: 'computed', explanation: [] },
      frequency: { count: 1, period: { kind: 'rolling', months: 12 }, shared_with: [] },
      quantity: [{ value: 1, comment: 'every 12 months' }],
    });
    Object.assign(used[1].items![0], { quantity_accepted: [{ value: 1 }] });
    const clean = withoutUsedValues(used);
    expect(JSON.stringify(clean)).not.toMatch(/_accepted|_reserved|last_service|next_eligible/);
    expect(clean[0].quantity).toEqual([{ value: 1, comment: 'every 12 months' }]);
    // How often the plan allows it is the plan's, not the member's.
    expect(clean[0].frequency).toEqual(used[0].frequency);
    expect(clean[1].items![0]).toEqual(design()[1].items![0]);
    // The input is left as it was.
    expect(used[0].last_service_date).toBe('2026-03-02');
  });

  it('keys a design by the group id, else the group, else none', () => {
    expect(designGroupKey({ planGroupId: ' GRP-1 ', planGroup: 'Acme' })).toBe('GRP-1');
    expect(designGroupKey({ planGroupId: null, planGroup: ' Acme ' })).toBe('Acme');
    expect(designGroupKey({ planGroupId: '', planGroup: '' })).toBeNull();
  });

  it('no items given: the design as it is (a copy)', () => {
    const saved = design();
    const merged = mergeDesignItems(saved, []);
    expect(merged).toEqual(saved);
    merged[0].benefit_code = 'changed';
    expect(saved[0].benefit_code).toBe('exam');
  });

  it('an item given replaces the item of its code at any depth; without `items` it keeps the children', () => {
    const merged = mergeDesignItems(design(), [
      { benefit_code: 'exam', refresh_date: '2027-06-01', copayment: [{ value: '5' }] },
      { benefit_code: 'materials.frames', refresh_date: R, allowance: [{ value: '99' }] },
    ]);
    expect(merged[0]).toEqual({
      benefit_code: 'exam',
      refresh_date: '2027-06-01',
      copayment: [{ value: '5' }],
      items: design()[0].items,
    });
    expect(merged[1].items).toEqual([
      {
        benefit_code: 'materials.frames',
        refresh_date: R,
        allowance: [{ value: '99' }],
        items: [],
      },
    ]);
  });

  it('an item with `items` brings its own children; codes the design lacks go under their parent or at the top', () => {
    const merged = mergeDesignItems(design(), [
      { benefit_code: 'exam', refresh_date: R, items: [] },
      { benefit_code: 'materials.frames.premium', refresh_date: R },
      { benefit_code: 'lasik', refresh_date: R },
      { benefit_code: 'exam.contact_lens_fitting', refresh_date: R, comment: 'new' },
    ]);
    // The old child of `exam` went with it; the one given after it goes under it.
    expect(merged[0]).toEqual({
      benefit_code: 'exam',
      refresh_date: R,
      items: [{ benefit_code: 'exam.contact_lens_fitting', refresh_date: R, comment: 'new' }],
    });
    expect(merged[1].items![0].items).toEqual([
      { benefit_code: 'materials.frames.premium', refresh_date: R },
    ]);
    expect(merged.map((i) => i.benefit_code)).toEqual(['exam', 'materials', 'lasik']);
  });
});
