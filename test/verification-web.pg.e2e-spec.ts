import request from 'supertest';
import { DataSource } from 'typeorm';
import { InsurerSettingsService } from '@/modules/insurers/domain/insurer-settings.service';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { waitUntil } from './support/queues';
import {
  type Agent,
  createUser,
  csrfOf,
  postForm as postPage,
  signIn,
} from './support/web-sign-in';

/** postForm whose answer can be `.expect(status)`ed as supertest's can. */
function postForm(...args: Parameters<typeof postPage>) {
  const sent = postPage(...args);
  return Object.assign(sent, {
    expect: async (status: number) => {
      const res = await sent;
      expect(res.status).toBe(status);
      return res;
    },
  });
}

const VSP = 'insurer:vision:vsp';
const SPECTERA = 'insurer:vision:spectera';
const EYEMED = 'insurer:vision:eye_med';

/** What the benefit form sends for a plan: every part of it, in and out of network. */
const PLAN_FORM: Record<string, string> = {
  status: 'active',
  plan_name: 'VSP Signature',
  plan_group: 'Acme Manufacturing',
  plan_group_id: 'GRP-7781',
  plan_begin_date: '2026-01-01',
  plan_end_date: '2026-12-31',
  plan_refresh_date: '2027-01-01',
  oon_benefits: 'oon',
  benefit_form: '1',
  p0_first_name: 'Maria',
  p0_last_name: 'Garcia',
  p0_dob: '1984-06-15',
  p0_sex: 'female',
  p0_member_id: 'VSP55501',
  p0_relationship: 'self',
  p0_address_line1: '412 Oak Street',
  p0_address_city: 'Austin',
  p0_address_state: 'TX',
  p0_address_zipcode: '78701',
  p0_phone: '512-555-0142',
  exam_inn_copay: '10',
  exam_oon_allowance: '45',
  exam_inn_frequency: '12',
  cl_exam_inn_copay: '60',
  frames_inn_allowance: '150',
  frames_oon_allowance: '70',
  lens_single_vision_inn_copay: '25',
  lens_progressive_inn_copay: '55',
  cl_elective_inn_allowance: '130',
  cl_elective_oon_allowance: '105',
  opt_anti_reflective_inn_copay: '41',
  evidence_source: 'portal',
  evidence_reference_number: 'REF-31',
  evidence_checked_at: '2026-11-24T15:04:00Z',
};

/** A plan's items flattened: `code → list → ["inn:10.0000"]` (containers have no lists). */
function benefitsOf(items: any[], out: Record<string, Record<string, string[]>> = {}) {
  for (const item of items) {
    const lists: Record<string, string[]> = {};
    for (const name of ['copayment', 'allowance', 'quantity'])
      if (item[name])
        lists[name] = item[name].map(
          (e: any) =>
            `${(e.flags ?? []).join('+')}:${e.value}${e.comment ? ` (${e.comment})` : ''}`,
        );
    if (Object.keys(lists).length) out[item.benefit_code] = lists;
    benefitsOf(item.items ?? [], out);
  }
  return out;
}

/** docs/api.md, Insurers and assisted verification in the web application: the Verifications page and a task's page. */
describe('verifications web pages (docs/api.md, Insurers and assisted verification)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let admin: Agent;
  let staff: Agent;
  let other: Agent;
  let staffEmail: string;
  const http = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    admin = (await signIn(t.app, a.email, a.password)).agent;
    other = (await signIn(t.app, b.email, b.password)).agent;
    const s = await createUser(t.app, a.accountId, 'staff');
    staffEmail = s.email;
    staff = (await signIn(t.app, s.email, s.password)).agent;
  });
  afterAll(() => t.close());

  async function vspSearch(
    who: TestAccount = a,
    overrides: Record<string, unknown> = {},
    body: Record<string, unknown> = {},
  ) {
    const uid = await startSearch(t.app, who.auth, {
      insurer_code: VSP,
      patient: patient({ member_id: 'VSP55501', ...overrides }),
      // The same patient each time: a person is asked anew (no reuse of an earlier answer).
      max_age_hours: 0,
      ...body,
    });
    const answer = await waitUntil(`task of ${uid}`, async () => {
      const res = await http().get(`/api/auth/v2/eligibility/${uid}/`).set(who.auth);
      return res.body.verification ? res.body : undefined;
    });
    return { uid, taskId: answer.verification.task_id as string };
  }

  const taskUrl = (id: string) => `/app/verifications/${id}`;
  const post = (agent: Agent, id: string, action: string, fields: Record<string, string> = {}) =>
    postForm(agent, taskUrl(id), `${taskUrl(id)}/${action}`, fields);

  it('lists the open tasks soonest due first, with insurer, patient, request, state and overdue', async () => {
    const later = await vspSearch(a, { first_name: 'Later' });
    const sooner = await vspSearch(a, { first_name: 'Sooner' });
    await t.app
      .get(DataSource)
      .query(`UPDATE verification_tasks SET due_by = now() - interval '1 hour' WHERE id = $1`, [
        sooner.taskId,
      ]);
    const page = await admin.get('/app/verifications/').expect(200);
    expect(page.text).toContain('href="/app/verifications/"');
    const rows = [...page.text.matchAll(/<tr data-task="([^"]+)"[^>]*>([\s\S]*?)<\/tr>/g)];
    const ids = rows.map((m) => m[1]);
    expect(ids.indexOf(sooner.taskId)).toBeLessThan(ids.indexOf(later.taskId));
    const soonerRow = rows.find((m) => m[1] === sooner.taskId)![2];
    expect(soonerRow).toContain('VSP');
    expect(soonerRow).toContain('Sooner Garcia');
    expect(soonerRow).toContain(sooner.uid);
    expect(soonerRow).toContain('queued');
    expect(soonerRow).toContain('overdue');
    expect(rows.find((m) => m[1] === later.taskId)![2]).not.toContain('overdue');
  });

  it('the task page shows the patient, the portal link, the location and the history', async () => {
    const { uid, taskId } = await vspSearch();
    const page = await admin.get(taskUrl(taskId)).expect(200);
    expect(page.text).toContain('Maria Garcia');
    expect(page.text).toContain('1984-06-15');
    expect(page.text).toContain('78701');
    expect(page.text).toContain('VSP55501');
    expect(page.text).toContain(uid);
    expect(page.text).toMatch(
      /<a id="portal" href="https:\/\/www\.eyefinity\.com\/" target="_blank" rel="noopener">/,
    );
    expect(page.text).toContain('Nobody holds this task.');
    expect(page.text).toContain('id="benefit-form"');
    expect(page.text).toContain('id="history"');
  });

  it('claim leases the task to the signed-in user; the portal password is revealed and audited', async () => {
    const { taskId } = await vspSearch();
    const claimed = await post(admin, taskId, 'claim');
    expect(claimed.status).toBe(302);
    const page = await admin.get(taskUrl(taskId)).expect(200);
    expect(page.text).toContain(`Claimed by <strong>${a.email}</strong>`);
    const api = await http()
      .get(`/api/auth/v1/eligibility/${(await taskOf(taskId)).request_uid}/`)
      .set(a.auth);
    expect(api.body.verification.state).toBe('in_progress');

    // Nothing stored yet: said on the page, nothing audited.
    const none = await post(admin, taskId, 'credentials');
    expect(none.status).toBe(404);
    expect(none.text).toContain('No credentials are stored');
    await t.app
      .get(InsurerSettingsService)
      .setCredentials(a.accountId, VSP, 'drsmith', 'P0rtal!pw');
    const reveal = await post(admin, taskId, 'credentials');
    expect(reveal.status).toBe(200);
    expect(reveal.headers['cache-control']).toContain('no-store');
    expect(reveal.text).toContain('drsmith');
    expect(reveal.text).toContain('P0rtal!pw');
    expect((await admin.get(taskUrl(taskId))).text).not.toContain('P0rtal!pw');
    const audit = await t.app
      .get(DataSource)
      .query(
        `SELECT actor_type, actor FROM audit_events WHERE resource_type = 'insurer_credentials' AND resource_id = $1`,
        [taskId],
      );
    expect(audit).toHaveLength(1);
  });

  async function taskOf(id: string) {
    return (await http().get(`/api/auth/v1/verification-tasks/${id}/`).set(a.auth)).body;
  }

  it('a refused benefit form comes back with the errors by their fields and what was typed', async () => {
    const { taskId } = await vspSearch();
    const res = await post(admin, taskId, 'complete', {
      ...PLAN_FORM,
      frames_inn_allowance: 'lots',
      plan_name: '',
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(
      /id="frames_inn_allowance"[^>]*value="lots"[^>]*>\s*<div class="field-error">A valid number is required\.<\/div>/,
    );
    expect(res.text).toMatch(
      /id="plan_name"[^>]*>\s*<div class="field-error">This field is required\.<\/div>/,
    );
    expect(res.text).toContain('value="VSP55501"');
    expect((await taskOf(taskId)).state).toBe('queued');
  });

  it('the benefit form completes the task: the search answers exactly the plan typed', async () => {
    const { uid, taskId } = await vspSearch();
    await post(admin, taskId, 'claim').expect(302);
    const done = await post(admin, taskId, 'complete', PLAN_FORM);
    expect(done.status).toBe(302);
    expect(done.headers.location).toBe('/app/verifications/');
    const v2 = await waitForResult(t.app, a.auth, uid);
    expect(v2.status).toBe('complete');
    expect(v2.results).toHaveLength(1);
    const result = v2.results[0];
    expect(result).toMatchObject({
      insurer_code: VSP,
      plan_name: 'VSP Signature',
      plan_group_id: 'GRP-7781',
      plan_begin_date: '2026-01-01',
    });
    const person = result.persons[0];
    expect(person).toMatchObject({ first_name: 'Maria', member_id: 'VSP55501', type: 'self' });
    expect(person.plan.insurer_state).toBe('oon');
    expect(benefitsOf(person.plan.items)).toEqual({
      exam: {
        copayment: ['inn:10.0000'],
        allowance: ['oon:45.0000'],
        quantity: ['inn:1 (every 12 months)', 'oon:1 (every 12 months)'],
      },
      'exam.contact_lens_fitting': { copayment: ['inn:60.0000'] },
      'materials.frames': { allowance: ['inn:150.0000', 'oon:70.0000'] },
      'materials.spectacle_lenses.single_vision': { copayment: ['inn:25.0000'] },
      'materials.spectacle_lenses.progressive': { copayment: ['inn:55.0000'] },
      'materials.spectacle_lenses.options.anti_reflective': { copayment: ['inn:41.0000'] },
      'materials.contact_lenses.elective': { allowance: ['inn:130.0000', 'oon:105.0000'] },
    });
    const task = await taskOf(taskId);
    expect(task).toMatchObject({
      state: 'completed',
      evidence: { source: 'portal', reference_number: 'REF-31' },
    });
    expect(task.history.at(-1).actor).toBe(`user:${a.email}`);
    // No longer in the queue; its page has no forms.
    expect((await admin.get('/app/verifications/')).text).not.toContain(taskId);
    expect((await admin.get(taskUrl(taskId))).text).not.toContain('id="benefit-form"');
  });

  it("the form's price list (docs/api.md, The counter): typed once, kept by the group's design, filled in again from it; a bad cell is refused by its field", async () => {
    const priced = {
      ...PLAN_FORM,
      plan_group_id: 'GRP-PRICED',
      mat_frame_allowance: '$150',
      mat_frame_discount_percent: '20',
      mat_lens_progressive_premium_t2_copayment: '110',
      mat_option_polycarbonate_copayment: '15',
      mat_option_polycarbonate_max_age: '18',
      mat_contacts_fitting_premium_discount_percent: '10',
      mat_contacts_fitting_premium_discount_on: 'retail',
      mat_in_lieu_frame: 'on',
    };
    const refused = await vspSearch();
    const bad = await post(admin, refused.taskId, 'complete', {
      ...priced,
      mat_frame_allowance: 'lots',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(
      /id="mat_frame_allowance"[^>]*value="lots"[^>]*>\s*<div class="field-error">A valid number is required\.<\/div>/,
    );

    const { uid, taskId } = await vspSearch();
    expect((await post(admin, taskId, 'complete', priced)).status).toBe(302);
    const plan = (await waitForResult(t.app, a.auth, uid)).results[0].persons[0].plan;
    expect(plan.materials_source).toBe('verifier');
    expect(plan.materials).toEqual({
      network: 'inn',
      frame: { allowance: '150.0000', discount_percent: '20.0000' },
      lenses: { progressive_premium: { tiers: { '2': { copayment: '110.0000' } } } },
      lens_options: { polycarbonate: { copayment: '15.0000', max_age: 18 } },
      contact_lenses: { fitting_premium: { discount_percent: '10.0000', discount_on: 'retail' } },
      in_lieu_of: [['contact_lenses', 'frame']],
    });

    // A later task of the group starts from the saved plan: the price list is filled in again.
    const design = (
      await http().get('/api/auth/v1/plan-designs/').query({ q: 'GRP-PRICED' }).set(a.auth)
    ).body.result[0];
    const next = await vspSearch();
    const page = await admin.get(`${taskUrl(next.taskId)}?design=${design.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/id="mat_frame_allowance"[^>]*value="150.00"/);
    expect(page.text).toMatch(/id="mat_lens_progressive_premium_t2_copayment"[^>]*value="110.00"/);
    expect(page.text).toMatch(/id="mat_option_polycarbonate_max_age"[^>]*value="18"/);
    expect(page.text).toMatch(/<option value="retail" selected>/);
    expect(page.text).toMatch(/id="mat_in_lieu_frame"[^>]*checked/);
    expect(page.text).not.toMatch(/id="mat_in_lieu_lenses"[^>]*checked/);
  });

  it('Claim and Show portal password after typing bring the page back with what was typed', async () => {
    const { taskId } = await vspSearch();
    const typed = { ...PLAN_FORM, plan_name: 'Typed before claiming', frames_inn_allowance: '149' };
    const claimed = await post(admin, taskId, 'claim', typed);
    expect(claimed.status).toBe(200);
    expect(claimed.text).toContain('Task claimed.');
    expect(claimed.text).toMatch(/id="plan_name"[^>]*value="Typed before claiming"/);
    expect(claimed.text).toMatch(/id="frames_inn_allowance"[^>]*value="149"/);
    expect(claimed.text).toContain(`Claimed by <strong>${a.email}</strong>`);
    expect((await taskOf(taskId)).state).toBe('in_progress');
    // The buttons submit the benefit form itself.
    expect(claimed.text).toMatch(/id="claim" form="benefit-form" formaction="[^"]+\/claim"/);
    expect(claimed.text).toMatch(/id="reveal" form="benefit-form" formaction="[^"]+\/credentials"/);

    await t.app.get(InsurerSettingsService).setCredentials(a.accountId, VSP, 'drsmith', 'pw-1');
    const revealed = await post(admin, taskId, 'credentials', typed);
    expect(revealed.status).toBe(200);
    expect(revealed.text).toContain('pw-1');
    expect(revealed.text).toMatch(/id="plan_name"[^>]*value="Typed before claiming"/);
    // Held by another user: said on the page, what was typed kept.
    const held = await post(staff, taskId, 'claim', typed);
    expect(held.status).toBe(409);
    expect(held.text).toContain('Another verifier holds this task');
    expect(held.text).toMatch(/id="frames_inn_allowance"[^>]*value="149"/);
  });

  it("a dependent's task shows a subscriber and a dependent block; Add a person adds one, keeping what was typed", async () => {
    const { taskId } = await vspSearch(
      a,
      { first_name: 'Lucia', dob: '2015-03-02' },
      {
        subscriber: {
          first_name: 'Maria',
          last_name: 'Garcia',
          dob: '1984-06-15',
          member_id: 'VSP77',
        },
      },
    );
    const page = await admin.get(taskUrl(taskId)).expect(200);
    const block = (html: string, i: number) =>
      new RegExp(`<fieldset class="person" id="person-${i}">([\\s\\S]*?)</fieldset>`).exec(
        html,
      )?.[1];
    expect(block(page.text, 0)).toMatch(/<legend>Subscriber<\/legend>/);
    expect(block(page.text, 0)).toMatch(/id="p0_first_name"[^>]*value="Maria"/);
    expect(block(page.text, 0)).toMatch(/<option value="self" selected>/);
    expect(block(page.text, 1)).toMatch(/id="p1_first_name"[^>]*value="Lucia"/);
    expect(block(page.text, 1)).toMatch(/<option value="dependent" selected>/);
    expect(block(page.text, 1)).not.toMatch(/<option value="self" selected>/);
    expect(block(page.text, 2)).toBeUndefined();

    const added = await post(admin, taskId, 'complete', {
      benefit_form: '1',
      p0_first_name: 'Maria',
      p1_first_name: 'Lucia',
      p1_relationship: 'child',
      plan_name: 'Typed',
      add_person: '1',
    });
    expect(added.status).toBe(200);
    expect(block(added.text, 1)).toMatch(/<option value="child" selected>/);
    expect(block(added.text, 2)).toMatch(/id="p2_first_name"[^>]*value=""/);
    expect(added.text).toMatch(/id="plan_name"[^>]*value="Typed"/);
    expect((await taskOf(taskId)).state).toBe('queued');
  });

  it('the flash says which insurers the check still waits for, then that it shows the plan', async () => {
    const uid = await startSearch(t.app, a.auth, {
      insurer_code: undefined,
      insurer_code_list: [VSP, EYEMED],
      patient: patient({ member_id: 'VSP55501' }),
      max_age_hours: 0,
    });
    const tasks = await waitUntil(`tasks of ${uid}`, async () => {
      const res = await http()
        .get('/api/auth/v1/verification-tasks/')
        .set(a.auth)
        .query({ limit: 200 });
      const mine = res.body.result.filter((x: any) => x.request_uid === uid);
      return mine.length === 2 ? mine : undefined;
    });
    const byInsurer = new Map<string, string>(tasks.map((x: any) => [x.insurer_code, x.id]));
    await post(admin, byInsurer.get(VSP)!, 'complete', PLAN_FORM).expect(302);
    const first = await admin.get('/app/verifications/');
    expect(first.text).toContain('Saved. The check still waits for: EyeMed.');
    expect(first.text).not.toContain('the check now shows the plan');
    await post(admin, byInsurer.get(EYEMED)!, 'complete', PLAN_FORM).expect(302);
    const second = await admin.get('/app/verifications/');
    expect(second.text).toContain('Task completed: the check now shows the plan.');
    const v2 = await waitForResult(t.app, a.auth, uid);
    expect(v2.results.map((r: any) => r.insurer_code)).toEqual([VSP, EYEMED]);
  });

  it('needs info: the question shows on the check page, the practice answers there, the task is queued again', async () => {
    const { uid, taskId } = await vspSearch();
    const check = await admin.get(`/app/eligibility/${uid}`).expect(200);
    expect(check.text).toContain('Waiting for a person to check VSP Vision Care: task');
    expect(check.text).toContain(`href="/app/verifications/${taskId}"`);
    await post(staff, taskId, 'claim').expect(302);
    await post(staff, taskId, 'needs-info', { detail: 'Which member id is on the card?' }).expect(
      302,
    );
    const api = await http().get(`/api/auth/v1/eligibility/${uid}/`).set(a.auth);
    expect(api.body.verification.state).toBe('needs_info');

    const waiting = await admin.get(`/app/eligibility/${uid}`).expect(200);
    expect(waiting.text).toContain('Which member id is on the card?');
    expect(waiting.text).toContain('id="verification-info"');
    expect(waiting.text).not.toContain('http-equiv="refresh"');
    const blank = await postForm(
      admin,
      `/app/eligibility/${uid}`,
      `/app/eligibility/${uid}/verification-info`,
      {
        detail: ' ',
      },
    );
    expect(blank.status).toBe(400);
    expect(blank.text).toContain('This field is required.');
    const answered = await postForm(
      admin,
      `/app/eligibility/${uid}`,
      `/app/eligibility/${uid}/verification-info`,
      { detail: 'VSP55501, the patient is the subscriber.' },
    );
    expect(answered.status).toBe(302);
    const task = await taskOf(taskId);
    expect(task.state).toBe('queued');
    expect(task.detail).toBe('VSP55501, the patient is the subscriber.');
    expect(task.history.map((h: any) => h.actor)).toEqual([
      expect.any(String),
      `user:${staffEmail}`,
      `user:${staffEmail}`,
      `user:${a.email}`,
    ]);
  });

  it('staff use the pages; fail with a reason ends the search', async () => {
    const { uid, taskId } = await vspSearch();
    const list = await staff.get('/app/verifications/').expect(200);
    expect(list.text).toContain(taskId);
    expect(list.text).toContain('href="/app/verifications/"');
    await staff.get(taskUrl(taskId)).expect(200);
    await post(staff, taskId, 'claim').expect(302);
    // Another user of the account cannot take it while it is held.
    const held = await post(admin, taskId, 'claim');
    expect(held.status).toBe(302);
    expect((await admin.get(taskUrl(taskId))).text).toContain('Another verifier holds this task');
    await post(staff, taskId, 'fail', {
      reason: 'portal_down',
      detail: 'Maintenance until 6 pm.',
    }).expect(302);
    const v2 = await waitForResult(t.app, a.auth, uid);
    expect(v2).toMatchObject({ status: 'error', error_code: 'insurer_problem' });
  });

  it("another account's task is 404 on every page and form", async () => {
    const { taskId } = await vspSearch();
    await other.get(taskUrl(taskId)).expect(404);
    const page = await other.get('/app/verifications/');
    expect(page.text).not.toContain(taskId);
    for (const action of ['claim', 'credentials', 'complete', 'fail', 'needs-info', 'info']) {
      const res = await other
        .post(`${taskUrl(taskId)}/${action}`)
        .type('form')
        .send({ _csrf: csrfOf(page.text), ...PLAN_FORM, reason: 'other', detail: 'x' });
      expect([action, res.status]).toEqual([action, 404]);
    }
    expect((await taskOf(taskId)).state).toBe('queued');
  });

  it('embedded sessions reach neither the queue nor a task', async () => {
    const e = await createAccount(t.app, { iframeEnabled: true });
    const { taskId } = await vspSearch(e);
    const minted = await http()
      .post('/api/auth/v1/iframe-session/')
      .set(e.auth)
      .send({ entry_point: 'add_patient' });
    expect(minted.status).toBe(200);
    const url = new URL(minted.body.iframe_url as string);
    const agent = request.agent(t.app.getHttpServer());
    expect((await agent.get(`${url.pathname}${url.search}`)).status).toBe(302);
    await agent.get('/app/verifications/').expect(403);
    await agent.get(taskUrl(taskId)).expect(403);
  });

  it('the Insurers page shows each eligibility path and switches an insurer to assisted and back', async () => {
    const page = await admin.get('/app/insurers/').expect(200);
    const row = (html: string, code: string) =>
      new RegExp(`<tr data-insurer="${code}">([\\s\\S]*?)</tr>`).exec(html)![1];
    expect(row(page.text, VSP)).toContain('assisted');
    expect(row(page.text, 'insurer:demo:vision')).toContain('sandbox');
    expect(row(page.text, SPECTERA)).toContain('none');
    const dir = async () =>
      (await http().get('/api/auth/v1/insurers/').set(a.auth)).body.result.find(
        (e: any) => e.insurer_code === SPECTERA,
      ).eligibility;
    await postForm(admin, '/app/insurers/', '/app/insurers/eligibility-mode', {
      insurer_code: SPECTERA,
      mode: 'assisted',
    }).expect(302);
    expect(await dir()).toBe('assisted');
    const path = (html: string, code: string) =>
      new RegExp(`<tr data-path-insurer="${code}">([\\s\\S]*?)</tr>`).exec(html)![1];
    const after = (await admin.get('/app/insurers/')).text;
    expect(row(after, SPECTERA)).toContain('assisted');
    expect(path(after, SPECTERA)).toContain('Back to default');
    // One button per insurer row: its Enable/Disable.
    expect(row(after, SPECTERA).match(/<button/g)).toHaveLength(1);
    // An assisted insurer's portal login is asked for on the Passwords page.
    expect((await admin.get('/app/passwords/')).text).toContain(`data-insurer="${SPECTERA}"`);
    await postForm(admin, '/app/insurers/', '/app/insurers/eligibility-mode', {
      insurer_code: SPECTERA,
      mode: 'default',
    }).expect(302);
    expect(await dir()).toBe('none');
    await staff.get('/app/insurers/').expect(403);
  });

  it('the Passwords page says when a verifier found a login invalid', async () => {
    const { taskId } = await vspSearch();
    await t.app.get(InsurerSettingsService).setCredentials(a.accountId, VSP, 'drsmith', 'old-pw');
    await post(admin, taskId, 'fail', { reason: 'credentials_invalid' }).expect(302);
    const page = await admin.get('/app/passwords/').expect(200);
    const card = new RegExp(`<div class="card" data-insurer="${VSP}">([\\s\\S]*?)</form>`).exec(
      page.text,
    )![1];
    expect(card).toContain('Needs attention');
  });

  it('the API keys page offers verification read/write and, unticked, verification:credentials', async () => {
    const page = await admin.get('/app/api-keys/').expect(200);
    expect(page.text).toMatch(/value="verification:read" checked/);
    expect(page.text).toMatch(/value="verification:write" checked/);
    expect(page.text).toMatch(/value="verification:credentials" id="scope-credentials" >/);
    const created = await admin
      .post('/app/api-keys/')
      .type('form')
      .send(
        `_csrf=${encodeURIComponent(csrfOf(page.text))}&name=Portal+bot&scopes=verification%3Awrite&scopes=verification%3Acredentials`,
      );
    expect(created.status).toBe(201);
    const key = /<p class="secret" id="new-key">([^<]+)<\/p>/.exec(created.text)![1];
    const { taskId } = await vspSearch();
    await t.app.get(InsurerSettingsService).setCredentials(a.accountId, VSP, 'bot', 'bot-pw');
    await http()
      .post(`/api/auth/v1/verification-tasks/${taskId}/claim/`)
      .set({ Authorization: `Api ${key}` })
      .expect(200);
    const creds = await http()
      .get(`/api/auth/v1/verification-tasks/${taskId}/credentials/`)
      .set({ Authorization: `Api ${key}` });
    expect(creds.status).toBe(200);
    expect(creds.body).toEqual({ username: 'bot', password: 'bot-pw' });
  });
});
