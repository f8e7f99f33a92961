import request from 'supertest';
import { fromMinor, toMinor } from '@/platform/kernel/decimal';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import {
  PLAN_SUMMARIES,
  type PlanSummary,
  type QuotedLine,
} from './support/plan-summaries.fixtures';
import { waitUntil } from './support/queues';

const QUOTES = '/api/auth/v1/quotes/';
const TASKS = '/api/auth/v1/verification-tasks/';

/** The quote's lines in the order asked, priced and not estimable alike. */
function linesOf(body: any): { item: string; patient_pays: string | null; reason: string }[] {
  return [
    ...body.lines.map((l: any) => ({
      item: l.item,
      patient_pays: l.patient_pays,
      reason: l.reason,
    })),
    ...body.not_estimable.map((l: any) => ({ item: l.item, patient_pays: null, reason: l.reason })),
  ];
}

function expectSaid(body: any, expected: QuotedLine[]) {
  const got = linesOf(body);
  expect(got.map((l) => l.item).sort()).toEqual(expected.map((l) => l.item).sort());
  for (const line of expected) {
    const quoted = got.find((l) => l.item === line.item)!;
    expect({ item: line.item, pays: quoted.patient_pays }).toEqual({
      item: line.item,
      pays: line.patient_pays,
    });
    expect(quoted.reason).toMatch(line.reason);
  }
  // The totals are the priced lines' sums; what is not estimable stays out.
  const priced = expected.filter((l) => l.patient_pays !== null);
  const pays = priced.reduce((sum, l) => sum + toMinor(l.patient_pays!), 0n);
  expect(body.patient_pays).toBe(fromMinor(pays));
  expect(fromMinor(toMinor(body.retail) - toMinor(body.patient_pays))).toBe(body.plan_covers);
}

/**
 * docs/api.md, The counter: three published plan summaries (test/support/plan-summaries.fixtures.ts)
 * quote what they say, line by line, on an inline plan and on a verifier's stored answer.
 */
describe('published plan summaries at the counter', () => {
  let t: TestApp;
  let a: TestAccount;
  let sandboxPlan: any;
  let member = 0;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    const demo = await waitForResult(
      t.app,
      a.auth,
      await startSearch(t.app, a.auth, { patient: patient() }),
    );
    sandboxPlan = demo.results[0];
  });
  afterAll(() => t?.close());

  /** A VSP search answered by a verifier who transcribed `summary` into the plan's list. */
  async function verifierAnswer(summary: PlanSummary) {
    member += 1;
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: 'insurer:vision:vsp',
      patient: patient({ member_id: `PS${String(member).padStart(6, '0')}` }),
      max_age_hours: 0,
    });
    const taskId = await waitUntil(`task of ${uid}`, async () => {
      const res = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(a.auth);
      return res.body.verification?.task_id as string | undefined;
    });
    const { persons, ...head } = structuredClone(sandboxPlan);
    const plan = { ...persons[0].plan, materials: summary.materials };
    delete plan.materials_source;
    const done = await http()
      .post(`${TASKS}${taskId}/complete/`)
      .set(a.auth)
      .send({
        plans: [{ ...head, insurer_code: 'insurer:vision:vsp', persons: [{ plan }] }],
        evidence: { source: 'portal', checked_at: '2026-11-24T15:04:00Z' },
      });
    expect(done.status).toBe(200);
    const answered = await waitForResult(t.app, a.auth, uid);
    const person = answered.results[0].persons[0];
    expect(person.plan.materials_source).toBe('verifier');
    return { request_uid: uid, person_id: person.id as number };
  }

  describe.each(PLAN_SUMMARIES.map((s) => [s.name, s] as const))('%s', (_name, summary) => {
    const inline = { insurer_state: 'inn', items: [], materials: summary.materials };

    it('quotes the glasses and the contacts as the summary says, on an inline plan', async () => {
      for (const { order, lines } of [summary.glasses, summary.contacts]) {
        const res = await http()
          .post(QUOTES)
          .set(a.auth)
          .send({ plan: inline, patient_age: summary.patient_age, order });
        expect(res.status).toBe(201);
        expectSaid(res.body, lines);
      }
    });

    it("quotes the same on a verifier's stored answer of that list", async () => {
      const stored = await verifierAnswer(summary);
      for (const { order, lines } of [summary.glasses, summary.contacts]) {
        const res = await http()
          .post(QUOTES)
          .set(a.auth)
          .send({ ...stored, patient_age: summary.patient_age, order });
        expect(res.status).toBe(201);
        expect(res.body.materials_source).toBe('verifier');
        expectSaid(res.body, lines);
      }
    });
  });
});
