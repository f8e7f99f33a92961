import { atRisk, compactResult, explainBenefits } from './mcp-answers';

const frames = {
  benefit_code: 'materials.frames',
  allowance: [
    { flags: ['oon'], value: '70.0000' },
    { flags: ['inn'], value: '150.0000' },
  ],
  frequency: { count: 1, period: { kind: 'rolling', months: 24 }, shared_with: [] },
  next_eligible: {
    date: '2027-03-01',
    basis: 'computed',
    explanation: ['Frames: once every 24 months.'],
  },
  items: [
    {
      benefit_code: 'materials.frames.designer',
      next_eligible: { date: '2027-03-01', basis: 'computed', explanation: ['Inherited.'] },
    },
  ],
};
const exam = {
  benefit_code: 'exam',
  copayment: [{ value: '10.0000' }],
  next_eligible: { date: null, basis: 'unknown', explanation: [] },
};
const body = {
  request_uid: 'visit-1',
  status: 'complete',
  error_code: null,
  error_detail: null,
  results: [
    {
      id: 1,
      status: 'active',
      insurer_code: 'insurer:demo:vision',
      plan_name: 'Plus',
      persons: [
        {
          id: 7,
          type: 'self',
          first_name: 'Maria',
          last_name: 'Garcia',
          full_name: 'Maria Garcia',
          dob: '1984-06-15',
          member_id: 'M1',
          ssn_last_four: '1234',
          address: { line1: '1 Main St' },
          is_active: true,
          plan: { insurer_state: 'inn', items: [exam, frames] },
        },
      ],
    },
  ],
};

describe('the MCP answers (docs/api.md, MCP)', () => {
  it('compacts a V2 result to the plan, its persons and the benefits stating something', () => {
    const out = compactResult(body) as any;
    const person = out.results[0].persons[0];
    expect(Object.keys(person)).toEqual([
      'id',
      'type',
      'full_name',
      'dob',
      'member_id',
      'is_active',
      'plan',
    ]);
    expect(person.plan.benefits).toEqual([
      {
        benefit_code: 'exam',
        copayment: '10.0000',
        next_eligible: { date: null, basis: 'unknown' },
      },
      {
        benefit_code: 'materials.frames',
        allowance: '150.0000',
        frequency: frames.frequency,
        next_eligible: { date: '2027-03-01', basis: 'computed' },
      },
    ]);
    expect(compactResult({ ...body, status: 'processing', results: null }).results).toBeNull();
  });

  it('explains each benefit with a rule of its own in sentences, as of a day', () => {
    const out = explainBenefits(body, '2026-12-06') as any;
    expect(out.persons[0].sentences).toEqual([
      'Frames: not available before 2027-03-01. Frames: once every 24 months.',
    ]);
    const later = explainBenefits(body, '2027-03-01') as any;
    expect(later.persons[0].sentences[0]).toMatch(/^Frames: available now\./);
    const bare = explainBenefits(
      { ...body, results: [{ ...body.results[0], persons: [{ id: 1, plan: { items: [] } }] }] },
      '2026-12-06',
    ) as any;
    expect(bare.persons[0].sentences).toEqual([
      'The plan states no frequency or next eligible date for its benefits.',
    ]);
  });

  it('says why an appointment is at risk', () => {
    const out = atRisk({
      external_id: 'v1',
      starts_at: '2026-11-24T21:00:00.000+00:00',
      insurer_codes: ['insurer:vision:vsp'],
      patient: { first_name: 'Ana', last_name: 'Lopez', dob: '1990-01-02', zipcode: '78701' },
      coverage: { state: 'failed', stale: false, detail: 'The insurer did not answer.' },
    });
    expect(out).toMatchObject({
      coverage_state: 'failed',
      patient: { first_name: 'Ana', last_name: 'Lopez', dob: '1990-01-02' },
      why: ['The last check failed: the insurer did not answer.', 'The insurer did not answer.'],
    });
  });
});
