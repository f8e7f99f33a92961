import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { asBytes, pdfText } from './support/pdf-text';
import { signIn } from './support/web-sign-in';

/** A page's text with its line breaks as spaces. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

/**
 * The eligibility snapshot (docs/api.md, Eligibility) of a whole check, and who may have one:
 * the account's own checks, the result and person its answer holds, well-formed ids; the check
 * page's Print button.
 */
describe('eligibility snapshot PDF: a whole check, access and refusals (docs/api.md, Eligibility)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  const http = () => request(t.app.getHttpServer());
  const download = (uid: string, query: Record<string, unknown>, who = a) =>
    http()
      .get(`/api/auth/v2/eligibility/${encodeURIComponent(uid)}/pdf/`)
      .query(query)
      .set(who.auth)
      .buffer(true)
      .parse(asBytes);

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("prints a failed check as a whole with the insurer's errors; with ids of it, nothing is found", async () => {
    const uid = await startSearch(t.app, a.auth, {
      patient: patient({ last_name: 'In_Err_Ins', member_id: 'ERR0001' }),
    });
    const body = await waitForResult(t.app, a.auth, uid);
    expect(body.status).toBe('error');
    const res = await download(uid, {});
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain(`eligibility-${uid}.pdf`);
    const text = flat((await pdfText(res.body as Buffer)).text);
    for (const value of [
      'Patient (as asked)',
      'In_Err_Ins',
      'Error: insurer_problem',
      body.error_detail,
      'Insurers asked',
      'Could not be checked',
      'Insurer errors',
      body.insurers[0].detail,
    ])
      expect(text).toContain(value);
    const none = await download(uid, { result_id: 1, person_id: 1 });
    expect(none.status).toBe(404);
  });

  describe('refusals', () => {
    let uid: string;
    let resultId: number;
    let personId: number;
    beforeAll(async () => {
      uid = await startSearch(t.app, a.auth, { patient: patient({ last_name: 'Refused' }) });
      const body = await waitForResult(t.app, a.auth, uid);
      [resultId, personId] = [body.results[0].id, body.results[0].persons[0].id];
    });
    const json = (res: request.Response) => JSON.parse((res.body as Buffer).toString('utf8'));

    it("answers another account's request, an unknown result and an unknown person 404, naming them", async () => {
      const foreign = await download(uid, { result_id: resultId, person_id: personId }, b);
      const missing = await download(
        'no-such-visit-0001',
        { result_id: resultId, person_id: personId },
        b,
      );
      expect([foreign.status, missing.status]).toEqual([404, 404]);
      expect(json(foreign)).toEqual({ detail: `Eligibility request ${uid} not found.` });
      expect(json(missing)).toEqual({
        detail: 'Eligibility request no-such-visit-0001 not found.',
      });
      const result = await download(uid, { result_id: resultId + 1000, person_id: personId });
      expect(result.status).toBe(404);
      expect(json(result)).toEqual({
        detail: `Result ${resultId + 1000} is not in eligibility request ${uid}.`,
      });
      const person = await download(uid, { result_id: resultId, person_id: personId + 1000 });
      expect(json(person)).toEqual({
        detail: `Person ${personId + 1000} is not in result ${resultId} of eligibility request ${uid}.`,
      });
    });

    it.each([
      [{ result_id: 'abc', person_id: 1 }, { result_id: { $: ['A valid integer is required.'] } }],
      [
        { result_id: 1, person_id: 0 },
        { person_id: { $: ['Ensure this value is greater than or equal to 1.'] } },
      ],
      [{ result_id: 1 }, { person_id: { $: ['This field is required.'] } }],
      [{ person_id: 1 }, { result_id: { $: ['This field is required.'] } }],
    ])('refuses malformed ids %j with field errors', async (query, errors) => {
      const res = await download(uid, query);
      expect(res.status).toBe(400);
      expect(json(res)).toEqual({ errors });
    });
  });

  it("the check page's Print button opens the person's snapshot; another account's is not found", async () => {
    const uid = await startSearch(t.app, a.auth, { patient: patient({ last_name: 'Printed' }) });
    const body = await waitForResult(t.app, a.auth, uid);
    const [result, person] = [body.results[0], body.results[0].persons[0]];
    const { agent } = await signIn(t.app, a.email, a.password);
    const page = await agent.get(`/app/eligibility/${uid}`).expect(200);
    const href = `/app/eligibility/${uid}/pdf?result_id=${result.id}&amp;person_id=${person.id}`;
    expect(page.text).toContain(`class="button secondary print-link" href="${href}"`);
    const pdf = await agent.get(href.replace('&amp;', '&')).buffer(true).parse(asBytes);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(flat((await pdfText(pdf.body as Buffer)).text)).toContain('Printed');
    const other = await signIn(t.app, b.email, b.password);
    await other.agent.get(href.replace('&amp;', '&')).expect(404);
    await agent.get(`/app/eligibility/${uid}/pdf?result_id=x&person_id=1`).expect(404);
  });
});
