import request from 'supertest';
import { addMonths } from '@/lib/benefits';
import { todayIso } from '@/platform/kernel/time';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';
import { MSG } from '@/platform/kernel/messages';
import { PERIOD_KINDS, SERVICE_SOURCES } from '@/lib/benefits/next-eligible.types';

/**
 * docs/api.md, Next eligible dates in results (a verifier's answer): a plan item's `frequency`,
 * `last_service` and `next_eligible` as an inline estimate plan and a verifier's `complete` take
 * them, checked field by field, and what a finishing search makes of a verifier's.
 */

const VSP = 'insurer:vision:vsp';
const TASKS = '/api/auth/v1/verification-tasks/';
const RECEIPT = [{ codes: ['V2020'], cost: '80.00' }];
const TODAY = todayIso();

type Item = { benefit_code: string; items?: Item[]; [key: string]: any };
const find = (items: Item[], code: string): Item | undefined =>
  items.find((i) => i.benefit_code === code) ??
  items.map((i) => find(i.items ?? [], code)).find(Boolean);

describe('frequency and dates in plan input (docs/api.md, Next eligible dates in results)', () => {
  let t: TestApp;
  let a: TestAccount;
  const http = () => request(t.app.getHttpServer());
  const post = (body: object) => http().post('/api/auth/v1/estimates/').set(a.auth).send(body);

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
  });
  afterAll(() => t.close());

  it("takes an item's frequency, last service and next eligible date, checked field by field", async () => {
    const frames = (fields: Record<string, unknown>) => ({
      insurer_state: 'oon',
      items: [
        {
          benefit_code: 'materials.frames',
          refresh_date: '2027-01-01',
          allowance: [{ flags: ['oon'], value: 62.5 }],
          ...fields,
        },
      ],
    });
    const ok = await post({
      plan: frames({
        frequency: {
          count: 1,
          period: { kind: 'rolling', months: 24 },
          shared_with: ['materials.contact_lenses'],
        },
        last_service: { date: '2025-08-31', source: 'claim' },
        last_service_date: '2025-08-31',
        next_eligible: { date: '2027-08-31', basis: 'computed', explanation: ['Two years on.'] },
        next_eligible_date: '2027-08-31',
      }),
      services: [{ codes: ['V2020'], cost: 80 }],
    });
    expect(ok.status).toBe(200);
    // Not yet eligible again: the estimate pays nothing, and says why.
    expect(ok.body.estimated_reimbursement).toBe('0.0000');
    expect(ok.body.lines[0].notes).toEqual([
      'V2020 maps to materials.frames',
      'not eligible until 2027-08-31 (last used 2025-08-31): not reimbursed',
    ]);

    const item = (errors: unknown) => ({ plan: { items: { '0': errors } } });
    for (const [fields, errors] of [
      [
        { frequency: { count: 0, period: { kind: 'weekly' }, shared_with: ['frames!'] } },
        item({
          frequency: {
            count: { $: ['Ensure this value is greater than or equal to 1.'] },
            period: {
              kind: { $: ['"weekly" is not a valid choice.', MSG.allowedChoices(PERIOD_KINDS)] },
            },
            shared_with: { '0': { $: ['Letters, digits, dots, hyphens and underscores only.'] } },
          },
        }),
      ],
      [
        { frequency: { count: 1, period: { kind: 'rolling' } } },
        item({ frequency: { period: { $: ['A rolling period needs its length in months.'] } } }),
      ],
      [
        { frequency: { count: 1, period: { kind: 'calendar_year', months: 18 } } },
        item({
          frequency: {
            period: {
              $: ['Calendar-year and plan-year periods last whole years: 12, 24, 36, … months.'],
            },
          },
        }),
      ],
      [
        {
          last_service: { date: '2025-02-30', source: 'memory' },
          next_eligible: { date: null, basis: 'computed' },
        },
        item({
          last_service: {
            date: {
              $: [
                'Date has wrong format. Use YYYY-MM-DD.',
                '2025-02-30 is not a date: that month has 28 days.',
              ],
            },
            source: { $: ['"memory" is not a valid choice.', MSG.allowedChoices(SERVICE_SOURCES)] },
          },
          next_eligible: {
            basis: { $: ['A date goes with basis payer_stated or computed, none with unknown.'] },
          },
        }),
      ],
      [
        {
          last_service: { date: '2025-08-31', source: 'staff' },
          last_service_date: '2025-09-01',
          next_eligible: { date: '2027-08-31', basis: 'payer_stated' },
          next_eligible_date: '2027-09-01',
        },
        item({
          last_service_date: { $: ['Must equal last_service.date.'] },
          next_eligible_date: { $: ['Must equal next_eligible.date.'] },
        }),
      ],
    ] as [Record<string, unknown>, unknown][]) {
      const r = await post({ plan: frames(fields), services: RECEIPT });
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { errors } });
    }
  });

  /** A VSP search of Maria Garcia waiting for its task: the request uid and the task id. */
  async function vspTask() {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: VSP,
      patient: patient(),
      max_age_hours: 0,
    });
    const answer = await waitUntil(`task of ${uid}`, async () => {
      const res = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth);
      return res.body.verification ? res.body : undefined;
    });
    return { uid, taskId: answer.verification.task_id as string };
  }

  /** A verifier's `complete` of Maria's plan with these items. */
  const completion = (items: object[]) => ({
    plans: [
      {
        status: 'active',
        plan_name: 'VSP Choice',
        plan_begin_date: '2026-01-01',
        plan_end_date: '2026-12-31',
        plan_is_active: true,
        persons: [
          {
            member_id: 'VSP-FREQ-7',
            plan: { insurer_state: 'inn', begin_date: '2026-01-01', items },
          },
        ],
      },
    ],
    evidence: { source: 'portal', checked_at: '2026-11-24T10:00:00Z' },
  });

  it("a verifier's frequency and dates: the payer's date kept and checked, the practice's claim counted", async () => {
    const bought = addMonths(TODAY, -2);
    const claim = await http()
      .post('/api/auth/v1/claims/')
      .set(a.auth)
      .send({
        patient: { ...patient(), type: 'self', sex: 'female', member_id: 'VSP-FREQ-7' },
        primary_member: {
          ...patient(),
          type: 'self',
          sex: 'female',
          member_id: 'VSP-FREQ-7',
          insurer_code: VSP,
        },
        services: [
          {
            codes: ['V2100'],
            date: bought,
            quantity: 1,
            cost: '60.00',
            diagnosis_codes: ['H52.13'],
          },
        ],
        paid_amount: '60.00',
      });
    expect(claim.status).toBe(201);
    const stated = addMonths(TODAY, 3);
    const { uid, taskId } = await vspTask();
    const done = await http()
      .post(`${TASKS}${taskId}/complete/`)
      .set(a.auth)
      .send(
        completion([
          {
            benefit_code: 'materials.frames',
            refresh_date: '2027-01-01',
            frequency: { count: 1, period: { kind: 'rolling', months: 24 } },
            next_eligible: { date: stated, basis: 'payer_stated' },
          },
          {
            benefit_code: 'materials.spectacle_lenses',
            refresh_date: '2027-01-01',
            frequency: { count: 1, period: { kind: 'calendar_year' } },
          },
          {
            benefit_code: 'exam.routine',
            refresh_date: '2027-01-01',
            last_service_date: '2026-02-01',
          },
        ]),
      );
    expect(done.status).toBe(200);
    const answer = await waitForResult(t.app, a.auth, uid);
    const items = answer.results[0].persons[0].plan.items as Item[];
    expect(find(items, 'materials.frames')).toMatchObject({
      frequency: { count: 1, period: { kind: 'rolling', months: 24 }, shared_with: [] },
      next_eligible: { date: stated, basis: 'payer_stated' },
      next_eligible_date: stated,
    });
    expect(find(items, 'materials.frames')!.next_eligible.explanation[0]).toBe(
      `The payer states it is available from ${stated}.`,
    );
    // The claim's lenses (V2100, single vision) count against the calendar-year rule.
    expect(find(items, 'materials.spectacle_lenses')).toMatchObject({
      frequency: { period: { kind: 'calendar_year', months: null } },
      last_service: { date: bought, source: 'claim' },
    });
    const sameYear = bought.slice(0, 4) === TODAY.slice(0, 4);
    expect(find(items, 'materials.spectacle_lenses')!.next_eligible.date).toBe(
      sameYear ? `${Number(TODAY.slice(0, 4)) + 1}-01-01` : TODAY,
    );
    // A bare last service date is the payer's; without a frequency no date is made up.
    expect(find(items, 'exam.routine')).toMatchObject({
      last_service: { date: '2026-02-01', source: 'payer' },
      last_service_date: '2026-02-01',
    });
    expect(find(items, 'exam.routine')).not.toHaveProperty('next_eligible');
  });

  it("refuses a verifier's malformed frequency with the path of the problem", async () => {
    const { taskId } = await vspTask();
    const res = await http()
      .post(`${TASKS}${taskId}/complete/`)
      .set(a.auth)
      .send(
        completion([
          {
            benefit_code: 'materials.frames',
            refresh_date: '2027-01-01',
            frequency: { count: 1, period: { kind: 'rolling' } },
            next_eligible: { date: '2027-01-01', basis: 'unknown' },
          },
        ]),
      );
    expect(res.status).toBe(400);
    const item = { frequency: { period: { $: ['A rolling period needs its length in months.'] } } };
    expect(res.body.errors.plans['0'].persons['0'].plan.items['0']).toEqual({
      ...item,
      next_eligible: {
        basis: { $: ['A date goes with basis payer_stated or computed, none with unknown.'] },
      },
    });
  });
});
