import request from 'supertest';
import { DataSource } from 'typeorm';
import { addMonths } from '@/lib/benefits';
import { todayIso } from '@/platform/kernel/time';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { MSG } from '@/platform/kernel/messages';
import { HISTORY_BENEFIT_CODES } from '@/lib/benefits/history-codes';

/**
 * docs/api.md, Next eligible dates: the practice's own history (its claims, staff entries) in a
 * search's next eligible dates, and the benefit-history routes of a patient.
 */

const TODAY = todayIso();
/** Three months ago: the frames are next allowed 21 months from now, after the sandbox plan's end. */
const BOUGHT = addMonths(TODAY, -3);
const FRAMES_AGAIN = addMonths(BOUGHT, 24);

type Item = { benefit_code: string; items: Item[]; [key: string]: any };
const find = (items: Item[], code: string): Item | undefined =>
  items.find((i) => i.benefit_code === code) ?? items.map((i) => find(i.items, code)).find(Boolean);

/** A claim of the sandbox insurer for `who`, one line of `code` on `date`. */
const claimOf = (who: Record<string, unknown>, code: string, date: string) => ({
  patient: { type: 'self', sex: 'female', ...who },
  primary_member: { type: 'self', sex: 'female', ...who, insurer_code: DEMO },
  services: [{ codes: [code], date, quantity: 1, cost: '120.00', diagnosis_codes: ['H52.13'] }],
  paid_amount: '120.00',
});

describe('the practice’s benefit history (docs/api.md, Next eligible dates)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  const http = () => request(t.app.getHttpServer());
  const entries = async () =>
    (await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM patient_benefit_history'))[0]
      .n as number;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
  });
  afterAll(() => t.close());

  /** The frames and contact lenses of the plan a sandbox search of `who` finds. */
  async function searched(who: Record<string, unknown>, account = a) {
    const uid = await startSearch(t.app, account.auth, { patient: patient(who) });
    const answer = await waitForResult(t.app, account.auth, uid);
    const items = answer.results[0].persons[0].plan.items as Item[];
    return {
      uid,
      personId: answer.results[0].persons[0].id as number,
      frames: find(items, 'materials.frames')!,
      contacts: find(items, 'materials.contact_lenses')!,
      exam: find(items, 'exam')!,
    };
  }

  it('a claim filed for V2020, then a search of the same patient: frames are computed from that claim', async () => {
    const who = { first_name: 'Marta', last_name: 'Frameson', dob: '1984-06-15' };
    const claim = await http()
      .post('/api/auth/v1/claims/')
      .set(a.auth)
      .send(claimOf({ ...who, member_id: 'DMV-FREQ-001' }, 'V2020', BOUGHT));
    expect(claim.status).toBe(201);

    // The same patient as the sandbox answers: names in its own case, the member id the claim has.
    const { uid, personId, frames, contacts, exam } = await searched({
      first_name: 'MARTA',
      last_name: 'frameson ',
      member_id: 'dmv-freq-001',
    });
    expect(frames.frequency).toEqual({
      count: 1,
      period: { kind: 'rolling', months: 24 },
      shared_with: ['materials.contact_lenses'],
    });
    expect(frames).toMatchObject({
      last_service: { date: BOUGHT, source: 'claim' },
      last_service_date: BOUGHT,
      next_eligible: { date: FRAMES_AGAIN, basis: 'computed' },
      next_eligible_date: FRAMES_AGAIN,
    });
    expect(frames.next_eligible.explanation).toContain(
      `The last service that counts was on ${BOUGHT}; a new one is allowed from ` +
        `${FRAMES_AGAIN}, 24 months after it.`,
    );
    // Contact lenses instead of glasses: the frames use them up for 12 months.
    expect(contacts.next_eligible).toMatchObject({
      date: addMonths(BOUGHT, 12),
      basis: 'computed',
    });
    expect(contacts).not.toHaveProperty('last_service');
    expect(exam.next_eligible).toMatchObject({ date: TODAY, basis: 'computed' });

    // The stored plan is the one estimates read: frames not yet eligible pay nothing.
    const estimate = await http()
      .post('/api/auth/v1/estimates/')
      .set(a.auth)
      .send({ request_uid: uid, person_id: personId, services: [{ codes: ['V2020'], cost: 90 }] });
    expect(estimate.status).toBe(200);
    expect(estimate.body.lines[0].notes).toContain(
      `not eligible until ${FRAMES_AGAIN} (last used ${BOUGHT}): not reimbursed`,
    );
  });

  it('a staff entry works the same, and the history lists it beside the claims with their sources', async () => {
    const who = { first_name: 'Lena', last_name: 'Staffer', dob: '1979-02-03' };
    const created = await http().post('/api/auth/v1/patients/').set(a.auth).send(who);
    const code = created.body.code as string;
    const entry = await http()
      .post(`/api/auth/v1/patients/${code}/benefit-history/`)
      .set(a.auth)
      .send({
        insurer_code: DEMO,
        benefit_code: 'materials.frames',
        date: BOUGHT,
        note: 'Bought elsewhere; receipt seen.',
      });
    expect(entry.status).toBe(201);
    expect(entry.body).toEqual({
      source: 'staff',
      insurer_code: DEMO,
      benefit_code: 'materials.frames',
      date: BOUGHT,
      note: 'Bought elsewhere; receipt seen.',
      claim_code: null,
      procedure_code: null,
    });

    const { frames } = await searched(who);
    expect(frames).toMatchObject({
      last_service: { date: BOUGHT, source: 'staff' },
      next_eligible: { date: FRAMES_AGAIN, basis: 'computed' },
    });

    const exam = addMonths(TODAY, -1);
    const claim = await http()
      .post('/api/auth/v1/claims/')
      .set(a.auth)
      .send(claimOf({ ...who, member_id: 'DMV-FREQ-002' }, '92014', exam));
    // The same entry again replaces its note.
    await http()
      .post(`/api/auth/v1/patients/${code}/benefit-history/`)
      .set(a.auth)
      .send({ insurer_code: DEMO, benefit_code: 'materials.frames', date: BOUGHT })
      .expect(201);
    const history = await http().get(`/api/auth/v1/patients/${code}/benefit-history/`).set(a.auth);
    expect(history.status).toBe(200);
    expect(history.body).toEqual({
      result: [
        {
          source: 'claim',
          insurer_code: DEMO,
          benefit_code: 'exam.routine',
          date: exam,
          note: null,
          claim_code: claim.body.code,
          procedure_code: '92014',
        },
        { ...entry.body, note: null },
      ],
    });
  });

  it('a used routine exam: the exam and its routine item wait for the same date, and an estimate pays nothing for 92014', async () => {
    const who = { first_name: 'Ezra', last_name: 'Examined', dob: '1981-04-04' };
    const code = (await http().post('/api/auth/v1/patients/').set(a.auth).send(who)).body
      .code as string;
    const seen = addMonths(TODAY, -3);
    await http()
      .post(`/api/auth/v1/patients/${code}/benefit-history/`)
      .set(a.auth)
      .send({ insurer_code: DEMO, benefit_code: 'exam.routine', date: seen })
      .expect(201);
    const uid = await startSearch(t.app, a.auth, { patient: patient(who) });
    const answer = await waitForResult(t.app, a.auth, uid);
    const items = answer.results[0].persons[0].plan.items as Item[];
    const exam = find(items, 'exam')!;
    const routine = find(items, 'exam.routine')!;
    const again = addMonths(seen, 12);
    expect(exam.next_eligible).toMatchObject({ date: again, basis: 'computed' });
    expect(routine).toMatchObject({
      next_eligible: exam.next_eligible,
      next_eligible_date: again,
      last_service: { date: seen, source: 'staff' },
    });
    const estimate = await http()
      .post('/api/auth/v1/estimates/')
      .set(a.auth)
      .send({
        request_uid: uid,
        person_id: answer.results[0].persons[0].id,
        services: [{ codes: ['92014'], cost: 145 }],
      });
    expect(estimate.status).toBe(200);
    expect(estimate.body.lines[0]).toMatchObject({
      benefit_code: 'exam.routine',
      capped: '0.0000',
    });
    expect(estimate.body.lines[0].notes).toContain(
      `not eligible until ${again} (last used ${seen}): not reimbursed`,
    );
    expect(estimate.body.estimated_reimbursement).toBe('0.0000');
  });

  it('frames held back by shared contact lenses: the note names the contact lenses, not the older frames', async () => {
    const who = { first_name: 'Sol', last_name: 'Shared', dob: '1977-07-07' };
    const code = (await http().post('/api/auth/v1/patients/').set(a.auth).send(who)).body
      .code as string;
    const frames = addMonths(TODAY, -18);
    const contacts = addMonths(TODAY, -2);
    for (const [benefit_code, date] of [
      ['materials.frames', frames],
      ['materials.contact_lenses', contacts],
    ])
      await http()
        .post(`/api/auth/v1/patients/${code}/benefit-history/`)
        .set(a.auth)
        .send({ insurer_code: DEMO, benefit_code, date })
        .expect(201);
    const found = await searched(who);
    expect(found.frames).toMatchObject({
      last_service_date: frames,
      next_eligible: { date: addMonths(contacts, 24) },
    });
    const estimate = await http()
      .post('/api/auth/v1/estimates/')
      .set(a.auth)
      .send({
        request_uid: found.uid,
        person_id: found.personId,
        services: [{ codes: ['V2020'], cost: 90 }],
      });
    expect(estimate.body.lines[0].notes).toContain(
      `not eligible until ${addMonths(contacts, 24)} (contact lenses last used ${contacts}, shared): not reimbursed`,
    );
  });

  it('counts no claim of another insurer, of another member id, or of another account', async () => {
    const who = { first_name: 'Otto', last_name: 'Elsewhere', dob: '1990-09-09' };
    const vsp = claimOf({ ...who, member_id: 'DMV-FREQ-003' }, 'V2020', BOUGHT);
    vsp.primary_member.insurer_code = 'insurer:vision:vsp';
    for (const [account, body] of [
      [a, vsp],
      [a, claimOf({ ...who, member_id: 'SOMEONE-ELSE' }, 'V2020', BOUGHT)],
      [b, claimOf({ ...who, member_id: 'DMV-FREQ-003' }, 'V2020', BOUGHT)],
    ] as const)
      await http().post('/api/auth/v1/claims/').set(account.auth).send(body).expect(201);
    const { frames } = await searched({ ...who, member_id: 'DMV-FREQ-003' });
    expect(frames).not.toHaveProperty('last_service');
    expect(frames.next_eligible).toMatchObject({ date: TODAY, basis: 'computed' });
  });

  it('refuses bad entries field by field and stores nothing', async () => {
    const code = (
      await http()
        .post('/api/auth/v1/patients/')
        .set(a.auth)
        .send({ first_name: 'Bad', last_name: 'Input', dob: '1970-01-01' })
    ).body.code as string;
    const before = await entries();
    const post = (body: object) =>
      http().post(`/api/auth/v1/patients/${code}/benefit-history/`).set(a.auth).send(body);
    const bad = await post({
      insurer_code: 'insurer:vision:nope',
      benefit_code: 'frames',
      date: '2025-02-30',
      note: 7,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      errors: {
        insurer_code: { $: ['Unknown insurer code: insurer:vision:nope.'] },
        benefit_code: {
          $: ['"frames" is not a valid choice.', MSG.allowedChoices(HISTORY_BENEFIT_CODES)],
        },
        date: {
          $: [
            'Date has wrong format. Use YYYY-MM-DD.',
            '2025-02-30 is not a date: that month has 28 days.',
          ],
        },
        note: { $: ['Not a valid string.'] },
      },
    });
    const future = await post({
      insurer_code: DEMO,
      benefit_code: 'materials.frames',
      date: addMonths(TODAY, 1),
    });
    expect(future.body).toEqual({ errors: { date: { $: ['Date may not be in the future.'] } } });
    const missing = await post({});
    expect(missing.body).toEqual({
      errors: {
        insurer_code: { $: ['This field is required.'] },
        benefit_code: { $: ['This field is required.'] },
        date: { $: ['This field is required.'] },
      },
    });
    expect(await entries()).toBe(before);
  });

  it("answers another account's patient as a missing one, storing nothing", async () => {
    const code = (
      await http()
        .post('/api/auth/v1/patients/')
        .set(a.auth)
        .send({ first_name: 'Owned', last_name: 'ByA', dob: '1966-06-06' })
    ).body.code as string;
    const before = await entries();
    const body = { insurer_code: DEMO, benefit_code: 'exam.routine', date: '2025-01-02' };
    const post = await http()
      .post(`/api/auth/v1/patients/${code}/benefit-history/`)
      .set(b.auth)
      .send(body);
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ detail: `Patient ${code} not found.` });
    const get = await http().get(`/api/auth/v1/patients/${code}/benefit-history/`).set(b.auth);
    expect(get.status).toBe(404);
    expect(await entries()).toBe(before);
  });
});
