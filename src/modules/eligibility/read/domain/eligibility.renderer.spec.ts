import { serializePlan } from '../../../../../test/support/serialize-plan';
import { buildPlan, PLAN_VARIANTS } from '@/modules/insurers/domain/demo/demo-plan';
import type { EligibilityResult, FoundPerson } from '../../store/eligibility-result.entity';
import {
  entryFields,
  personFields,
  type RenderInput,
  insurersOf,
  renderEntries,
  renderProcessing,
  renderResult,
  type ResultVersion,
  withInsurers,
  withMoreResults,
} from './eligibility.renderer';
import { ERROR_DETAILS } from '../../domain/error-details';

/**
 * The bodies are written piece by piece (each plan once, spliced in); they must be byte for byte
 * what JSON.stringify writes for the whole body as one object tree, as the renderer did before.
 */
function reference(input: RenderInput, version: ResultVersion): string {
  return JSON.stringify({
    request_uid: input.uid,
    status: input.status,
    error_code: input.status === 'error' ? input.errorCode : null,
    error_detail: input.status === 'error' ? (ERROR_DETAILS[input.errorCode!] ?? null) : null,
    results:
      input.status === 'complete' && input.results
        ? input.results.map(({ result, persons }) => ({
            ...entryFields(result),
            persons: persons.map((p) =>
              version === 'v2'
                ? { ...personFields(p), plan: serializePlan(p.plan) }
                : personFields(p),
            ),
          }))
        : null,
    insurers: input.insurers,
  });
}

const dates = { begin: '2026-01-01', end: '2026-12-31', refresh: '2027-01-01' };

function person(i: number, insurerState: 'inn' | 'oon', odd: boolean): FoundPerson {
  return {
    id: String(100 + i),
    resultId: '1',
    accountId: '1',
    position: i,
    firstName: odd ? 'Zoë "Z"' : 'Maria',
    lastName: odd ? '😀\u2028' : 'Garcia',
    dob: '1984-06-15',
    sex: 'F',
    memberId: odd ? null : 'VSP123',
    ssnLastFour: odd ? null : '6789',
    type: i === 0 ? 'subscriber' : 'dependent',
    address: odd
      ? ({ line1: '1 Main', city: 'Austin', zipcode: '78701', state: 'TX' } as never)
      : { line1: '1 Main', line2: 'Apt 2', city: 'Austin', zipcode: '78701', state: 'TX' },
    email: odd ? null : 'maria@example.com',
    phone: '5125550100',
    isActive: odd ? null : true,
    insurerState,
    plan: buildPlan(PLAN_VARIANTS[i % PLAN_VARIANTS.length], dates, {
      detail: odd ? 'full' : 'summary',
      markUsed: odd,
      examUsed: false,
      noOon: insurerState === 'inn',
      noInn: false,
    }),
    planToken: insurerState === 'inn' ? 'a'.repeat(64) : null,
    planTokenExpiredAt: insurerState === 'inn' ? '2026-12-22' : null,
  };
}

function result(i: number, odd: boolean): EligibilityResult {
  return {
    id: String(40 + i),
    requestId: '7',
    accountId: '1',
    position: i,
    insurerCode: 'insurer:demo:vision',
    status: 'active',
    planName: odd ? 'Plan "Ü"' : 'VisionCare Plus',
    planGroup: 'Acme',
    planGroupId: odd ? null : 'GRP-1',
    planBeginDate: '2026-01-01',
    planEndDate: odd ? null : '2026-12-31',
    planRefreshDate: null,
    planIsActive: !odd,
  };
}

describe('renderResult', () => {
  const inputs: [string, RenderInput][] = [
    [
      'processing',
      { uid: 'u-1', status: 'processing', errorCode: null, results: null, insurers: [] },
    ],
    [
      'error, insurer',
      { uid: 'u-2', status: 'error', errorCode: 'insurer_problem', results: null, insurers: [] },
    ],
    [
      'error, ours',
      { uid: 'u-4', status: 'error', errorCode: 'unexpected_error', results: null, insurers: [] },
    ],
    [
      'complete, no plans',
      { uid: 'u-3', status: 'complete', errorCode: null, results: [], insurers: [] },
    ],
    [
      'complete, one plan, one person',
      {
        uid: 'visit-2026-11-21-0042',
        status: 'complete',
        errorCode: null,
        results: [{ result: result(0, false), persons: [person(0, 'inn', false)] }],
        insurers: [],
      },
    ],
    [
      'complete, three plans with odd text, persons in and out of network, none',
      {
        uid: 'odd "uid" 😀',
        status: 'complete',
        errorCode: null,
        results: [
          { result: result(0, true), persons: [person(0, 'oon', true), person(1, 'inn', false)] },
          { result: result(1, false), persons: [] },
          { result: result(2, true), persons: [person(2, 'inn', true)] },
        ],
        insurers: [
          {
            insurer_code: 'insurer:demo:vision',
            state: 'found',
            result_ids: [1, 2, 3],
            detail: null,
            finished_at: '2026-11-27T06:00:00.000Z',
            verification: null,
          },
          {
            insurer_code: 'insurer:vision:vsp',
            state: 'not_asked',
            result_ids: [],
            detail: 'An active plan was found with "Sandbox".',
            finished_at: '2026-11-27T06:00:00.000Z',
            verification: null,
          },
        ],
      },
    ],
  ];

  for (const version of ['v1', 'v2'] as const)
    for (const [name, input] of inputs)
      it(`writes ${version}, ${name}, as the whole tree's JSON.stringify`, () => {
        const body = renderResult(input, version);
        expect(body).toBe(reference(input, version));
        expect(JSON.parse(body)).toEqual(JSON.parse(reference(input, version)));
      });
});

describe('error_detail (docs/api.md, Errors)', () => {
  it('says in words why a check ended error, beside its code, and is null otherwise', () => {
    for (const code of ['insurer_problem', 'unexpected_error'] as const) {
      const body = JSON.parse(
        renderResult(
          { uid: 'u', status: 'error', errorCode: code, results: null, insurers: [] },
          'v1',
        ),
      );
      expect(Object.keys(body)).toEqual([
        'request_uid',
        'status',
        'error_code',
        'error_detail',
        'results',
        'insurers',
      ]);
      expect(body.error_detail).toMatch(/^[A-Z].{20,}\.$/);
    }
    expect(ERROR_DETAILS.insurer_problem).not.toBe(ERROR_DETAILS.unexpected_error);
    const done = JSON.parse(
      renderResult(
        { uid: 'u', status: 'complete', errorCode: null, results: [], insurers: [] },
        'v2',
      ),
    );
    expect(done.error_detail).toBeNull();
  });
});

describe('an answer that grows (docs/api.md, Universal Search insurer by insurer)', () => {
  const first = result(0, false);
  const later = result(1, true);
  const entries = (ids: number[]): RenderInput['insurers'] => [
    {
      insurer_code: 'insurer:vision:vsp',
      state: ids.length ? 'found' : 'waiting_for_person',
      result_ids: ids,
      detail: null,
      finished_at: null,
      verification: { task_id: 't', state: 'queued', due_by: '2026-11-27T10:00:00.000Z' },
    },
  ];
  for (const version of ['v1', 'v2'] as const)
    for (const before of [[], [{ result: first, persons: [person(0, 'inn', false)] }]])
      it(`adds results and replaces insurers as rendering the whole would (${version}, ${before.length} before)`, () => {
        const added = [{ result: later, persons: [person(1, 'oon', true)] }];
        const base = { uid: 'u', status: 'complete' as const, errorCode: null };
        const old = renderResult({ ...base, results: before, insurers: entries([]) }, version);
        expect(insurersOf(old)).toEqual(entries([]));
        const grown = withMoreResults(old, renderEntries(added, version), entries([41]));
        expect(grown).toBe(
          renderResult(
            { ...base, results: [...before, ...added], insurers: entries([41]) },
            version,
          ),
        );
        expect(withInsurers(old, entries([41]))).toBe(
          renderResult({ ...base, results: before, insurers: entries([41]) }, version),
        );
      });
});

describe('renderProcessing (docs/api.md, Insurers and assisted verification)', () => {
  const task = (id: string, due: string) => ({ task_id: id, state: 'queued', due_by: due });

  it('names every open task in verifications, the first of them in verification, insurers last', () => {
    const tasks = [task('a', '2026-11-27T10:00:00.000Z'), task('b', '2026-11-27T11:00:00.000Z')];
    expect(JSON.parse(renderProcessing('u', [], tasks))).toEqual({
      request_uid: 'u',
      status: 'processing',
      error_code: null,
      error_detail: null,
      results: null,
      verification: tasks[0],
      verifications: tasks,
      insurers: [],
    });
    expect(insurersOf(renderProcessing('u', [], tasks))).toEqual([]);
  });

  it('has neither key while no person is checking', () => {
    const body = JSON.parse(renderProcessing('u', [])) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'request_uid',
      'status',
      'error_code',
      'error_detail',
      'results',
      'insurers',
    ]);
  });
});
