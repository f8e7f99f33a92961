import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';

const URL = '/api/auth/v1/estimates/';
const TASKS = '/api/auth/v1/verification-tasks/';

/** Exam and frames out of network; frames used on 2025-06-12 and not available before 2027-06-12. */
const PLAN = {
  insurer_state: 'oon',
  items: [
    {
      benefit_code: 'exam',
      refresh_date: '2027-01-01',
      allowance: [{ flags: ['oon'], value: '45' }],
    },
    {
      benefit_code: 'materials.frames',
      refresh_date: '2027-01-01',
      allowance: [{ flags: ['oon'], value: '150' }],
      last_service_date: '2025-06-12',
      next_eligible_date: '2027-06-12',
    },
  ],
};

/** An exam and a frame. */
const RECEIPT = [
  { codes: ['92014'], cost: '120.00' },
  { codes: ['V2020'], cost: '180.00' },
];

const FRAMES_WAIT =
  'not eligible until 2027-06-12 (last used 2025-06-12), after the date of service 2026-11-21: not reimbursed';

/**
 * docs/api.md, Estimates: `date_of_service` is the day of the visit; a benefit not yet available
 * then (its next eligible date after it) pays nothing, and its line says why.
 */
describe('estimates on a date of service (docs/api.md, Estimates)', () => {
  let t: TestApp;
  let a: TestAccount;
  const http = () => request(t.app.getHttpServer());
  const post = (body: unknown) =>
    http()
      .post(URL)
      .set(a.auth)
      .send(body as object);

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('pays nothing for frames before they are available, and says why; the exam is paid', async () => {
    const res = await post({ plan: PLAN, services: RECEIPT, date_of_service: '2026-11-21' });
    expect(res.status).toBe(200);
    const [exam, frames] = res.body.lines;
    expect(exam).toMatchObject({ benefit_code: 'exam', cap: '45.0000', capped: '45.0000' });
    expect(frames).toMatchObject({
      benefit_code: 'materials.frames',
      cap: '0.0000',
      capped: '0.0000',
    });
    expect(frames.notes).toContain(FRAMES_WAIT);
    expect(res.body).toMatchObject({
      total_cost: '300.0000',
      estimated_reimbursement: '45.0000',
      patient_responsibility: '255.0000',
    });
  });

  it('pays frames on their next eligible date', async () => {
    const res = await post({ plan: PLAN, services: RECEIPT, date_of_service: '2027-06-12' });
    expect(res.status).toBe(200);
    expect(res.body.lines[1]).toMatchObject({ cap: '150.0000', capped: '150.0000' });
    expect(res.body.lines[1].notes.join(' ')).not.toContain('not eligible');
    expect(res.body.estimated_reimbursement).toBe('195.0000');
  });

  it("goes by a stored person's plan the same way (an assisted answer with the dates)", async () => {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: 'insurer:vision:vsp',
      patient: patient({ first_name: 'Lena', last_name: 'Framewait', member_id: 'VSP7770001' }),
    });
    const taskId = (
      await waitUntil(`task of ${uid}`, async () => {
        const res = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth).expect(200);
        return res.body.verification;
      })
    ).task_id;
    await http()
      .post(`${TASKS}${taskId}/complete/`)
      .set(a.auth)
      .send({
        plans: [
          {
            status: 'active',
            plan_name: 'VSP Choice',
            plan_begin_date: '2026-01-01',
            plan_is_active: true,
            persons: [{ first_name: 'Lena', last_name: 'Framewait', type: 'self', plan: PLAN }],
          },
        ],
        evidence: { source: 'portal', checked_at: '2026-11-20T10:00:00Z' },
      })
      .expect(200);
    const body = await waitForResult(t.app, a.auth, uid);
    const res = await post({
      request_uid: uid,
      person_id: body.results[0].persons[0].id,
      services: RECEIPT,
      date_of_service: '2026-11-21',
    });
    expect(res.status).toBe(200);
    expect(res.body.lines[1]).toMatchObject({ capped: '0.0000' });
    expect(res.body.lines[1].notes).toContain(FRAMES_WAIT);
    expect(res.body.estimated_reimbursement).toBe('45.0000');
  });

  it.each([
    ['an impossible day', '2026-02-30'],
    ['another format', '21/11/2026'],
    ['a date and time', '2026-11-21T10:00:00Z'],
    ['a number', 20261121],
    ['an empty string', ''],
  ])('refuses %s as a field error, beside the other fields’ errors', async (_what, value) => {
    const res = await post({
      plan: PLAN,
      services: [{ codes: ['V2020'], cost: 'x' }],
      date_of_service: value,
    });
    expect(res.status).toBe(400);
    // A date in the right form that names no day says so in a second message.
    expect(res.body.errors.date_of_service).toEqual({
      $: [
        'Date has wrong format. Use YYYY-MM-DD.',
        ...(value === '2026-02-30' ? ['2026-02-30 is not a date: that month has 28 days.'] : []),
      ],
    });
    expect(res.body.errors.services['0'].cost).toEqual({ $: ['A valid number is required.'] });
  });
});
