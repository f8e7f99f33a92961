import request from 'supertest';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';

const VSP = 'insurer:vision:vsp';
const EYEMED = 'insurer:vision:eye_med';
const TASKS = '/api/auth/v1/verification-tasks/';
const DESIGNS = '/api/auth/v1/plan-designs/';
const USED = /_accepted|_reserved|last_service|next_eligible/;

/** An answer's item without the dates a search computes (a design keeps none). */
const withoutDates = (item: any): any => {
  const {
    last_service: _l,
    last_service_date: _ld,
    next_eligible: _n,
    next_eligible_date: _nd,
    ...rest
  } = item;
  return { ...rest, items: (item.items ?? []).map(withoutDates) };
};

/** The codes of a tree, depth first: what a design holds at a glance. */
const codes = (items: any[]): string[] =>
  items.flatMap((i) => [i.benefit_code, ...codes(i.items ?? [])]);

/** The item of `code` anywhere in the tree. */
const itemOf = (items: any[], code: string): any =>
  items.map((i) => (i.benefit_code === code ? i : itemOf(i.items ?? [], code))).find(Boolean);

/**
 * docs/api.md, Plan designs: every completed verification task leaves its plan's benefit tree as
 * the design of its group, used values cleared; a later task of the group starts from it with
 * `plan_design_id`.
 */
describe('plan designs (docs/api.md, Plan designs)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  /** A sandbox plan result as a verifier would send it back (it has used quantities). */
  let demoPlan: any;
  let member = 0;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    const demo = await waitForResult(
      t.app,
      a.auth,
      await startSearch(t.app, a.auth, { patient: patient() }),
    );
    demoPlan = demo.results[0];
  });
  afterAll(() => t.close());

  /**
   * A search of `insurer` by account `who` (a patient of its own), once its task is open:
   * `max_age_hours: 0` asks a person anew rather than reusing an answer for the same names.
   */
  async function taskOf(who: TestAccount = a, insurer = VSP) {
    member += 1;
    const uid = await startSearch(t.app, who.auth, {
      insurer_code: insurer,
      patient: patient({ member_id: `PD${String(member).padStart(6, '0')}` }),
      max_age_hours: 0,
    });
    const answer = await waitUntil(`task of ${uid}`, async () => {
      const res = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(who.auth);
      return res.body.verification ? res.body : undefined;
    });
    return { uid, taskId: answer.verification.task_id as string };
  }

  const evidence = { source: 'portal', checked_at: '2026-11-24T15:04:00Z' };

  /** The sandbox's person plan, with used values on the exam (accepted, last service). */
  const usedPlan = () => {
    const plan = structuredClone(demoPlan.persons[0].plan);
    const exam = itemOf(plan.items, 'exam');
    exam.allowance_accepted = [{ flags: ['oon'], value: '20.00' }];
    exam.quantity_reserved = [{ value: 1 }];
    exam.last_service_date = '2026-03-02';
    exam.next_eligible_date = '2027-03-02';
    // docs/api.md, Next eligible dates in results: the dates as their objects say them too.
    exam.last_service = { date: '2026-03-02', source: 'payer' };
    exam.next_eligible = { date: '2027-03-02', basis: 'payer_stated', explanation: [] };
    return plan;
  };

  /** A plan result of group `groupId` (group words `group`) whose one person has `plan`. */
  const planResult = (fields: Record<string, unknown>, personPlan: object) => {
    const { persons: _persons, ...head } = structuredClone(demoPlan);
    return { ...head, insurer_code: VSP, ...fields, persons: [{ plan: personPlan }] };
  };

  const complete = (who: TestAccount, taskId: string, plans: object[]) =>
    http().post(`${TASKS}${taskId}/complete/`).set(who.auth).send({ plans, evidence });

  const designOf = async (who: TestAccount, groupId: string) => {
    const list = await http().get(DESIGNS).query({ q: groupId, limit: 200 }).set(who.auth);
    expect(list.status).toBe(200);
    return list.body.result.find((d: any) => d.plan_group_id === groupId);
  };

  it('a completed task saves its plan as the design of its group, used values cleared', async () => {
    const { uid, taskId } = await taskOf();
    expect(USED.test(JSON.stringify(usedPlan().items))).toBe(true);
    const done = await complete(a, taskId, [
      planResult(
        { plan_name: 'VSP Choice', plan_group: 'Acme Manufacturing', plan_group_id: 'GRP-100' },
        usedPlan(),
      ),
    ]);
    expect(done.status).toBe(200);

    const list = await http().get(DESIGNS).set(a.auth);
    expect(list.status).toBe(200);
    const listed = list.body.result.find((d: any) => d.plan_group_id === 'GRP-100');
    expect(listed).toEqual({
      id: expect.any(String),
      insurer_code: VSP,
      plan_name: 'VSP Choice',
      plan_group: 'Acme Manufacturing',
      plan_group_id: 'GRP-100',
      used_count: 0,
      last_used_at: null,
    });

    const one = await http().get(`${DESIGNS}${listed.id}/`).set(a.auth);
    expect(one.status).toBe(200);
    // The verifier copied the sandbox's price list: the group's list now.
    expect(one.body).toEqual({
      ...listed,
      items: expect.any(Array),
      materials: expect.any(Object),
    });
    const text = JSON.stringify(one.body.items);
    expect(text).not.toMatch(USED);
    // Everything else of the tree is the search's own answer.
    const v2 = await waitForResult(t.app, a.auth, uid);
    const answered = v2.results[0].persons[0].plan.items;
    expect(codes(one.body.items)).toEqual(codes(answered));
    expect(itemOf(one.body.items, 'exam').copayment).toEqual(itemOf(answered, 'exam').copayment);
    expect(itemOf(answered, 'exam').last_service_date).toBe('2026-03-02');
    expect(itemOf(one.body.items, 'exam')).not.toHaveProperty('last_service_date');
    expect(itemOf(one.body.items, 'exam')).not.toHaveProperty('allowance_accepted');
  });

  it('a later task of the same group replaces its design; another group adds one; a plan without a group adds none', async () => {
    const before = await designOf(a, 'GRP-100');
    const { taskId } = await taskOf();
    const plan = usedPlan();
    itemOf(plan.items, 'exam').copayment = [{ flags: ['inn'], value: '15' }];
    await complete(a, taskId, [
      planResult(
        { plan_name: 'VSP Signature', plan_group: 'Acme Mfg.', plan_group_id: 'GRP-100' },
        plan,
      ),
      planResult({ plan_name: 'VSP Choice', plan_group: 'Bolt Tools', plan_group_id: null }, plan),
      planResult({ plan_name: 'VSP Lone', plan_group: null, plan_group_id: null }, plan),
    ]).expect(200);

    const after = await designOf(a, 'GRP-100');
    expect(after).toMatchObject({
      id: before.id,
      plan_name: 'VSP Signature',
      plan_group: 'Acme Mfg.',
    });
    const tree = (await http().get(`${DESIGNS}${after.id}/`).set(a.auth)).body.items;
    expect(itemOf(tree, 'exam').copayment).toEqual([{ flags: ['inn'], value: '15.0000' }]);

    const all = (await http().get(DESIGNS).set(a.auth)).body.result;
    expect(all.map((d: any) => d.plan_group_id ?? d.plan_group).sort()).toEqual([
      'Bolt Tools',
      'GRP-100',
    ]);
    expect(all.find((d: any) => d.plan_name === 'VSP Lone')).toBeUndefined();
  });

  it('filters by q (name, group or group id, any case) and insurer_code, and pages with a cursor', async () => {
    const eyeMed = await taskOf(a, EYEMED);
    await complete(a, eyeMed.taskId, [
      planResult(
        {
          insurer_code: EYEMED,
          plan_name: 'EyeMed Insight',
          plan_group: 'Harbor Schools',
          plan_group_id: 'EM-7',
        },
        usedPlan(),
      ),
    ]).expect(200);

    const names = async (query: Record<string, unknown>) => {
      const res = await http().get(DESIGNS).query(query).set(a.auth);
      expect(res.status).toBe(200);
      return res.body.result.map((d: any) => d.plan_name).sort();
    };
    expect(await names({ q: 'insight' })).toEqual(['EyeMed Insight']);
    expect(await names({ q: 'HARBOR' })).toEqual(['EyeMed Insight']);
    expect(await names({ q: 'grp-1' })).toEqual(['VSP Signature']);
    expect(await names({ q: '%' })).toEqual([]);
    expect(await names({ insurer_code: EYEMED })).toEqual(['EyeMed Insight']);
    expect(await names({ insurer_code: VSP })).toEqual(['VSP Choice', 'VSP Signature']);
    expect(await names({ insurer_code: VSP, q: 'bolt' })).toEqual(['VSP Choice']);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: request.Response = await http()
        .get(DESIGNS)
        .query({ limit: 1, ...(cursor ? { cursor } : {}) })
        .set(a.auth);
      expect(page.body.result).toHaveLength(1);
      seen.push(page.body.result[0].plan_name);
      cursor = page.body.next_cursor;
    } while (cursor && seen.length < 10);
    expect(seen).toEqual(['EyeMed Insight', 'VSP Choice', 'VSP Signature']);

    for (const [query, field] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 201 }, 'limit'],
      [{ insurer_code: 'insurer:vision:nope' }, 'insurer_code'],
      [{ cursor: 'bm90IG91cnM' }, 'cursor'],
    ] as const) {
      const res = await http().get(DESIGNS).query(query).set(a.auth);
      expect([field, res.status]).toEqual([field, 400]);
      // A refused choice says the allowed values in a second message.
      expect(res.body.errors[field].$).toHaveLength(field === 'insurer_code' ? 2 : 1);
    }
  });

  it('a task completed with plan_design_id takes the design’s items, a person’s own items replacing those of the same code', async () => {
    const design = await designOf(a, 'GRP-100');
    const tree = (await http().get(`${DESIGNS}${design.id}/`).set(a.auth)).body.items;
    const { items: _items, ...head } = usedPlan();

    // Only `plan` without items: exactly the design's tree.
    const first = await taskOf();
    const done = await http()
      .post(`${TASKS}${first.taskId}/complete/`)
      .set(a.auth)
      .send({
        plans: [
          {
            status: 'active',
            plan_name: 'VSP Signature',
            plan_group_id: 'GRP-100',
            plan_begin_date: '2026-01-01',
            plan_is_active: true,
            plan_design_id: design.id,
            persons: [{ plan: head }],
          },
        ],
        evidence,
      });
    expect(done.status).toBe(200);
    const v2 = await waitForResult(t.app, a.auth, first.uid);
    expect(v2.status).toBe('complete');
    // With the dates the search computes from the design's frequencies.
    expect(v2.results[0].persons[0].plan.items.map(withoutDates)).toEqual(tree);
    const used = await http().get(`${DESIGNS}${design.id}/`).set(a.auth);
    expect(used.body.used_count).toBe(1);
    expect(new Date(used.body.last_used_at).getTime()).toBeGreaterThan(Date.now() - 60_000);

    // One item given: it replaces the design's `exam` (its children stay), the rest is the design's.
    const second = await taskOf();
    const exam = {
      benefit_code: 'exam',
      refresh_date: '2027-06-01',
      copayment: [{ flags: ['inn'], value: '5' }],
      last_service_date: '2026-02-01',
    };
    await complete(a, second.taskId, [
      planResult(
        { plan_name: 'VSP Signature', plan_group_id: 'GRP-100', plan_design_id: design.id },
        { ...head, items: [exam] },
      ),
    ]).expect(200);
    const items = (await waitForResult(t.app, a.auth, second.uid)).results[0].persons[0].plan.items;
    expect(codes(items)).toEqual(codes(tree));
    expect(itemOf(items, 'exam')).toMatchObject({
      refresh_date: '2027-06-01',
      copayment: [{ value: '5.0000', flags: ['inn'] }],
      last_service_date: '2026-02-01',
    });
    expect(itemOf(items, 'exam')).not.toHaveProperty('allowance');
    expect(itemOf(items, 'exam').items).toEqual(itemOf(tree, 'exam').items);
    // The design's items, with the dates the search computes from their frequencies
    // (docs/api.md, Next eligible dates in results).
    expect(withoutDates(itemOf(items, 'materials'))).toEqual(itemOf(tree, 'materials'));
    expect((await http().get(`${DESIGNS}${design.id}/`).set(a.auth)).body.used_count).toBe(2);
  });

  it('refuses an unknown, malformed, foreign or other-insurer design with a field error, changing nothing', async () => {
    const vspDesign = await designOf(a, 'GRP-100');
    const eyeMedDesign = await designOf(a, 'EM-7');
    const other = await taskOf(b);
    await complete(b, other.taskId, [
      planResult({ plan_name: 'VSP Choice', plan_group_id: 'GRP-B' }, usedPlan()),
    ]).expect(200);
    const foreign = await designOf(b, 'GRP-B');
    expect(foreign).toBeDefined();

    const { items: _items, ...head } = usedPlan();
    const { taskId } = await taskOf();
    for (const [id, message] of [
      ['00000000-0000-4000-8000-000000000000', /not found/],
      ['nope', /not found/],
      [foreign.id, /not found/],
      [eyeMedDesign.id, /of EyeMed/],
    ] as const) {
      const res = await complete(a, taskId, [
        planResult({ plan_group_id: 'GRP-100', plan_design_id: id }, head),
      ]);
      expect([id, res.status]).toEqual([id, 400]);
      expect(res.body.errors.plans['0'].plan_design_id.$).toEqual([expect.stringMatching(message)]);
    }
    // Without a design, a person's plan needs its items.
    const bare = await complete(a, taskId, [planResult({ plan_group_id: 'GRP-100' }, head)]);
    expect(bare.status).toBe(400);
    expect(bare.body.errors.plans['0'].persons['0'].plan.items.$).toEqual([
      'This field is required.',
    ]);

    const task = await http().get(`${TASKS}${taskId}/`).set(a.auth);
    expect(task.body.state).toBe('queued');
    expect(task.body.history).toHaveLength(1);
    expect((await designOf(a, 'GRP-100')).used_count).toBe(vspDesign.used_count);
    expect((await designOf(a, 'EM-7')).used_count).toBe(0);
  });

  it('estimates still need an inline plan’s items', async () => {
    const { items: _items, ...head } = usedPlan();
    const res = await http()
      .post('/api/auth/v1/estimates/')
      .set(a.auth)
      .send({ plan: head, services: [{ codes: ['92014'], cost: '120.00' }] });
    expect(res.status).toBe(400);
    expect(res.body.errors.plan.items.$).toEqual(['This field is required.']);
  });

  it("a group's price list (docs/api.md, The counter): a verifier's is kept, a later answer naming the design takes it, an answer without a list of its group takes it", async () => {
    const list = {
      network: 'inn',
      frame: { allowance: '175.00', discount_percent: '20' },
      lenses: {
        progressive_premium: { tiers: { '1': { copayment: '80' }, '2': { copayment: '120' } } },
      },
      in_lieu_of: [['contact_lenses', 'frame']],
    };
    const printed = {
      network: 'inn',
      frame: { allowance: '175.0000', discount_percent: '20.0000' },
      lenses: {
        progressive_premium: {
          tiers: { '1': { copayment: '80.0000' }, '2': { copayment: '120.0000' } },
        },
      },
      in_lieu_of: [['contact_lenses', 'frame']],
    };
    const group = { plan_name: 'VSP Priced', plan_group: 'Priced Inc', plan_group_id: 'GRP-MAT' };
    const first = await taskOf();
    const { materials: _m, materials_source: _s, ...bare } = usedPlan();
    expect(
      (await complete(a, first.taskId, [planResult(group, { ...bare, materials: list })])).status,
    ).toBe(200);
    const answered = await waitForResult(t.app, a.auth, first.uid);
    expect(answered.results[0].persons[0].plan).toMatchObject({
      materials: printed,
      materials_source: 'verifier',
    });
    const design = await designOf(a, 'GRP-MAT');
    const detail = await http().get(`${DESIGNS}${design.id}/`).set(a.auth);
    expect(detail.body.materials).toEqual(printed);

    // A later task of the group, answered from the design without a list: the design's.
    const second = await taskOf();
    const named = {
      ...planResult(group, { ...bare, items: undefined }),
      plan_design_id: design.id,
    };
    expect((await complete(a, second.taskId, [named])).status).toBe(200);
    const fromDesign = await waitForResult(t.app, a.auth, second.uid);
    expect(fromDesign.results[0].persons[0].plan).toMatchObject({
      materials: printed,
      materials_source: 'plan_design',
    });
    // The design keeps the verifier's list (one taken from it does not replace it).
    expect((await http().get(`${DESIGNS}${design.id}/`).set(a.auth)).body.materials).toEqual(
      printed,
    );

    // Without a design naming it: an answer of the group without a list takes the design's.
    const third = await taskOf();
    expect((await complete(a, third.taskId, [planResult(group, bare)])).status).toBe(200);
    const byGroup = await waitForResult(t.app, a.auth, third.uid);
    expect(byGroup.results[0].persons[0].plan).toMatchObject({
      materials: printed,
      materials_source: 'plan_design',
    });
    // Another account's answers of the same group take nothing from this account's design.
    const theirs = await taskOf(b);
    expect((await complete(b, theirs.taskId, [planResult(group, bare)])).status).toBe(200);
    const other = await waitForResult(t.app, b.auth, theirs.uid);
    expect(other.results[0].persons[0].plan).toMatchObject({
      materials: null,
      materials_source: null,
    });
  });

  it("another account's design, an unknown or malformed id are 404; the scope is verification:read", async () => {
    const design = await designOf(a, 'GRP-100');
    for (const id of [design.id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await http().get(`${DESIGNS}${id}/`).set(b.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: `Plan design ${id} not found.` });
    }
    expect((await http().get(DESIGNS).set(b.auth)).body.result.map((d: any) => d.id)).not.toContain(
      design.id,
    );
    const keys = t.app.get(ApiKeysService);
    const { key: reader } = await keys.create(a.accountId, 'reader', ['verification:read']);
    const readerAuth = { Authorization: `Api ${reader}` };
    expect((await http().get(`${DESIGNS}${design.id}/`).set(readerAuth)).status).toBe(200);
    const { key: none } = await keys.create(a.accountId, 'checks only', ['eligibility:write']);
    const res = await http()
      .get(DESIGNS)
      .set({ Authorization: `Api ${none}` });
    expect(res.status).toBe(403);
  });
});
