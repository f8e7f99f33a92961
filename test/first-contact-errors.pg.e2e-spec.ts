import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ERROR_DETAILS } from '@/modules/eligibility/domain/error-details';
import { InsurerSettingsService } from '@/modules/insurers/domain/insurer-settings.service';
import { createTestApp, TestApp } from './support/app';
import { DEMO, patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';

type Agent = ReturnType<typeof request.agent>;

const ELIGIBILITY = '/api/auth/v1/eligibility/';
const HINT = 'Send the header Authorization: Api <key>.';
const NOPE = 'insurer:vision:nope';
const UNKNOWN_NOPE = `Unknown insurer code: ${NOPE}.`;
const BAD_DATE = 'Date has wrong format. Use YYYY-MM-DD.';

/**
 * Issue 26 part C, docs/api.md, Authentication and Errors: the errors a developer meets first say how to fix
 * them, and all errors of one request come back in one answer.
 */
describe('errors that help a newcomer', () => {
  let t: TestApp;
  let a: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());

  /** A POST exactly as given: no header added (supertest and fetch add a Content-Type). */
  async function rawPost(
    path: string,
    headers: Record<string, string>,
    body: string,
    method = 'POST',
  ): Promise<{ status: number; body: unknown }> {
    const server = t.app.getHttpServer();
    if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method,
          headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  describe('401 names the header to send (docs/api.md, Authentication)', () => {
    it.each([
      ['a Bearer token', 'Bearer abc', 'Unknown authentication token type.'],
      ['a bare key', 'vk_abc', 'Unknown authentication token type.'],
      ['an unknown key', 'Api vk_nope', 'Invalid authentication token.'],
    ])('answers %s with the hint and WWW-Authenticate', async (_name, header, detail) => {
      const res = await http().get('/api/auth/v1/locations/').set('Authorization', header);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail, hint: HINT });
      expect(res.headers['www-authenticate']).toBe('Api realm="api"');
    });

    it('takes the scheme in any case', async () => {
      const key = a.auth.Authorization.slice('Api '.length);
      for (const scheme of ['api', 'API']) {
        const res = await http()
          .get('/api/auth/v1/locations/')
          .set('Authorization', `${scheme} ${key}`);
        expect(res.status).toBe(200);
      }
    });
  });

  describe('a body that is not JSON is 415 (docs/api.md, Errors)', () => {
    const json = JSON.stringify({ insurer_code: DEMO, patient: patient() });

    it.each([
      ['no Content-Type', {}],
      ['text/plain', { 'Content-Type': 'text/plain' }],
      ['a form', { 'Content-Type': 'application/x-www-form-urlencoded' }],
    ])('answers a JSON body sent with %s', async (_name, type) => {
      const res = await rawPost(ELIGIBILITY, { ...a.auth, ...type }, json);
      expect(res).toEqual({ status: 415, body: { detail: 'Send the body as application/json.' } });
    });

    it('names text/plain too where the operation takes it (a claim report)', async () => {
      const res = await rawPost(
        '/api/auth/v1/claim-reports/',
        { ...a.auth, 'Content-Type': 'application/x-www-form-urlencoded' },
        'x12=ISA',
      );
      expect(res).toEqual({
        status: 415,
        body: { detail: 'Send the body as application/json or text/plain.' },
      });
    });

    it.each([
      ['malformed JSON', { 'Content-Type': 'application/json' }, '{"a":'],
      ['text', { 'Content-Type': 'text/plain' }, 'hello'],
    ])('does not read a body sent with a GET or a DELETE (%s)', async (_name, type, body) => {
      const got = await rawPost('/api/auth/v1/locations/', { ...a.auth, ...type }, body, 'GET');
      expect(got.status).toBe(200);
      const gone = await rawPost(
        '/api/auth/v1/webhooks/00000000-0000-4000-8000-000000000000/',
        { ...a.auth, ...type },
        body,
        'DELETE',
      );
      expect(gone).toEqual({ status: 404, body: { detail: expect.any(String) } });
    });

    it('still reads the body when it says application/json, and an empty body as none', async () => {
      const sent = await rawPost(
        ELIGIBILITY,
        { ...a.auth, 'Content-Type': 'application/json' },
        json,
      );
      expect(sent.status).toBe(201);
      // Content-Length: 0 without a type: no body, so the fields are missing (not 415).
      const empty = await rawPost(ELIGIBILITY, a.auth, '');
      expect(empty).toEqual({
        status: 400,
        body: {
          errors: {
            insurer_code: { $: ['This field is required.'] },
            patient: { $: ['This field is required.'] },
          },
        },
      });
    });
  });

  describe('a second message that says more (docs/api.md, Errors)', () => {
    it('says an impossible date is no date, suggests a close insurer code and lists the choices', async () => {
      const res = await http()
        .post(ELIGIBILITY)
        .set(a.auth)
        .send({ insurer_code: 'VSP', patient: patient({ dob: '1985-02-30' }) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: {
          $: ['Unknown insurer code: VSP.', 'Did you mean insurer:vision:vsp?'],
          patient: {
            dob: { $: [BAD_DATE, '1985-02-30 is not a date: that month has 28 days.'] },
          },
        },
      });
      const person = await http()
        .post('/api/auth/v1/patients/')
        .set(a.auth)
        .send({ first_name: 'Eve', last_name: 'Both', dob: '1985-02-03', sex: 'F' });
      expect(person.status).toBe(400);
      expect(person.body).toEqual({
        errors: {
          sex: {
            $: ['"F" is not a valid choice.', 'Allowed values: female, male, other, unknown.'],
          },
        },
      });
    });

    it('suggests nothing for a code close to none', async () => {
      const res = await http()
        .post(ELIGIBILITY)
        .set(a.auth)
        .send({ insurer_code: NOPE, patient: patient() });
      expect(res.body).toEqual({ errors: { $: [UNKNOWN_NOPE] } });
    });

    it('answers an API path that is no route with a hint beside the detail', async () => {
      const wrongVersion = await http().get('/api/v1/patients/').set(a.auth);
      expect(wrongVersion.status).toBe(404);
      expect(wrongVersion.body).toEqual({
        detail: 'Not found.',
        hint: 'API paths start with /api/auth/v1/ (and /api/auth/v2/ for the V2 eligibility result); the routes are listed at /docs.',
      });
      // Without a key too: a path that is no route needs none to be told so.
      const signedOut = await http().get('/api/v3/eligibility/');
      expect(signedOut.status).toBe(404);
      expect(signedOut.body.hint).toMatch(/^API paths start with \/api\/auth\/v1\//);
      const noRoute = await http().get('/api/auth/v1/Patients/').set(a.auth);
      expect(noRoute.body).toEqual({
        detail: 'Not found.',
        hint: 'No route at this path: paths are case-sensitive and end with /; the routes are listed at /docs.',
      });
    });
  });

  describe('field errors and an unknown insurer in one answer (docs/api.md, Errors)', () => {
    it('reports a bad date and an unknown insurer_code together', async () => {
      const res = await http()
        .post(ELIGIBILITY)
        .set(a.auth)
        .send({ insurer_code: NOPE, patient: patient({ dob: '15/06/1984' }) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: { $: [UNKNOWN_NOPE], patient: { dob: { $: [BAD_DATE] } } },
      });
    });

    it('reports every unknown code of insurer_code_list with the field errors', async () => {
      const res = await http()
        .post(ELIGIBILITY)
        .set(a.auth)
        .send({
          insurer_code_list: [DEMO, NOPE, 'insurer:vision:gone'],
          patient: patient({ zipcode: '7870' }),
        });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: {
          $: [UNKNOWN_NOPE, 'Unknown insurer code: insurer:vision:gone.'],
          patient: { zipcode: { $: ['Enter a valid ZIP code (NNNNN or NNNNN-NNNN).'] } },
        },
      });
    });

    it('leaves a code with an error of its own to that error', async () => {
      const res = await http()
        .post(ELIGIBILITY)
        .set(a.auth)
        .send({ insurer_code: 'x'.repeat(65), patient: patient({ dob: 'nope' }) });
      expect(res.body).toEqual({
        errors: {
          insurer_code: { $: ['Ensure this field has no more than 64 characters.'] },
          patient: { dob: { $: [BAD_DATE] } },
        },
      });
    });

    it('reports a claim body’s unknown insurer with its field errors', async () => {
      const person = {
        first_name: 'Maria',
        last_name: 'Garcia',
        dob: '1984-06-15',
        member_id: 'VSP123456789',
      };
      const res = await http()
        .post('/api/auth/v1/claims/')
        .set(a.auth)
        .send({
          patient: { ...person, dob: '1984/06/15' },
          primary_member: { ...person, insurer_code: NOPE },
          services: [{ codes: ['92014'], date: '2026-01-05', quantity: 1, cost: '145.00' }],
          paid_amount: '145.00',
        });
      expect(res.status).toBe(400);
      expect(res.body.errors.$).toEqual([UNKNOWN_NOPE]);
      expect(res.body.errors.patient).toEqual({ dob: { $: [BAD_DATE] } });
    });

    it('reports each batch item’s unknown insurer with the field errors of the batch', async () => {
      const item = (over: Record<string, unknown> = {}) => ({
        insurer_code: DEMO,
        patient: patient(),
        ...over,
      });
      const res = await http()
        .post('/api/auth/v1/eligibility/batches/')
        .set(a.auth)
        .send({
          items: [
            item(),
            item({ insurer_code: NOPE, patient: patient({ dob: '1984-13-45' }) }),
            item({ insurer_code: NOPE }),
            item({ patient: patient({ last_name: '' }) }),
          ],
        });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: {
          items: {
            '1': {
              $: [UNKNOWN_NOPE],
              patient: {
                dob: { $: [BAD_DATE, '1984-13-45 is not a date: there is no month 13.'] },
              },
            },
            // Fine but for its insurer: reported now too, not after item 3 is fixed.
            '2': { $: [UNKNOWN_NOPE] },
            '3': { patient: { last_name: { $: ['This field may not be blank.'] } } },
          },
        },
      });
    });

    it('shows a CSV row’s field errors and unknown insurer together, by line', async () => {
      const web = await signIn(a);
      const page = await web.get('/app/batches/').expect(200);
      const csv = [
        'first_name,last_name,dob,zipcode,member_id,insurer_code',
        'Maria,Garcia,1984-06-15,78701,,insurer:demo:vision',
        `Ann,Lee,15/06/1984,78701,,${NOPE}`,
      ].join('\n');
      const res = await web
        .post('/app/batches/')
        .field('_csrf', csrfOf(page.text))
        .attach('file', Buffer.from(csv), { filename: 'patients.csv', contentType: 'text/csv' });
      expect(res.status).toBe(400);
      const shown = /id="upload-errors"[\s\S]*?<\/div>/.exec(res.text)![0];
      expect(shown).toContain(`Line 3: dob: ${BAD_DATE}`);
      expect(shown).toContain(`Line 3: ${UNKNOWN_NOPE}`);
      expect(shown).not.toContain('Line 2');
    });

    it('reads a valid CSV as it streams in into a batch, and refuses a row wider than its header by line', async () => {
      const web = await signIn(a);
      const upload = async (csv: string) => {
        const page = await web.get('/app/batches/').expect(200);
        return web
          .post('/app/batches/')
          .field('_csrf', csrfOf(page.text))
          .attach('file', Buffer.from(csv), { filename: 'patients.csv', contentType: 'text/csv' });
      };
      const header = '\uFEFFfirst_name,last_name,dob,zipcode,member_id,insurer_code';
      const ok = await upload(
        `${header}\r\n"Garcia, Maria",Lee,1984-06-15,78701,,insurer:demo:vision\r\n`,
      );
      expect(ok.status).toBe(303);
      const uid = /^\/app\/batches\/(.+)$/.exec(ok.headers.location)![1];
      const batch = await http().get(`/api/auth/v1/eligibility/batches/${uid}/`).set(a.auth);
      expect(batch.body).toMatchObject({ count: 1 });
      const wide = await upload(
        `${header}\nMaria,Lee,1984-06-15,78701,,insurer:demo:vision,extra\n`,
      );
      expect(wide.status).toBe(400);
      expect(wide.text).toContain(
        'Line 2: the line has more cells than the header&#39;s 6 columns.',
      );
    });
  });

  describe('error_detail says why a check failed (docs/api.md, Errors)', () => {
    it('is in the V1 and V2 answers and on the web page of a failed Spectera check', async () => {
      // No clearinghouse in this suite: Spectera has no path (VSP would wait for a person).
      const uid = await startSearch(t.app, a.auth, {
        insurer_code: 'insurer:vision:spectera',
        patient: patient(),
      });
      const v2 = await waitForResult(t.app, a.auth, uid);
      // Not connected is its own sentence: the insurer by name and the setting to change, never
      // "try again later" (a retry can never work).
      const detail =
        'Spectera (UnitedHealthcare Vision) is not connected to this service, so it cannot be ' +
        'checked until the operator configures a clearinghouse (CLEARINGHOUSE_ELIGIBILITY_URL), ' +
        'or an administrator switches Spectera (UnitedHealthcare Vision) to assisted ' +
        'verification on the Insurers page. Trying again will not help.';
      expect(v2).toMatchObject({
        status: 'error',
        error_code: 'insurer_problem',
        error_detail: detail,
      });
      expect(v2.error_detail).not.toMatch(/try again later/i);
      const v1 = await waitForResult(t.app, a.auth, uid, 'v1');
      expect(v1.error_detail).toBe(detail);
      // No patient data in it.
      expect(v2.error_detail).not.toMatch(/Maria|Garcia|1984|78701/);

      const web = await signIn(a);
      const page = await web.get(`/app/eligibility/${uid}`).expect(200);
      expect(page.text).toContain(`<p id="error-detail">${detail}</p>`);
    });

    it('says an insurer switched off for the practice is off, by name', async () => {
      // The Insurers page's switch (admins only; no API route).
      const settings = t.app.get(InsurerSettingsService);
      await settings.setEnabled(a.accountId, DEMO, false);
      try {
        const uid = await startSearch(t.app, a.auth, {
          insurer_code: DEMO,
          patient: patient(),
        });
        const v2 = await waitForResult(t.app, a.auth, uid);
        expect(v2.error_detail).toBe(
          'Demo Vision (sandbox) is switched off for this practice, so it was not checked: an ' +
            'administrator can switch it on on the Insurers page.',
        );
      } finally {
        await settings.setEnabled(a.accountId, DEMO, true);
      }
    });

    it('says our side failed for unexpected_error', async () => {
      const uid = await startSearch(t.app, a.auth, {
        patient: patient({ last_name: 'in_err_int' }),
      });
      const v2 = await waitForResult(t.app, a.auth, uid);
      expect(v2.error_code).toBe('unexpected_error');
      expect(v2.error_detail).toBe(ERROR_DETAILS.unexpected_error);
    });
  });

  it("answers a newcomer's three mistakes each with how to fix it", async () => {
    // 1. The Authorization header of another API: the answer names the one to send.
    const key = a.auth.Authorization.slice('Api '.length);
    const body = { insurer_code: NOPE, patient: patient({ dob: '06/15/1984' }) };
    const bearer = await http().post(ELIGIBILITY).set('Authorization', `Bearer ${key}`).send(body);
    expect(bearer.status).toBe(401);
    expect(bearer.body.hint).toBe(HINT);
    expect(bearer.headers['www-authenticate']).toBe('Api realm="api"');

    // 2 and 3. With the header fixed: the date format and the unknown insurer in one answer.
    const fixedHeader = await http()
      .post(ELIGIBILITY)
      .set('Authorization', `Api ${key}`)
      .send(body);
    expect(fixedHeader.status).toBe(400);
    expect(fixedHeader.body).toEqual({
      errors: { $: [UNKNOWN_NOPE], patient: { dob: { $: [BAD_DATE] } } },
    });

    // Both fixed: accepted.
    const fixed = await http()
      .post(ELIGIBILITY)
      .set('Authorization', `Api ${key}`)
      .send({ ...body, insurer_code: DEMO, patient: patient({ dob: '1984-06-15' }) });
    expect(fixed.status).toBe(201);
  });

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
});

function csrfOf(html: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(html)![1];
}
