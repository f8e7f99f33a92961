import request from 'supertest';
import { createTestApp, TestApp } from './support/app';
import { runCli } from './support/cli';
import { createAccount, TestAccount } from './support/factories';
import { type Agent, postForm, signIn } from './support/web-sign-in';

const VSP = 'insurer:vision:vsp';
const PORTAL_PASSWORD = 'portal-pw-never-in-the-trail';

interface TrailEvent {
  actor_type: string;
  actor: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
}

/** Changes to an account's security settings land in its audit trail, with who made them. */
describe('audit trail: settings changes by web users, API keys and the operator', () => {
  let t: TestApp;
  let a: TestAccount;
  let admin: Agent;

  beforeAll(async () => {
    t = await createTestApp();
    a = await createAccount(t.app, { iframeEnabled: true });
    admin = (await signIn(t.app, a.email, a.password)).agent;
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());
  /** The account's events of these kinds, oldest first, as the audit list answers them. */
  const trail = async (...types: string[]): Promise<TrailEvent[]> => {
    const events: TrailEvent[] = [];
    for (const type of types) {
      const res = await http()
        .get(`/api/auth/v1/audit-events/?resource_type=${type}&limit=100`)
        .set(a.auth);
      expect(res.status).toBe(200);
      events.push(...(res.body.result as TrailEvent[]).reverse());
    }
    return events.map(({ actor_type, actor, action, resource_type, resource_id }) => ({
      actor_type,
      actor,
      action,
      resource_type,
      resource_id,
    }));
  };
  const byUser = (resource_type: string, action: string, resource_id: string | null) => ({
    actor_type: 'user',
    actor: a.email,
    action,
    resource_type,
    resource_id,
  });

  it('records insurer passwords set and deleted, insurer and assisted switches, the two-factor requirement and embedding origins', async () => {
    const form = (page: string, action: string, fields: Record<string, string>) =>
      postForm(admin, page, action, fields);
    const ok = (res: { status: number }) => expect(res.status).toBe(302);
    ok(
      await form('/app/passwords/', '/app/passwords/', {
        insurer_code: VSP,
        username: 'drsmith',
        password: PORTAL_PASSWORD,
      }),
    );
    ok(await form('/app/passwords/', '/app/passwords/delete', { insurer_code: VSP }));
    ok(
      await form('/app/insurers/', '/app/insurers/toggle', { insurer_code: VSP, enabled: 'false' }),
    );
    ok(
      await form('/app/insurers/', '/app/insurers/toggle', { insurer_code: VSP, enabled: 'true' }),
    );
    const mode = '/app/insurers/eligibility-mode';
    ok(await form('/app/insurers/', mode, { insurer_code: VSP, mode: 'assisted' }));
    ok(await form('/app/insurers/', mode, { insurer_code: VSP, mode: '' }));
    // Refused (the admin has no two-factor of their own): nothing changed, nothing recorded.
    const refused = await form('/app/two-factor/', '/app/two-factor/requirement', {
      require_two_factor: 'true',
    });
    expect(refused.status).toBe(400);
    ok(await form('/app/two-factor/', '/app/two-factor/requirement', {}));
    ok(
      await form('/app/settings/', '/app/settings/', {
        frame_ancestors: 'https://pms.example.com',
      }),
    );

    const events = await trail(
      'insurer_credentials',
      'insurer',
      'assisted_insurer',
      'two_factor_requirement',
      'embedding',
    );
    expect(events).toEqual([
      byUser('insurer_credentials', 'change', VSP),
      byUser('insurer_credentials', 'delete', VSP),
      byUser('insurer', 'disable', VSP),
      byUser('insurer', 'enable', VSP),
      byUser('assisted_insurer', 'enable', VSP),
      byUser('assisted_insurer', 'disable', VSP),
      byUser('two_factor_requirement', 'disable', null),
      byUser('embedding', 'change', null),
    ]);
    expect(JSON.stringify(events)).not.toContain(PORTAL_PASSWORD);
  });

  it('records locations created and changed by an API key, a web user and the operator (CLI)', async () => {
    const created = await http()
      .post('/api/auth/v1/locations/')
      .set(a.auth)
      .send({ title: 'Northside' });
    expect(created.status).toBe(201);
    const code = created.body.code as string;
    await http()
      .patch(`/api/auth/v1/locations/${code}/`)
      .set(a.auth)
      .send({ npi: '1234567893' })
      .expect(200);
    const web = await postForm(admin, '/app/locations/', `/app/locations/${code}`, {
      title: 'Northside Optical',
    });
    expect(web.status).toBe(302);
    const cli = await runCli([
      'locations:update',
      '--code',
      code,
      '--json',
      JSON.stringify({ tax_id: '741234567' }),
    ]);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);

    const prefix = a.apiKey.slice(0, 10);
    expect(await trail('location')).toEqual([
      {
        actor_type: 'api_key',
        actor: prefix,
        action: 'create',
        resource_type: 'location',
        resource_id: code,
      },
      {
        actor_type: 'api_key',
        actor: prefix,
        action: 'update',
        resource_type: 'location',
        resource_id: code,
      },
      byUser('location', 'update', code),
      {
        actor_type: 'operator',
        actor: 'cli',
        action: 'update',
        resource_type: 'location',
        resource_id: code,
      },
    ]);
  });

  it('records API keys created and revoked at the command line as the operator', async () => {
    const created = await runCli(['api-keys:create', '--email', a.email, '--name', 'Ops key']);
    expect(created.code).toBe(0);
    const { prefix, api_key: key } = JSON.parse(created.stdout.trim());
    const revoked = await runCli(['api-keys:revoke', '--key', key]);
    expect(revoked.code).toBe(0);
    const operator = (action: string) => ({
      actor_type: 'operator',
      actor: 'cli',
      action,
      resource_type: 'api_key',
      resource_id: prefix,
    });
    expect(await trail('api_key')).toEqual([operator('create'), operator('revoke')]);
    const list = await http().get('/api/auth/v1/audit-events/?resource_type=api_key').set(a.auth);
    expect(JSON.stringify(list.body)).not.toContain(key);
  });
});
