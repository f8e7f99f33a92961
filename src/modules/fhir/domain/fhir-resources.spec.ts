import {
  coverageEligibilityResponse,
  outcomeOf,
  parseResponseId,
  type RequestView,
  type V2View,
} from './fhir-resources';
import { operationOutcome } from './operation-outcome';

const REQUEST: RequestView = {
  id: '41',
  uid: 'visit-1',
  createdAt: new Date('2026-12-06T10:00:00Z'),
  insurerCodes: ['insurer:demo:vision', 'insurer:vision:vsp'],
  query: { firstName: 'Maria', lastName: 'Garcia', dob: '1984-06-15', zipcode: '78701' },
};

const entry = (code: string, state: string, extra: Record<string, unknown> = {}) => ({
  insurer_code: code,
  state,
  result_ids: [],
  detail: null,
  ...extra,
});

describe('FHIR resources of a stored request (docs/api.md, FHIR R4)', () => {
  it('moves the outcome queued → partial → complete | error with the insurer entry', () => {
    const v2 = (status: string): V2View => ({
      status,
      error_code: null,
      error_detail: null,
      results: null,
    });
    expect(outcomeOf(v2('processing'), undefined)).toBe('queued');
    expect(outcomeOf(v2('processing'), entry('x', 'running'))).toBe('queued');
    expect(outcomeOf(v2('complete'), entry('x', 'waiting_for_person'))).toBe('partial');
    expect(outcomeOf(v2('processing'), entry('x', 'found'))).toBe('complete');
    expect(outcomeOf(v2('complete'), entry('x', 'no_plan'))).toBe('complete');
    expect(outcomeOf(v2('complete'), entry('x', 'failed'))).toBe('error');
    expect(outcomeOf(v2('error'), entry('x', 'running'))).toBe('error');
  });

  it('gives ids the door can read back, and no other', () => {
    expect(parseResponseId('41-2')).toEqual({ requestId: '41', n: 2 });
    for (const id of ['41', '41-0', '041-1', 'a-1', '41-1-1', '41-100'])
      expect(parseResponseId(id)).toBeNull();
  });

  it("maps a plan's items by network, each by category or product, never both", () => {
    const item = {
      benefit_code: 'exam.routine',
      copayment: [
        { flags: ['inn'], value: '10.0000' },
        { flags: ['oon'], value: '25.0000' },
      ],
      allowance: [{ flags: ['oon'], value: '45.0000' }],
      frequency: { count: 1, period: { kind: 'rolling', months: 12 }, shared_with: [] },
      next_eligible_date: '2027-03-15',
      items: [{ benefit_code: 'exam.contact_lens_fitting', flags: ['inn', 'not_covered'] }],
    };
    const v2: V2View = {
      status: 'complete',
      error_code: null,
      error_detail: null,
      results: [
        {
          id: 7,
          status: 'active',
          insurer_code: 'insurer:demo:vision',
          plan_begin_date: '2026-01-01',
          plan_end_date: '2026-12-31',
          persons: [
            {
              first_name: 'MARIA',
              last_name: 'Garcia',
              dob: '1984-06-15',
              plan: { insurer_state: 'oon', items: [item] },
            },
          ],
        },
      ],
      insurers: [entry('insurer:demo:vision', 'found', { result_ids: [7] })],
    };
    const r = coverageEligibilityResponse(REQUEST, 1, v2, []) as Record<string, any>;
    expect(r).toMatchObject({
      id: '41-1',
      outcome: 'complete',
      patient: { reference: 'Patient/41' },
      created: '2026-12-06T10:00:00.000+00:00',
    });
    const [insurance] = r.insurance;
    expect(insurance).toMatchObject({
      coverage: { reference: 'Coverage/41-1' },
      inforce: true,
      benefitPeriod: { start: '2026-01-01', end: '2026-12-31' },
    });
    const items = insurance.item as Record<string, any>[];
    expect(items.map((i) => [i.name, i.network.coding[0].code])).toEqual([
      ['exam.routine', 'in'],
      ['exam.routine', 'out'],
      ['exam.contact_lens_fitting', 'in'],
    ]);
    expect(items[0].benefit).toEqual([
      {
        type: {
          coding: [{ system: 'http://terminology.hl7.org/CodeSystem/benefit-type', code: 'copay' }],
        },
        allowedMoney: { value: 10, currency: 'USD' },
      },
    ]);
    expect(items[1].benefit.map((b: any) => b.allowedMoney.value)).toEqual([25, 45]);
    expect(items[0].extension).toEqual([
      {
        url: 'https://fhir.vision-eligibility.example/fhir/R4/StructureDefinition/benefit-frequency',
        valueTiming: {
          repeat: { frequency: 1, period: 12, periodUnit: 'mo' },
          code: {
            coding: [{ system: 'urn:vision-eligibility:frequency-period', code: 'rolling' }],
          },
        },
      },
      {
        url: 'https://fhir.vision-eligibility.example/fhir/R4/StructureDefinition/next-eligible-date',
        valueDate: '2027-03-15',
      },
    ]);
    expect(items[2]).toMatchObject({
      excluded: true,
      productOrService: { coding: [{ code: '92310' }] },
    });
    for (const i of items) expect(Boolean(i.category) !== Boolean(i.productOrService)).toBe(true);
  });

  it('words an error with our code and the AAA codes', () => {
    const v2: V2View = {
      status: 'complete',
      error_code: null,
      error_detail: null,
      results: [],
      insurers: [
        entry('insurer:demo:vision', 'no_plan'),
        entry('insurer:vision:vsp', 'failed', { detail: 'VSP refused the provider.' }),
      ],
    };
    const r = coverageEligibilityResponse(REQUEST, 2, v2, ['43']) as Record<string, any>;
    expect(r.outcome).toBe('error');
    expect(r.disposition).toBe('VSP refused the provider.');
    expect(r.error).toEqual([
      {
        code: {
          coding: [
            { system: 'urn:vision-eligibility:error-code', code: 'insurer_problem' },
            { system: 'urn:vision-eligibility:x12-aaa-reject-reason', code: '43' },
          ],
          text: 'VSP refused the provider.',
        },
      },
    ]);
  });

  it("words the JSON API's error bodies as OperationOutcome issues", () => {
    expect(operationOutcome(404, { detail: 'Patient 9 not found.' })).toEqual({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'not-found', diagnostics: 'Patient 9 not found.' }],
    });
    const tree = {
      errors: { $: ['Unknown insurer code: x.'], 'Patient.birthDate': { $: ['Required.'] } },
    };
    expect(operationOutcome(400, tree).issue).toEqual([
      { severity: 'error', code: 'invalid', diagnostics: 'Unknown insurer code: x.' },
      {
        severity: 'error',
        code: 'invalid',
        diagnostics: 'Patient.birthDate: Required.',
        expression: ['Patient.birthDate'],
      },
    ]);
    expect(
      [401, 403, 413, 429, 500].map((s) => (operationOutcome(s, {}).issue as any)[0].code),
    ).toEqual(['security', 'forbidden', 'too-costly', 'throttled', 'exception']);
  });
});
