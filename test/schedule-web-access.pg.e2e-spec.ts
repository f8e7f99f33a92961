import request from 'supertest';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { EMBED_SCOPES } from '@/modules/auth/domain/scopes';
import { todayIso } from '@/platform/kernel/time';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { type Agent, csrfOf } from './support/web-sign-in';

const DAY = todayIso(10);

/**
 * Who reaches the Schedule page (docs/api.md, Appointments and Embedded sessions): admins and
 * staff (the page spec signs staff in), and embedded sessions opened at `schedule`, which land on
 * it without the navigation; signed-out visitors and embedded sessions of another entry point
 * are refused as on every other page.
 */
describe('the Schedule page: who reaches it', () => {
  let t: TestApp;
  let db: DataSource;
  let a: TestAccount;

  const http = () => request(t.app.getHttpServer());
  const mint = (key: string, entryPoint: string) =>
    http()
      .post('/api/auth/v1/iframe-session/')
      .set({ Authorization: `Api ${key}` })
      .send({ entry_point: entryPoint });
  /** A browser that opened an embedded-session link at `entryPoint`. */
  async function embedded(entryPoint: string): Promise<{ agent: Agent; landing: string }> {
    const res = await mint(a.apiKey, entryPoint).expect(200);
    const url = new URL(res.body.iframe_url as string);
    const agent = request.agent(t.app.getHttpServer());
    const landing = await agent.get(`${url.pathname}${url.search}`).expect(302);
    return { agent, landing: landing.headers.location };
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    db = t.app.get(DataSource);
    a = await createAccount(t.app, { iframeEnabled: true });
    // Checked only when asked, so a refused "Check now" shows as nothing started.
    await http()
      .put('/api/auth/v1/appointment-policy/')
      .set(a.auth)
      .send({
        on_booking: false,
        days_before: [3],
        hours_before: [24],
        freshness_hours: 48,
        statuses: ['booked', 'arrived'],
      })
      .expect(200);
    await http()
      .put('/api/auth/v1/appointments/E-1/')
      .set(a.auth)
      .send({
        starts_at: `${DAY}T15:00:00Z`,
        status: 'booked',
        patient: { first_name: 'Eve', last_name: 'Frame', dob: '1990-04-05', zipcode: '78701' },
        insurer_code: 'insurer:demo:vision',
      })
      .expect(201);
  }, 60_000);
  afterAll(() => t?.close());

  it('sends a signed-out visitor to sign in, and refuses a signed-out form', async () => {
    const res = await http().get(`/app/schedule/?date=${DAY}`).expect(302);
    expect(res.headers.location).toBe(
      `/app/login?next=${encodeURIComponent(`/app/schedule/?date=${DAY}`)}`,
    );
    const post = await http().post('/app/schedule/check').type('form').send({ external_id: 'E-1' });
    expect(post.status).toBe(403);
  });

  it('refuses an embedded session of another entry point (403), page and forms', async () => {
    const { agent } = await embedded('add_patient');
    const csrf = csrfOf((await agent.get('/app/patients/new').expect(200)).text);
    const page = await agent.get(`/app/schedule/?date=${DAY}`);
    expect(page.status).toBe(403);
    expect(page.text).toContain('not available in an embedded session');
    expect(page.text).not.toContain('Eve');
    const check = await agent
      .post('/app/schedule/check')
      .type('form')
      .send({ _csrf: csrf, external_id: 'E-1' });
    expect(check.status).toBe(403);
    const [{ coverage_state }] = await db.query(
      `SELECT coverage_state FROM appointments WHERE account_id = $1 AND external_id = 'E-1'`,
      [a.accountId],
    );
    expect(coverage_state).toBe('not_checked');
  });

  it('mints a schedule link only with appointments:write as well as the embedding scopes', async () => {
    const { key } = await t.app
      .get(ApiKeysService)
      .create(a.accountId, 'embedding only', [...EMBED_SCOPES]);
    const refused = await mint(key, 'schedule');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      detail: 'This API key is not allowed to open embedded sessions.',
    });
    await mint(key, 'add_patient').expect(200);
    const { key: withAppointments } = await t.app
      .get(ApiKeysService)
      .create(a.accountId, 'embedding the schedule', [...EMBED_SCOPES, 'appointments:write']);
    await mint(withAppointments, 'schedule').expect(200);
    const bad = await mint(a.apiKey, 'calendar').expect(400);
    expect(bad.body.errors.entry_point.$[0]).toContain('is not a valid choice');
  });

  it('lands an embedded session opened at schedule on the page, without navigation, reaching only it', async () => {
    const { agent, landing } = await embedded('schedule');
    expect(landing).toBe('/app/schedule/');
    const today = await agent.get(landing).expect(200);
    expect(today.text).toContain('<main class="embedded">');
    expect(today.text).not.toContain('<header class="top">');
    const page = await agent.get(`/app/schedule/?date=${DAY}`).expect(200);
    expect(page.text).toContain('<tr data-appointment="E-1">');
    // Pages of other entry points are not linked, and stay closed.
    expect(page.text).not.toMatch(/href="\/app\/(patients|eligibility)\//);
    for (const path of ['/app/', '/app/patients/new', '/app/patients/', '/app/api-keys/'])
      expect({ path, status: (await agent.get(path)).status }).toEqual({ path, status: 403 });

    const checked = await agent
      .post('/app/schedule/check')
      .type('form')
      .send({ _csrf: csrfOf(page.text), external_id: 'E-1', date: DAY });
    expect(checked.status).toBe(302);
    const after = await agent.get(checked.headers.location).expect(200);
    expect(after.text).toContain('<span class="badge coverage-checking">Checking</span>');
    const events = await db.query(
      `SELECT actor_type, action, resource_id FROM audit_events
        WHERE account_id = $1 AND resource_type = 'appointment' AND actor_type = 'embedded'
        ORDER BY created_at`,
      [a.accountId],
    );
    expect(events).toContainEqual({ actor_type: 'embedded', action: 'list', resource_id: null });
    expect(events).toContainEqual({ actor_type: 'embedded', action: 'update', resource_id: 'E-1' });
  });
});
