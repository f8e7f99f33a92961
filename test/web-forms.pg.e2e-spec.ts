import request from 'supertest';
import { DataSource } from 'typeorm';
import { WEBHOOK_EVENT_TYPES } from '@/platform/http/api-document';
import { WEBHOOK_TOPICS } from '@/modules/webhooks';
import { topicOfEvent } from '@/modules/webhooks/domain/webhook-scopes';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

type Agent = ReturnType<typeof request.agent>;

/**
 * A refused web form is shown again (400) with its field errors, and those are the API's own
 * messages for the same input: the forms run the API's request DTOs and services.
 */
describe('web forms refused with the API messages', () => {
  let t: TestApp;
  let a: TestAccount;
  let web: Agent;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app, { iframeEnabled: true });
    web = await signIn(a);
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

  /** Posts a form the way a browser does: from its page, with the page's CSRF token. */
  async function postForm(page: string, action: string, fields: Record<string, string>) {
    const shown = await web.get(page).expect(200);
    return web
      .post(action)
      .type('form')
      .send({ _csrf: csrfOf(shown.text), ...fields });
  }

  const api = () => request(t.app.getHttpServer());

  it('lists every event type under its topic on the webhook pages (the one list of them)', async () => {
    const boxes = (html: string) =>
      [
        ...html.matchAll(/value="(\w+)"[^>]*> [^<]*<span class="muted event-types">(.*?)<\/span>/g),
      ].map(([, topic, events]) => [
        topic,
        [...events.matchAll(/<code>([^<]+)<\/code>/g)].map((m) => m[1]),
      ]);
    const expected = WEBHOOK_TOPICS.map((topic) => [
      topic,
      WEBHOOK_EVENT_TYPES.filter((type) => topicOfEvent(type) === topic),
    ]);
    const list = await web.get('/app/webhooks/').expect(200);
    expect(boxes(list.text)).toEqual(expected);
    expect(boxes(list.text).flatMap(([, events]) => events)).toEqual(
      expect.arrayContaining([...WEBHOOK_EVENT_TYPES]),
    );
    expect(boxes(list.text).flatMap(([, events]) => events)).toHaveLength(
      WEBHOOK_EVENT_TYPES.length,
    );
    const created = await api()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: 'http://127.0.0.1:9/topics' })
      .expect(201);
    const edit = await web.get(`/app/webhooks/${created.body.id}`).expect(200);
    expect(boxes(edit.text)).toEqual(expected);
  });

  it('shows the API message for a webhook URL the API refuses, and keeps what was typed', async () => {
    const url = 'ftp://pms.example.com/hook';
    const webhooks = async () =>
      (
        await t.app
          .get(DataSource)
          .query('SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1', [a.accountId])
      )[0].n as number;
    // The test before saves one to edit it: none more is stored by this one.
    const before = await webhooks();
    const fromApi = await api().post('/api/auth/v1/webhooks/').set(a.auth).send({ url });
    expect(fromApi.status).toBe(400);

    const page = await postForm('/app/webhooks/', '/app/webhooks/', {
      url,
      description: 'Typed <b>here</b>',
      version: 'v1',
    });
    expect(page.status).toBe(400);
    expect(fieldErrors(page.text)).toEqual(fromApi.body.errors.url.$);
    expect(fieldErrors(page.text)).toEqual(['Only http and https URLs are allowed.']);
    expect(page.text).toContain(`value="${url}"`);
    expect(page.text).toContain('value="Typed &lt;b&gt;here&lt;/b&gt;"');
    expect(page.text).toMatch(/<option value="v1" selected>/);
    expect(await webhooks()).toBe(before);
  });

  it('shows the DTO messages of every refused webhook field at once', async () => {
    const body = { url: 'not a url', description: 'x'.repeat(501) };
    const fromApi = await api().post('/api/auth/v1/webhooks/').set(a.auth).send(body);
    expect(fromApi.status).toBe(400);
    const page = await postForm('/app/webhooks/', '/app/webhooks/', { ...body, version: 'v2' });
    expect(page.status).toBe(400);
    expect(fieldErrors(page.text)).toEqual([
      ...(fromApi.body.errors.url?.$ ?? []),
      ...fromApi.body.errors.description.$,
    ]);
    expect(fieldErrors(page.text)).toContain('Ensure this field has no more than 500 characters.');
  });

  it('refuses a cleared URL on the webhook edit form as a PATCH with "" is refused', async () => {
    const created = await api()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: 'http://127.0.0.1:9/hook', description: 'before' });
    const id = created.body.id as string;
    const fromApi = await api().patch(`/api/auth/v1/webhooks/${id}/`).set(a.auth).send({ url: '' });
    expect(fromApi.status).toBe(400);

    const page = await postForm(`/app/webhooks/${id}`, `/app/webhooks/${id}`, {
      url: '  ',
      description: 'after',
      version: 'v2',
      is_active: 'true',
    });
    expect(page.status).toBe(400);
    expect(fieldErrors(page.text)).toEqual(fromApi.body.errors.url.$);
    expect(fieldErrors(page.text)).toEqual(['This field may not be blank.']);
    const stored = await api().get(`/api/auth/v1/webhooks/${id}/`).set(a.auth);
    expect(stored.body).toMatchObject({ url: 'http://127.0.0.1:9/hook', description: 'before' });

    // The same form with a URL saves, and an emptied description is saved as empty.
    const saved = await postForm(`/app/webhooks/${id}`, `/app/webhooks/${id}`, {
      url: 'http://127.0.0.1:9/other',
      description: '',
      version: 'v1',
    });
    expect(saved.status).toBe(302);
    const after = await api().get(`/api/auth/v1/webhooks/${id}/`).set(a.auth);
    expect(after.body).toMatchObject({
      url: 'http://127.0.0.1:9/other',
      description: '',
      version: 'v1',
      is_active: false,
    });
  });

  it('keeps every topic of a webhook through the web edit form, as a browser submits it', async () => {
    const all = ['eligibility', 'claim', 'batch', 'remittance', 'verification'];
    const created = await api()
      .post('/api/auth/v1/webhooks/')
      .set(a.auth)
      .send({ url: 'http://127.0.0.1:9/all', events: all });
    expect(created.status).toBe(201);
    expect(created.body.events).toEqual(all);
    const id = created.body.id as string;

    const shown = await web.get(`/app/webhooks/${id}`).expect(200);
    const boxes = [
      ...shown.text.matchAll(/<input type="checkbox" name="events" value="([a-z]+)"( checked)?>/g),
    ];
    expect(boxes.map((m) => m[1])).toEqual(all);
    const checked = boxes.filter((m) => m[2]).map((m) => m[1]);
    expect(checked).toEqual(all);

    // The form as a browser sends it: every checked box, the description changed.
    const form = new URLSearchParams({ _csrf: csrfOf(shown.text), url: 'http://127.0.0.1:9/all' });
    form.append('description', 'edited');
    form.append('version', 'v2');
    form.append('is_active', 'true');
    for (const topic of checked) form.append('events', topic);
    const saved = await web.post(`/app/webhooks/${id}`).type('form').send(form.toString());
    expect(saved.status).toBe(302);
    const after = await api().get(`/api/auth/v1/webhooks/${id}/`).set(a.auth);
    expect(after.body).toMatchObject({ description: 'edited', events: all });
  });

  it('shows the API messages for a location title that is too long or unstorable', async () => {
    for (const title of ['L'.repeat(201), 'Uptown\u0000office']) {
      const fromApi = await api().post('/api/auth/v1/locations/').set(a.auth).send({ title });
      expect(fromApi.status).toBe(400);
      const page = await postForm('/app/locations/', '/app/locations/', { title });
      expect(page.status).toBe(400);
      expect(fieldErrors(page.text)).toEqual(fromApi.body.errors.title.$);
    }
    const page = await postForm('/app/locations/', '/app/locations/', { title: '   ' });
    expect(page.status).toBe(400);
    expect(fieldErrors(page.text)).toEqual(['This field is required.']);
    const locations = await api().get('/api/auth/v1/locations/').set(a.auth);
    expect(locations.body.result).toHaveLength(1);
  });

  it('shows the field errors of an API key name, and creates the key once it is right', async () => {
    const long = await postForm('/app/api-keys/', '/app/api-keys/', {
      name: 'k'.repeat(101),
      scopes: 'patients:read',
    });
    expect(long.status).toBe(400);
    expect(fieldErrors(long.text)).toEqual(['Ensure this field has no more than 100 characters.']);
    expect(long.text).not.toContain('id="new-key"');
    const ok = await postForm('/app/api-keys/', '/app/api-keys/', {
      name: '  Front desk  ',
      scopes: 'patients:read',
    });
    expect(ok.status).toBe(201); // the page of the new key (Nest's POST status, as before)
    expect(ok.text).toMatch(/id="new-key">vk_/);
    expect(ok.text).toContain('<td>Front desk</td>');
  });

  it('shows the API message for linking an unknown request to a patient', async () => {
    const patient = await api()
      .post('/api/auth/v1/patients/')
      .set(a.auth)
      .send({ first_name: 'Ada', last_name: 'Link', dob: '1980-01-02' });
    const code = patient.body.code as string;
    const fromApi = await api()
      .post(`/api/auth/v1/patients/${code}/eligibility/`)
      .set(a.auth)
      .send({ request_uid: 'no-such-request' });
    expect(fromApi.status).toBe(400);
    const page = await postForm(`/app/patients/${code}/`, `/app/patients/${code}/link`, {
      request_uid: ' no-such-request ',
    });
    expect(page.status).toBe(400);
    expect(fieldErrors(page.text)).toEqual(fromApi.body.errors.request_uid.$);
    expect(fieldErrors(page.text)).toEqual(['Eligibility request no-such-request not found.']);
  });

  it('shows the API messages of a refused eligibility check, nested under the patient', async () => {
    const patient = { first_name: 'Ann', last_name: 'Lee', dob: '1984-13-40', zipcode: '7870' };
    const fromApi = await api()
      .post('/api/auth/v1/eligibility/')
      .set(a.auth)
      .send({ insurer_code: 'insurer:demo:vision', patient });
    expect(fromApi.status).toBe(400);
    const page = await postForm('/app/eligibility/new', '/app/eligibility/new', {
      insurer_code: 'insurer:demo:vision',
      ...patient,
    });
    expect(page.status).toBe(400);
    expect(fieldErrors(page.text)).toEqual([
      ...fromApi.body.errors.patient.dob.$,
      ...fromApi.body.errors.patient.zipcode.$,
    ]);
  });

  it('shows the API messages of a refused patient, and the similar-patient warning', async () => {
    const body = { first_name: 'Eve', last_name: 'Stone', dob: '1990-05-06', email: 'eve@' };
    const fromApi = await api().post('/api/auth/v1/patients/').set(a.auth).send(body);
    expect(fromApi.status).toBe(400);
    const page = await postForm('/app/patients/new', '/app/patients/new', body);
    expect(page.status).toBe(400);
    expect(fieldErrors(page.text)).toEqual(fromApi.body.errors.email.$);

    const valid = { ...body, email: 'eve@example.com' };
    const first = await api().post('/api/auth/v1/patients/').set(a.auth).send(valid);
    expect(first.body.code).toMatch(/^PAT/);
    const similar = await api().post('/api/auth/v1/patients/').set(a.auth).send(valid);
    expect(similar.status).toBe(400);
    const again = await postForm('/app/patients/new', '/app/patients/new', valid);
    expect(again.status).toBe(400);
    expect(requestErrors(again.text)).toBe(similar.body.errors.$.join(' '));
    expect(again.text).toContain('name="force_similar"');
  });

  it('shows each refused framing origin by line, and saves a valid list', async () => {
    const page = await postForm('/app/settings/', '/app/settings/', {
      frame_ancestors: 'https://pms.example.com\r\n\r\nhttps://pms.example.com/path\nnot-an-origin',
    });
    expect(page.status).toBe(400);
    expect(fieldErrors(page.text)).toEqual([
      'https://pms.example.com/path: Not an origin (use scheme://host[:port]).',
      'not-an-origin: Not an origin (use scheme://host[:port]).',
    ]);
    // What was typed is shown again (blank lines dropped), nothing is saved.
    expect(page.text).toContain(
      'https://pms.example.com\nhttps://pms.example.com/path\nnot-an-origin</textarea>',
    );
    const many = Array.from({ length: 21 }, (_, i) => `https://h${i}.example.com`).join('\n');
    const tooMany = await postForm('/app/settings/', '/app/settings/', { frame_ancestors: many });
    expect(tooMany.status).toBe(400);
    expect(fieldErrors(tooMany.text)).toEqual(['Ensure this field has no more than 20 elements.']);
    const [before] = await t.app
      .get(DataSource)
      .query('SELECT frame_ancestors FROM accounts WHERE id = $1', [a.accountId]);
    // Unchanged: the origin the account was created with (test/support/factories.ts).
    expect(before.frame_ancestors).toEqual(['https://pms.example.test']);

    const saved = await postForm('/app/settings/', '/app/settings/', {
      frame_ancestors: 'https://pms.example.com\nhttp://localhost:8080',
    });
    expect(saved.status).toBe(302);
    const [after] = await t.app
      .get(DataSource)
      .query('SELECT frame_ancestors FROM accounts WHERE id = $1', [a.accountId]);
    expect(after.frame_ancestors).toEqual(['https://pms.example.com', 'http://localhost:8080']);
  });

  it('keeps a refused form usable: its page carries a working CSRF token', async () => {
    const refused = await postForm('/app/locations/', '/app/locations/', {
      title: 'L'.repeat(201),
    });
    expect(refused.status).toBe(400);
    const res = await web
      .post('/app/locations/')
      .type('form')
      .send({ _csrf: csrfOf(refused.text), title: 'Second try' });
    expect(res.status).toBe(302);
    const list = await web.get('/app/locations/');
    expect(list.text).toContain('Second try');
  });
});

function csrfOf(html: string): string {
  return /name="_csrf" value="([^"]+)"/.exec(html)![1];
}

function unescapeHtml(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The field errors a page shows, in page order, as text. */
function fieldErrors(html: string): string[] {
  return [...html.matchAll(/<div class="field-error">([^<]*)<\/div>/g)].map((m) =>
    unescapeHtml(m[1]),
  );
}

/** The whole-request errors a page shows (the alert above the form). */
function requestErrors(html: string): string {
  const m = /<div class="flash error" role="alert">([^<]*)<\/div>/.exec(html);
  return m ? unescapeHtml(m[1]).trim() : '';
}
