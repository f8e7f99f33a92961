import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { patient, startSearch, waitForResult } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { pdfText } from './support/pdf-text';
import { waitUntil } from './support/queues';
import { todayIso } from '@/platform/kernel/time';
import { type Agent, postForm, signIn } from './support/web-sign-in';

/**
 * docs/api.md, The counter, on the web: a check's person's Counter page prices an order from the
 * plan's price list with the API's rule, says why a field is refused, and prints a stored quote.
 */
describe('the web Counter (docs/api.md, The counter)', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let web: Agent;
  let other: Agent;
  let uid: string;
  let personId: number;
  let framesAllowance: string;
  const http = () => request(t.app.getHttpServer());
  const page = (u = uid, p = personId) => `/app/eligibility/${u}/persons/${p}/counter`;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app);
    b = await createAccount(t.app);
    web = (await signIn(t.app, a.email, a.password)).agent;
    other = (await signIn(t.app, b.email, b.password)).agent;
    uid = await startSearch(t.app, a.auth, {
      patient: patient({ first_name: 'Cora', last_name: 'Counter', dob: '1980-05-05' }),
    });
    const answer = await waitForResult(t.app, a.auth, uid);
    personId = answer.results[0].persons[0].id;
    framesAllowance = answer.results[0].persons[0].plan.materials.frame.allowance;
  });
  afterAll(() => t.close());

  it('the check page links to the Counter; the Counter prices the order line by line', async () => {
    const check = await web.get(`/app/eligibility/${uid}`).expect(200);
    expect(check.text).toContain(`href="${page()}"`);
    const shown = await web.get(page()).expect(200);
    expect(shown.text).toContain('id="counter-form"');
    expect(shown.text).not.toContain('id="no-price-list"');

    const priced = await postForm(web, page(), page(), {
      frame_retail: '$250.00',
      lens_type: 'progressive_premium',
      lens_tier: '2',
      lens_retail: '320',
      opt_anti_reflective_standard: 'on',
      opt_anti_reflective_standard_retail: '95',
    });
    expect(priced.status).toBe(200);
    // The frame: the allowance, then 20 % off what is over it.
    const over = 250 - Number(framesAllowance);
    const frame = (over * 0.8).toFixed(2);
    expect(priced.text).toMatch(
      new RegExp(`<td>frame</td>.*?\\$${frame.replace('.', '\\.')}</td>`, 's'),
    );
    expect(priced.text).toMatch(/<td>lenses<\/td>.*?\$110\.00<\/td>/s);
    expect(priced.text).toMatch(/<td>anti reflective standard<\/td>.*?\$41\.00<\/td>/s);
    const total = (Number(frame) + 110 + 41).toFixed(2);
    expect(priced.text).toMatch(new RegExp(`id="total-pays">\\$${total.replace('.', '\\.')}<`));
    expect(priced.text).toContain('An estimate, not a guarantee of payment.');
    // The totals are a read: no quote is stored until Print.
    const events = await http().get('/api/auth/v1/audit-events/').set(a.auth);
    expect(events.body.result.some((e: any) => e.resource_type === 'quote')).toBe(false);
  });

  it('a refused field says why by its field and keeps what was typed', async () => {
    const refused = await postForm(web, page(), page(), {
      frame_retail: 'lots',
      lens_type: 'progressive_premium',
      lens_tier: '7',
      lens_retail: '320',
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(
      /id="frame_retail"[^>]*value="lots"[^>]*>\s*<div class="field-error">A valid number is required\.<\/div>/,
    );
    expect(refused.text).toContain('id="lens_tier"');
  });

  it('Print stores the quote, an audit event, and opens its one-page PDF', async () => {
    const printed = await postForm(web, page(), `${page()}/print`, {
      frame_retail: '250',
      contacts_kind: 'elective',
      contacts_retail: '180',
    });
    expect(printed.status).toBe(303);
    const id = printed.headers.location.split('/').pop()!;
    expect(printed.headers.location).toBe(`/app/quotes/${id}`);
    const pdf = await web
      .get(`/app/quotes/${id}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const { text, pages } = await pdfText(pdf.body as Buffer);
    expect(pages).toBe(1);
    expect(text).toContain('Cora');
    // The API answers the same stored quote.
    const api = await http().get(`/api/auth/v1/quotes/${id}/`).set(a.auth).expect(200);
    expect(api.body.lines.map((l: any) => l.item).sort()).toEqual(['contact_lenses', 'frame']);
    const events = await http().get('/api/auth/v1/audit-events/').set(a.auth);
    const kinds = events.body.result
      .filter((e: any) => e.resource_type === 'quote' && e.resource_id === id)
      .map((e: any) => e.action)
      .sort();
    // Made on the page, read as its PDF and through the API.
    expect(kinds).toEqual(['create', 'read', 'read']);
    // Another account's quote and person are missing pages.
    expect((await other.get(`/app/quotes/${id}`)).status).toBe(404);
    expect((await other.get(page())).status).toBe(404);
  });

  it("the Schedule row opens the Counter of its patient's person; no answer, no Counter", async () => {
    const api = '/api/auth/v1/appointments/';
    const visit = {
      starts_at: `${todayIso(2)}T15:00:00Z`,
      status: 'booked',
      insurer_code: 'insurer:demo:vision',
      patient: { first_name: 'Cora', last_name: 'Counter', dob: '1980-05-05', zipcode: '78701' },
    };
    await http().put(`${api}C-1/`).set(a.auth).send(visit).expect(201);
    await http().post(`${api}C-1/check/`).set(a.auth).expect(202);
    const checked = await waitUntil('the check of C-1', async () => {
      const res = await http().get(`${api}C-1/`).set(a.auth);
      return res.body.coverage.state === 'active' ? res.body : undefined;
    });
    const day = await web.get(`/app/schedule/?date=${todayIso(2)}`).expect(200);
    const link = '/app/schedule/counter?external_id=C-1';
    expect(day.text).toContain(`href="${link}"`);
    const opened = await web.get(link).expect(303);
    const counter = opened.headers.location;
    expect(counter).toMatch(
      new RegExp(`^/app/eligibility/${checked.coverage.request_uid}/persons/\\d+/counter$`),
    );
    expect((await web.get(counter).expect(200)).text).toContain('id="counter-form"');

    // Never checked (checks only when asked): no link, and the address answers 404; another
    // account's too.
    await http()
      .put('/api/auth/v1/appointment-policy/')
      .set(a.auth)
      .send({
        on_booking: false,
        days_before: [],
        hours_before: [1],
        freshness_hours: 48,
        statuses: ['booked', 'arrived'],
      })
      .expect(200);
    await http().put(`${api}C-2/`).set(a.auth).send(visit).expect(201);
    const unchecked = await waitUntil('C-2 listed', async () => {
      const res = await web.get(`/app/schedule/?date=${todayIso(2)}`);
      return res.text.includes('data-appointment="C-2"') ? res.text : undefined;
    });
    expect(unchecked).not.toContain('external_id=C-2"');
    await web.get('/app/schedule/counter?external_id=C-2').expect(404);
    await other.get(link).expect(404);
    await web.get('/app/schedule/counter?external_id=').expect(404);
  });

  it('a plan without a price list says so and prices nothing', async () => {
    const plain = await startSearch(t.app, a.auth, {
      patient: patient({ first_name: 'Nora', last_name: 'no_materials', dob: '1975-03-03' }),
    });
    const answer = await waitForResult(t.app, a.auth, plain);
    const id = answer.results[0].persons[0].id;
    expect((await web.get(page(plain, id))).text).toContain('id="no-price-list"');
    const priced = await postForm(web, page(plain, id), page(plain, id), { frame_retail: '200' });
    expect(priced.status).toBe(200);
    expect(priced.text).toMatch(/id="not-estimable"[^]*frame \(\$200\.00\)/);
    expect(priced.text).toContain('id="total-pays">$0.00<');
  });
});
