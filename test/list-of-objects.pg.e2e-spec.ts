import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { CreateClaimDto } from '@/modules/claims/api/dto/create-claim.dto';
import { CreateBatchDto } from '@/modules/eligibility/api/dto/create-batch.dto';
import { CreateEstimateDto } from '@/modules/estimates/api/dto/create-estimate.dto';
import { QuoteOrderDto } from '@/modules/quotes/api/dto/create-quote.dto';
import { NextEligibleRequestDto } from '@/modules/estimates/api/dto/next-eligible.dto';
import { EstimatePlanDto, PlanBenefitItemDto } from '@/lib/benefits';
import {
  CompleteTaskDto,
  VerifiedPlanDto,
} from '@/modules/verification/api/dto/verification-input.dto';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch } from './support/eligibility';
import { waitUntil } from './support/queues';
import { createAccount, TestAccount } from './support/factories';

/**
 * Issue 19: an element of a list of objects that is not an object is a field error on its index
 * (docs/api.md, Errors), answered by validation for every such list, so no service ever sees it.
 * The table holds every list of objects the API has; the first test fails when a DTO gains one
 * that is not in it (add a row) or that does not use NestedListField.
 */

const person = {
  first_name: 'Maria',
  last_name: 'Gonzalez',
  dob: '1986-04-12',
  type: 'self',
  sex: 'female',
};

interface ListOfObjects {
  /** The DTO class and property that hold the list. */
  dto: new () => object;
  property: string;
  method: 'post';
  path: string;
  /** A valid request body whose list is `elements`. */
  body: (elements: unknown[]) => Record<string, unknown>;
  /** A valid element of the list. */
  element: () => Record<string, unknown>;
  /** Where the list sits in the error tree. */
  at: string[];
  /**
   * Counts what a successful request would have created, to show nothing was; absent for an
   * endpoint that creates nothing (an estimate).
   */
  count?: (t: TestApp, a: TestAccount) => Promise<number>;
  /** The path of each request when `path` names an object that must exist first (a task). */
  pathFor?: (t: TestApp, a: TestAccount) => Promise<string>;
}

/** docs/api.md, Insurers and assisted verification: a fresh VSP search's verification task, and its `complete` path. */
async function completePath(t: TestApp, a: TestAccount): Promise<string> {
  const uid = await startSearch(t.app, a.auth, {
    insurer_code: 'insurer:vision:vsp',
    patient: patient(),
    // The same patient each time: a person is asked anew (no reuse of an earlier answer).
    max_age_hours: 0,
  });
  const task = await waitUntil('verification task', async () => {
    const res = await request(t.app.getHttpServer())
      .get(`/api/auth/v1/eligibility/${uid}/`)
      .set(a.auth);
    return res.body.verification?.task_id as string | undefined;
  });
  return `/api/auth/v1/verification-tasks/${task}/complete/`;
}
const verifiedPerson = () => ({
  ...person,
  address: { line1: '1 Main St', city: 'Austin', zipcode: '78701', state: 'TX' },
  phone: '512-555-0100',
  plan: {
    insurer_state: 'oon',
    items: [{ benefit_code: 'exam.routine', refresh_date: '2027-01-01' }],
  },
});
const verifiedPlan = (persons: unknown[] = [verifiedPerson()]) => ({
  status: 'active',
  plan_name: 'VSP Choice',
  plan_begin_date: '2026-01-01',
  plan_is_active: true,
  persons,
});
const EVIDENCE = { source: 'portal', checked_at: '2026-11-24T10:00:00Z' };

/** An inline plan for POST /api/auth/v1/estimates/ with one exam item. */
const exam = (extra: Record<string, unknown> = {}) => ({
  benefit_code: 'exam.routine',
  refresh_date: '2027-01-01',
  ...extra,
});
const estimate = (plan: Record<string, unknown>, services?: unknown[]) => ({
  plan: { insurer_state: 'oon', items: [exam()], ...plan },
  services: services ?? [{ codes: ['92014'], cost: '120.00' }],
});
const ESTIMATES = '/api/auth/v1/estimates/';

/** Every flag-based list a plan and an item share (PlanLists), with a valid entry of each. */
const PLAN_LISTS: [string, () => Record<string, unknown>][] = [
  ['copayment', () => ({ value: '10.00', flags: ['oon'] })],
  ['coinsurance', () => ({ value: '20' })],
  ['deductible', () => ({ value: '25.00', flags: ['inn'] })],
  ['allowance', () => ({ value: '45.00', flags: ['oon'] })],
  ['allowance_accepted', () => ({ value: '0' })],
  ['allowance_reserved', () => ({ value: '0' })],
  ['discount', () => ({ value: '0.1' })],
  ['margin_limit', () => ({ value: '85' })],
  ['is_authorization_required', () => ({ value: false })],
];
const ITEM_LISTS: [string, () => Record<string, unknown>][] = [
  ['quantity', () => ({ value: 1 })],
  ['quantity_accepted', () => ({ value: 0 })],
  ['quantity_reserved', () => ({ value: 0 })],
];

/** PlanLists is not exported: its rules are registered on the class the plan DTO extends. */
const PlanLists = Object.getPrototypeOf(EstimatePlanDto) as new () => object;

const LISTS: ListOfObjects[] = [
  {
    dto: CreateClaimDto,
    property: 'services',
    method: 'post',
    path: '/api/auth/v1/claims/',
    body: (services) => ({
      patient: person,
      primary_member: { ...person, insurer_code: 'insurer:vision:cigna_vision' },
      services,
      paid_amount: '10.00',
    }),
    element: () => ({ codes: ['92014'], date: '2026-01-14', quantity: 1, cost: '10.00' }),
    at: ['services'],
    count: async (t, a) => {
      const res = await request(t.app.getHttpServer())
        .get('/api/auth/v1/claims/?limit=200')
        .set(a.auth);
      return (res.body as { result: unknown[] }).result.length;
    },
  },
  {
    dto: CreateBatchDto,
    property: 'items',
    method: 'post',
    path: '/api/auth/v1/eligibility/batches/',
    body: (items) => ({ items }),
    element: () => ({
      insurer_code: 'insurer:demo:vision',
      patient: { first_name: 'Ana', last_name: 'Lopez', dob: '1990-02-03', zipcode: '78701' },
    }),
    at: ['items'],
    count: async (t, a) => {
      const [{ n }] = await t.app
        .get(DataSource)
        .query('SELECT count(*)::int AS n FROM eligibility_batches WHERE account_id = $1', [
          a.accountId,
        ]);
      return n as number;
    },
  },
  {
    dto: QuoteOrderDto,
    property: 'lens_options',
    method: 'post',
    path: '/api/auth/v1/quotes/',
    body: (lens_options) => ({
      plan: { insurer_state: 'inn', items: [exam()], materials: { network: 'inn' } },
      order: { lenses: { type: 'single_vision', retail: '100.00' }, lens_options },
    }),
    element: () => ({ option: 'uv', retail: '20.00' }),
    at: ['order', 'lens_options'],
    count: async (t, a) =>
      (
        await t.app
          .get(DataSource)
          .query('SELECT count(*)::int AS n FROM quotes WHERE account_id = $1', [a.accountId])
      )[0].n as number,
  },
  {
    dto: CreateEstimateDto,
    property: 'services',
    method: 'post',
    path: ESTIMATES,
    body: (services) => estimate({}, services),
    element: () => ({ codes: ['92014'], cost: '120.00', quantity: 1 }),
    at: ['services'],
  },
  {
    dto: EstimatePlanDto,
    property: 'items',
    method: 'post',
    path: ESTIMATES,
    body: (items) => estimate({ items }),
    element: () => exam(),
    at: ['plan', 'items'],
  },
  {
    dto: PlanBenefitItemDto,
    property: 'items',
    method: 'post',
    path: ESTIMATES,
    body: (items) => estimate({ items: [exam({ items })] }),
    element: () => exam({ benefit_code: 'exam.routine.dilation' }),
    at: ['plan', 'items', '0', 'items'],
  },
  ...PLAN_LISTS.map(([property, element]): ListOfObjects => ({
    dto: PlanLists,
    property,
    method: 'post',
    path: ESTIMATES,
    body: (entries) => estimate({ [property]: entries }),
    element,
    at: ['plan', property],
  })),
  ...ITEM_LISTS.map(([property, element]): ListOfObjects => ({
    dto: PlanBenefitItemDto,
    property,
    method: 'post',
    path: ESTIMATES,
    body: (entries) => estimate({ items: [exam({ [property]: entries })] }),
    element,
    at: ['plan', 'items', '0', property],
  })),
];

/** docs/api.md, Next eligible dates: one rule per benefit, so each rule names its own. */
let ruleNumber = 0;
const NEXT_ELIGIBLE = '/api/auth/v1/benefits/next-eligible/';
const examRule = (code = 'exam.routine') => ({
  benefit_code: code,
  frequency: { count: 1, period: { kind: 'rolling', months: 12 } },
});
LISTS.push(
  {
    dto: NextEligibleRequestDto,
    property: 'rules',
    method: 'post',
    path: NEXT_ELIGIBLE,
    body: (rules) => ({ as_of: '2026-01-15', rules, history: [] }),
    element: () => examRule(`exam.rule_${++ruleNumber}`),
    at: ['rules'],
  },
  {
    dto: NextEligibleRequestDto,
    property: 'history',
    method: 'post',
    path: NEXT_ELIGIBLE,
    body: (history) => ({ as_of: '2026-01-15', rules: [examRule()], history }),
    element: () => ({ benefit_code: 'exam.routine', date: '2025-06-01' }),
    at: ['history'],
  },
);

LISTS.push(
  {
    dto: CompleteTaskDto,
    property: 'plans',
    method: 'post',
    path: '/api/auth/v1/verification-tasks/{id}/complete/',
    pathFor: completePath,
    body: (plans) => ({ plans, evidence: EVIDENCE }),
    element: () => verifiedPlan(),
    at: ['plans'],
  },
  {
    dto: VerifiedPlanDto,
    property: 'persons',
    method: 'post',
    path: '/api/auth/v1/verification-tasks/{id}/complete/',
    pathFor: completePath,
    body: (persons) => ({ plans: [verifiedPlan(persons)], evidence: EVIDENCE }),
    element: verifiedPerson,
    at: ['plans', '0', 'persons'],
  },
);

/** Elements that are not objects, as a client might send them. */
const NOT_OBJECTS: [string, (valid: Record<string, unknown>) => unknown][] = [
  ['an empty list', () => []],
  ['a deeply nested empty list', () => [[[[[[]]]]]]],
  ['a list holding a valid element', (valid) => [valid]],
  ['a list holding an empty object', () => [{}]],
  ['a string', () => 'x'],
  ['an empty string', () => ''],
  ['a number', () => 3],
  ['zero', () => 0],
  ['null', () => null],
  ['true', () => true],
  ['false', () => false],
];

const nest = (path: string[], leaf: unknown): unknown =>
  path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), leaf);

describe('an element of a list of objects that is not an object (issue 19)', () => {
  let t: TestApp;
  let a: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
  });
  afterAll(() => t.close());

  it('the table holds every list of objects of the API, each declared with NestedListField', () => {
    // class-validator's registry of every rule of every DTO the app loaded.
    const registry = (
      getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, ValidationMetadata[]> }
    ).validationMetadatas;
    const all = [...registry.values()].flat();
    const nestedLists = all
      .filter(
        (m) =>
          m.type === 'nestedValidation' &&
          typeof m.target === 'function' &&
          (m.each ||
            Reflect.getMetadata('design:type', m.target.prototype, m.propertyName) === Array),
      )
      .map((m) => ({ target: m.target as new () => object, property: m.propertyName }));
    const name = (x: { target?: unknown; dto?: unknown; property: string }) =>
      `${((x.dto ?? x.target) as { name: string }).name}.${x.property}`;
    expect(nestedLists.map(name).sort()).toEqual(LISTS.map(name).sort());
    for (const list of nestedLists) {
      const checksElements = all.some(
        (m) =>
          m.target === list.target &&
          m.propertyName === list.property &&
          typeof (m.context as { itemError?: unknown } | undefined)?.itemError === 'function',
      );
      expect([name(list), checksElements]).toEqual([name(list), true]);
    }
  });

  describe.each(LISTS.map((list) => [`${list.path} ${list.at.join('.')}`, list] as const))(
    '%s',
    (_, list) => {
      const cases = NOT_OBJECTS.flatMap(([label, make]) => [
        { label: `${label} alone`, index: 0, make },
        { label: `${label} after a valid element`, index: 1, make },
      ]);

      it.each(cases)(
        'answers $label with 400 and the error on its index',
        async ({ index, make }) => {
          const before = await list.count?.(t, a);
          const elements: unknown[] = [list.element(), list.element()];
          elements[index] = make(list.element());
          const path = list.pathFor ? await list.pathFor(t, a) : list.path;
          const res = await request(t.app.getHttpServer())
            [list.method](path)
            .set(a.auth)
            .send(list.body(elements.slice(0, index + 1)));
          expect(res.status).toBe(400);
          expect(res.text).toBe(
            JSON.stringify({
              errors: nest(list.at, {
                [String(index)]: { $: ['Invalid data. Expected a dictionary.'] },
              }),
            }),
          );
          expect(await list.count?.(t, a)).toBe(before);
        },
      );

      it('accepts the same body with valid elements, and counts what it created', async () => {
        const before = await list.count?.(t, a);
        const path = list.pathFor ? await list.pathFor(t, a) : list.path;
        const res = await request(t.app.getHttpServer())
          [list.method](path)
          .set(a.auth)
          .send(list.body([list.element(), list.element()]));
        expect([res.status, res.body]).toEqual([list.count ? 201 : 200, expect.anything()]);
        if (list.count) expect(await list.count(t, a)).toBe(before! + 1);
      });
    },
  );
});
