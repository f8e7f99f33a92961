import { basisOf, changesBetween, coverageOn } from './coverage';

/** An appointment's coverage from a V2 answer, on the visit's date (docs/api.md, Appointments). */
describe('coverage', () => {
  const item = (code: string, over: Record<string, unknown> = {}) => ({
    benefit_code: code,
    refresh_date: null,
    flags: [],
    items: [],
    ...over,
  });
  const answer = (over: Record<string, unknown> = {}, plan: Record<string, unknown> = {}) =>
    JSON.stringify({
      request_uid: 'R1',
      status: 'complete',
      error_code: null,
      results: [
        {
          id: 1,
          status: 'active',
          plan_is_active: true,
          plan_begin_date: '2026-01-01',
          plan_end_date: '2026-12-31',
          persons: [
            { id: 1, first_name: 'Sub', last_name: 'Scriber', dob: '1970-01-01', plan: null },
            {
              id: 2,
              first_name: 'Maria',
              last_name: 'Garcia',
              dob: '1984-06-15',
              plan: {
                items: [
                  item('exam', {
                    copayment: [
                      { flags: ['inn'], value: '10.0000' },
                      { flags: ['oon'], value: '0.0000' },
                    ],
                    items: [item('exam.routine')],
                  }),
                  item('materials', {
                    items: [
                      item('materials.frames', {
                        allowance: [{ value: '150.0000' }],
                        next_eligible_date: '2026-12-15',
                      }),
                      item('materials.contact_lenses', { flags: ['not_covered'] }),
                    ],
                  }),
                ],
                ...plan,
              },
            },
          ],
        },
      ],
      insurers: [{ insurer_code: 'insurer:demo:vision', state: 'found' }],
      ...over,
    });
  const maria = { dob: '1984-06-15', last_name: 'GARCIA' };

  it("reads the patient's benefits, inherited values included, and each one's availability on the date", () => {
    const basis = basisOf(answer(), maria);
    expect(basis.outcome).toBe('active');
    // The patient's person, found by date of birth and name (the Schedule's Counter link).
    expect(basis.person_id).toBe(2);
    const on = coverageOn(basis, '2026-12-01');
    expect(on.state).toBe('active');
    expect(on.benefits).toEqual({
      exam: { available: true, next_eligible_date: null, copayment: '10.0000', allowance: null },
      frames: {
        available: false,
        next_eligible_date: '2026-12-15',
        copayment: null,
        allowance: '150.0000',
      },
      spectacle_lenses: {
        available: null,
        next_eligible_date: null,
        copayment: null,
        allowance: null,
      },
      contact_lenses: {
        available: false,
        next_eligible_date: null,
        copayment: null,
        allowance: null,
      },
    });
    expect(coverageOn(basis, '2026-12-15').benefits!.frames.available).toBe(true);
  });

  it("a routine exam under an exam that is not available yet is not available either (its parent's date)", () => {
    const body = answer(
      {},
      {
        items: [
          item('exam', {
            next_eligible_date: '2026-11-15',
            copayment: [{ value: '0.0000' }],
            items: [item('exam.routine')],
          }),
        ],
      },
    );
    const { benefits } = coverageOn(basisOf(body, maria), '2026-06-01');
    expect(benefits!.exam).toEqual({
      available: false,
      next_eligible_date: '2026-11-15',
      copayment: '0.0000',
      allowance: null,
    });
    expect(coverageOn(basisOf(body, maria), '2026-11-15').benefits!.exam.available).toBe(true);
  });

  it('a visit after the plan ends: inactive, nothing available', () => {
    const on = coverageOn(basisOf(answer(), maria), '2027-01-04');
    expect(on.state).toBe('inactive');
    expect(on.benefits!.exam.available).toBe(false);
  });

  it('no plan, an error, a person to wait for', () => {
    expect(basisOf(answer({ results: [] }), maria).outcome).toBe('no_plan');
    expect(basisOf(answer({ status: 'error', results: null }), maria).outcome).toBe('failed');
    const waiting = answer({ results: [], insurers: [{ state: 'waiting_for_person' }] });
    expect(basisOf(waiting, maria).outcome).toBe('waiting_for_person');
    expect(coverageOn(basisOf(waiting, maria), '2026-12-01')).toEqual({
      state: 'waiting_for_person',
      benefits: null,
    });
  });

  it('changes: the state and each benefit field that differs', () => {
    const basis = basisOf(answer(), maria);
    const before = coverageOn(basis, '2026-12-01');
    const after = coverageOn({ ...basis, outcome: 'inactive' }, '2026-12-01');
    expect(changesBetween(before, before)).toEqual([]);
    expect(changesBetween(before, after)).toEqual([
      { field: 'state', before: 'active', after: 'inactive' },
      { field: 'benefits.exam.available', before: true, after: false },
    ]);
  });
});
