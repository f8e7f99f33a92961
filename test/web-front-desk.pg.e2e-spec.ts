import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { InsurerSettingsService } from '@/modules/insurers/domain/insurer-settings.service';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { fakeConnector } from './support/fake-connector';
import { waitUntil } from './support/queues';

type Agent = ReturnType<typeof request.agent>;

const VSP = 'insurer:vision:vsp';
const SPECTERA = 'insurer:vision:spectera';
/** docs/api.md, Insurers and assisted verification: the insurers a person checks on their portals by default, besides VSP here. */
const ASSISTED = [
  'insurer:vision:eye_med',
  'insurer:vision:superior',
  'insurer:vision:cigna_vision',
  'insurer:vision:aetna_vision',
  'insurer:vision:blue_view',
];

/**
 * What a front desk reads (docs/api.md, Errors, issue 26): "No plan found" never looks like a found
 * plan, the batch results and page say which rows need a call and why, the benefit table reads
 * without the tree's jargon, and the Passwords page asks only for logins a connection uses.
 */
describe('web application as a front desk reads it', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let web: Agent;
  let webB: Agent;

  beforeAll(async () => {
    // VSP signs in with the practice's own login here; Spectera has no path (no clearinghouse);
    // the sandbox needs none.
    t = await createTestApp({ providers: [fakeConnector(VSP, { usesAccountCredentials: true })] });
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    web = await signIn(a);
    webB = await signIn(b);
  });
  afterAll(() => t.close());

  async function signIn(account: TestAccount): Promise<Agent> {
    const agent = request.agent(t.app.getHttpServer());
    const login = await agent.get('/app/login');
    await agent
      .post('/app/login')
      .type('form')
      .send({ _csrf: csrfOf(login.text), email: account.email, password: account.password })
      .expect(302);
    return agent;
  }

  async function batch(account: TestAccount, items: Record<string, unknown>[]): Promise<string> {
    const res = await request(t.app.getHttpServer())
      .post('/api/auth/v1/eligibility/batches/')
      .set(account.auth)
      .send({ items });
    expect(res.status).toBe(201);
    const uid = res.body.batch_uid as string;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const got = await request(t.app.getHttpServer())
        .get(`/api/auth/v1/eligibility/batches/${uid}/`)
        .set(account.auth);
      if (got.body.status === 'complete') return uid;
      if (Date.now() > deadline) throw new Error(`batch ${uid} still processing`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  describe('"No plan found"', () => {
    let found: string;
    let notFound: string;

    beforeAll(async () => {
      found = await startSearch(t.app, a.auth, { patient: patient() });
      notFound = await startSearch(t.app, a.auth, {
        patient: patient({ first_name: 'not_found' }),
      });
      await waitForResult(t.app, a.auth, found);
      expect((await waitForResult(t.app, a.auth, notFound)).results).toEqual([]);
    });

    it('marks a check without plans "no plan found" on the dashboard, and a found one complete', async () => {
      const page = await web.get('/app/').expect(200);
      expect(statusCell(rowOf(page.text, notFound))).toBe(
        '<span class="badge no_plan_found">no plan found</span>',
      );
      expect(statusCell(rowOf(page.text, found))).toBe(
        '<span class="badge complete">complete</span>',
      );
      // Insurers by name.
      expect(rowOf(page.text, found)).toContain('<td>Demo Vision (sandbox)</td>');
    });

    it('marks a complete check whose insurers people still check as such, not "no plan found"', async () => {
      const uid = await startSearch(t.app, a.auth, {
        insurer_code_list: [DEMO, ASSISTED[0]],
        wait_for: 'electronic',
        patient: patient({ first_name: 'not_found', member_id: 'WAIT0001' }),
      });
      await waitUntil('a person checking EyeMed', async () => {
        const res = await request(t.app.getHttpServer())
          .get(`/api/auth/v2/eligibility/${uid}/`)
          .set(a.auth);
        const waiting = (res.body.insurers ?? []).some(
          (e: any) => e.insurer_code === ASSISTED[0] && e.state === 'waiting_for_person',
        );
        return res.body.status === 'complete' && waiting ? true : undefined;
      });
      const page = await web.get('/app/').expect(200);
      expect(statusCell(rowOf(page.text, uid))).toBe(
        '<span class="badge insurer-waiting_for_person">a person is checking</span>',
      );
    });

    it('says "No plan found" on the check page, in none of the words or colour of a found plan', async () => {
      const page = await web.get(`/app/eligibility/${notFound}`).expect(200);
      const status = between(page.text, '<div class="card" id="status">', '</div>');
      expect(status).toContain('<span class="badge no_plan_found">no plan found</span>');
      expect(status).not.toContain('badge complete');
      expect(page.text).toContain('<h2 class="flush">No plan found</h2>');
      // Why, in the insurer's words.
      expect(page.text).toContain('<li>Sandbox: no member (not_found)</li>');
      const shown = await web.get(`/app/eligibility/${found}`).expect(200);
      expect(shown.text).toContain('<span class="badge complete">complete</span>');
      expect(shown.text).not.toContain('No plan found');
    });
  });

  describe('benefit table', () => {
    let page: string;

    beforeAll(async () => {
      const uid = await startSearch(t.app, a.auth, { patient: patient({ first_name: 'Table' }) });
      await waitForResult(t.app, a.auth, uid);
      page = (await web.get(`/app/eligibility/${uid}`).expect(200)).text;
    });

    it('shows an inherited copay once, on the parent row', () => {
      const exam = cells(benefitRow(page, 'exam'));
      const routine = cells(benefitRow(page, 'exam.routine'));
      // Benefit | INN copay, allowance, coinsurance, qty | OON copay, allowance, coinsurance, qty
      expect(exam[1]).toMatch(/^\$\d+\.\d\d$/);
      expect(exam[4]).toBe('1');
      // The routine exam inherits both: blank cells, not the same figures again.
      expect(routine[1]).toBe('');
      expect(routine[4]).toBe('');
      expect(benefitRow(page, 'exam.routine')).toContain('class="num inh"');
      // No row under the exam repeats its copay.
      const repeated = [...page.matchAll(/<tr class="[^"]*" data-benefit="exam\.[^"]+">/g)]
        .map((m) => cells(benefitRow(page, m[0].split('data-benefit="')[1].slice(0, -2)))[1])
        .filter((c) => c === exam[1]);
      expect(repeated).toEqual([]);
    });

    it('shows the comments, the flags in words and the insurer by name', () => {
      expect(benefitRow(page, 'exam')).toContain('once every 12 months');
      // The plan's own discount is said once, above the table, not on each top benefit.
      expect(page).toContain(
        '<p class="plan-notes">Whole plan: 40% off additional complete pairs (in network)</p>',
      );
      expect(benefitRow(page, 'exam')).not.toContain('additional complete pairs');
      expect(benefitRow(page, 'exam.routine')).toContain(
        '<span class="flags">only one Eye exam option per policy year</span>',
      );
      expect(benefitRow(page, 'exam.routine.retinal_imaging')).toContain(
        '<span class="flags">only with Routine exam</span>',
      );
      expect(page).not.toMatch(/requires-parent-use|exclusive-use/);
      expect(page).toContain(' · Demo Vision (sandbox) · ');
      expect(page).not.toContain(` · ${DEMO} · `);
    });
  });

  describe('batches', () => {
    let uid: string;
    let older: string;

    beforeAll(async () => {
      older = await batch(a, [{ insurer_code: DEMO, patient: patient() }]);
      uid = await batch(a, [
        { insurer_code: DEMO, patient: patient({ first_name: 'Found' }) },
        { insurer_code: DEMO, patient: patient({ first_name: 'not_found' }) },
        { insurer_code: DEMO, patient: patient({ first_name: 'in_err_ins' }) },
        // No path (no clearinghouse, not checked by a person): fails without calling anyone.
        { insurer_code: SPECTERA, patient: patient({ first_name: 'Nobody' }) },
      ]);
    });

    it('writes a results CSV a front desk can read', async () => {
      const res = await web.get(`/app/batches/${uid}/results.csv`).expect(200);
      const rows: Record<string, string>[] = parse(res.text, { columns: true });
      expect(rows.map((r) => [r.first_name, r.status, r.coverage])).toEqual([
        ['Found', 'complete', 'plan found'],
        ['not_found', 'complete', 'no plan found'],
        ['in_err_ins', 'error', ''],
        ['Nobody', 'error', ''],
      ]);
      // The common benefits, flattened from the tree, in dollars: none left empty.
      for (const column of [
        'exam_copay',
        'materials_copay',
        'frame_allowance',
        'contact_lens_allowance',
      ])
        expect({ column, value: rows[0][column] }).toEqual({
          column,
          value: expect.stringMatching(/^\d+\.\d\d$/),
        });
      expect(rows[0].insurer_name).toBe('Demo Vision (sandbox)');
      // Failed rows keep the insurer they were about, and say why.
      expect(rows[2]).toMatchObject({
        insurer_code: DEMO,
        error_code: 'insurer_problem',
        error_reason: 'Sandbox: simulated insurer outage (in_err_ins)',
      });
      expect(rows[3]).toMatchObject({
        insurer_code: SPECTERA,
        insurer_name: 'Spectera (UnitedHealthcare Vision)',
      });
      expect(rows[3].error_reason).not.toBe('');
      expect(rows[1]).toMatchObject({ insurer_code: DEMO, error_reason: '', plan_name: '' });
    });

    it('lists the failed and no-plan rows on the batch page, by row number, with why', async () => {
      const page = (await web.get(`/app/batches/${uid}`).expect(200)).text;
      const table = between(page, '<div class="card" id="attention">', '</table>');
      const rows = [...table.matchAll(/<tr data-row="(\d+)" data-outcome="([a-z_]+)">/g)].map(
        (m) => [Number(m[1]), m[2]],
      );
      expect(rows).toEqual([
        [2, 'no_plan_found'],
        [3, 'error'],
        [4, 'error'],
      ]);
      expect(attentionRow(table, 3)).toContain('Sandbox: simulated insurer outage (in_err_ins)');
      expect(attentionRow(table, 4)).toContain('<td>Spectera (UnitedHealthcare Vision)</td>');
      expect(reasonOf(attentionRow(table, 4))).not.toBe('');
      expect(attentionRow(table, 2)).toContain('The insurer found no plan for this patient');
      expect(page).toContain('(1 with no plan found)');
    });

    it("lists the account's past batches, newest first, and not another account's", async () => {
      const mine = (await web.get('/app/batches/').expect(200)).text;
      const listed = [...mine.matchAll(/<tr data-batch="([^"]+)">/g)].map((m) => m[1]);
      expect(listed).toEqual([uid, older]);
      const theirs = (await webB.get('/app/batches/').expect(200)).text;
      expect(theirs).toContain('No batches yet.');
      expect(theirs).not.toContain(uid);
      await webB.get(`/app/batches/${uid}`).expect(404);
    });
  });

  describe('Passwords page', () => {
    it('asks only for the insurers whose connection or verifier signs in with the practice login', async () => {
      const page = (await web.get('/app/passwords/').expect(200)).text;
      const cards = [...page.matchAll(/<div class="card" data-insurer="([^"]+)">/g)].map(
        (m) => m[1],
      );
      expect(cards).toEqual([VSP, ...ASSISTED]);
      expect(page).not.toContain('id="none-needed"');
    });

    it('stores a login encrypted and never shows the password back', async () => {
      const password = 'Sup3r-Secret-Portal-Pw!';
      const shown = await web.get('/app/passwords/').expect(200);
      await web
        .post('/app/passwords/')
        .type('form')
        .send({ _csrf: csrfOf(shown.text), insurer_code: VSP, username: 'desk', password })
        .expect(302);
      const page = (await web.get('/app/passwords/').expect(200)).text;
      expect(page).toMatch(/Set on \d{4}-\d{2}-\d{2} [^<]*for user <strong>desk<\/strong>/);
      expect(page).not.toContain(password);
      const rows = await t.app
        .get(DataSource)
        .query('SELECT * FROM account_insurers WHERE account_id = $1', [a.accountId]);
      expect(JSON.stringify(rows)).not.toContain(password);
      expect(rows[0].password_sealed).toMatch(/^v1\./);
    });

    it("shows the credential service's messages on that insurer's card", async () => {
      const shown = await web.get('/app/passwords/').expect(200);
      const page = await web
        .post('/app/passwords/')
        .type('form')
        .send({
          _csrf: csrfOf(shown.text),
          insurer_code: VSP,
          username: '   ',
          password: 'p'.repeat(501),
        });
      expect(page.status).toBe(400);
      const card = between(page.text, `data-insurer="${VSP}"`, '</form>');
      expect(
        [...card.matchAll(/<div class="field-error">([^<]*)<\/div>/g)].map((m) => m[1]),
      ).toEqual([
        'This field may not be blank.',
        'Ensure this field has no more than 500 characters.',
      ]);
    });

    it('offers a login stored for an insurer no connection signs in to for deletion only', async () => {
      await t.app.get(InsurerSettingsService).setCredentials(a.accountId, SPECTERA, 'old', 'pw');
      const page = (await web.get('/app/passwords/').expect(200)).text;
      const unused = between(page, '<div class="card" id="unused">', '</ul>');
      expect(unused).toContain(
        `<li data-insurer="${SPECTERA}">Spectera (UnitedHealthcare Vision): user <strong>old</strong>`,
      );
      expect(unused).toContain('action="/app/passwords/delete"');
      expect(unused).not.toContain('name="password"');
      await web
        .post('/app/passwords/delete')
        .type('form')
        .send({ _csrf: csrfOf(page), insurer_code: SPECTERA })
        .expect(302);
      expect((await web.get('/app/passwords/').expect(200)).text).not.toContain('id="unused"');
    });
  });
});

function csrfOf(html: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(html)![1];
}

function between(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  if (from < 0) throw new Error(`not on the page: ${start}`);
  return text.slice(from, text.indexOf(end, from + start.length));
}

/** The dashboard row of a request. */
function rowOf(html: string, uid: string): string {
  const link = html.indexOf(`>${uid}</a>`);
  if (link < 0) throw new Error(`${uid} not on the dashboard`);
  return html.slice(html.lastIndexOf('<tr>', link), html.indexOf('</tr>', link));
}

/** The dashboard row's status cell (the fourth), without its surrounding tags. */
function statusCell(row: string): string {
  return [...row.matchAll(/<td>([\s\S]*?)<\/td>/g)][3][1].trim();
}

function benefitRow(html: string, code: string): string {
  return between(html, `data-benefit="${code}">`, '</tr>');
}

/** A benefit row's cells as text (the benefit's own cell first). */
function cells(row: string): string[] {
  return [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) =>
    m[1].replace(/<[^>]+>/g, '').trim(),
  );
}

function attentionRow(table: string, row: number): string {
  return between(table, `<tr data-row="${row}"`, '</tr>');
}

function reasonOf(row: string): string {
  return /<td class="reason">([\s\S]*?)<\/td>/.exec(row)![1].trim();
}
