import { dependent271 } from '../../../../../test/x12/fixtures';
import { MAP271_OPTIONS, plans271 } from '../../../../../test/x12/mapped271';

describe('271 → result: the patient answered as a dependent (docs/api.md, Real insurers)', () => {
  it('comes back as a child with the plan, sharing the subscriber member id', () => {
    // plans271 fails the test unless the answer is found; asked about the child's birth date.
    const [plan] = plans271(dependent271({ trace: 'T-7' }), {
      ...MAP271_OPTIONS,
      queryDob: '2015-06-10',
    });
    expect(plan).toMatchObject({
      status: 'active',
      planName: 'KIDS VISION PLAN',
      planGroupId: 'GRP-778',
      planBeginDate: '2026-01-01',
      planEndDate: null,
    });
    const child = plan.persons.find((p) => p.firstName === 'TIMMY');
    expect(child).toMatchObject({
      type: 'child',
      dob: '2015-06-10',
      memberId: 'DV1234567',
      isActive: true,
    });
    const tree = child!.plan;
    expect(tree.comment).toBe(
      '53 (inquired benefit inconsistent with provider type) (service type AO)',
    );
    const [exam, materials] = tree.items;
    expect(exam.items?.[0]).toMatchObject({
      benefit_code: 'exam.routine',
      copayment: [{ flags: ['inn'], comment: 'per visit', value: '0' }],
    });
    expect(materials.items?.[0]).toMatchObject({
      benefit_code: 'materials.frames',
      allowance: [{ flags: ['inn'], comment: 'per calendar year', value: '120' }],
      allowance_accepted: [{ flags: ['inn'], comment: 'year to date', value: '120' }],
    });
  });
});
