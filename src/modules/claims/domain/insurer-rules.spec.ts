import type { CreateClaimDto } from '../api/dto/create-claim.dto';
import { insurerRuleViolations } from './insurer-rules';

function claim(insurer: string, changes: (c: CreateClaimDto) => void = () => undefined) {
  const person = {
    first_name: 'Maria',
    last_name: 'Gonzalez',
    dob: '1986-04-12',
    type: 'self',
    sex: 'female',
    member_id: 'M123',
    ssn_last_four: null,
  };
  const c = {
    patient: { ...person },
    primary_member: { ...person, insurer_code: insurer },
    services: [
      { codes: ['92014'], date: '2026-11-14', quantity: 1, cost: '145', diagnosis_codes: [] },
      {
        codes: ['V2100'],
        date: '2026-11-14',
        quantity: 2,
        cost: '90',
        diagnosis_codes: ['H52.13'],
      },
    ],
    paid_amount: '235',
  } as CreateClaimDto;
  changes(c);
  return c;
}

const paths = (c: CreateClaimDto) => insurerRuleViolations(c).map((v) => v.path);

describe('insurer claim rules', () => {
  it.each(['insurer:vision:vsp', 'insurer:demo:vision', 'insurer:vision:eye_med'])(
    'accepts a complete %s claim',
    (insurer) => {
      expect(insurerRuleViolations(claim(insurer))).toEqual([]);
    },
  );

  it.each(['insurer:vision:vsp', 'insurer:demo:vision'])(
    '%s needs sex on both persons, a diagnosis and a member id or SSN',
    (insurer) => {
      const c = claim(insurer, (x) => {
        x.patient.sex = null;
        x.primary_member.sex = undefined;
        x.primary_member.member_id = '';
        x.services[1].diagnosis_codes = null;
      });
      expect(paths(c)).toEqual([
        'patient.sex',
        'primary_member.sex',
        'services',
        'primary_member.member_id',
        'primary_member.ssn_last_four',
      ]);
      c.primary_member.ssn_last_four = '4321';
      expect(paths(c)).not.toContain('primary_member.member_id');
    },
  );

  it('EyeMed needs the member id of the primary member, and of a patient who is not "self"', () => {
    expect(
      paths(claim('insurer:vision:eye_med', (x) => (x.primary_member.member_id = null))),
    ).toEqual(['primary_member.member_id']);
    const child = claim('insurer:vision:eye_med', (x) => {
      x.patient.type = 'child';
      x.patient.member_id = null;
    });
    expect(paths(child)).toEqual(['patient.member_id']);
    const self = claim('insurer:vision:eye_med', (x) => {
      x.patient.type = 'Self';
      x.patient.member_id = null;
    });
    expect(paths(self)).toEqual([]);
    // EyeMed does not need sex or a diagnosis.
    const bare = claim('insurer:vision:eye_med', (x) => {
      x.patient.sex = null;
      x.services.forEach((s) => (s.diagnosis_codes = []));
    });
    expect(paths(bare)).toEqual([]);
  });

  it('has no extra rules for other insurers', () => {
    const c = claim('insurer:vision:spectera', (x) => {
      x.patient.sex = null;
      x.primary_member.member_id = null;
      x.services.forEach((s) => (s.diagnosis_codes = []));
    });
    expect(paths(c)).toEqual([]);
  });
});
