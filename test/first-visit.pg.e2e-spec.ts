import { freePort } from './support/app';
import { startBuiltService, type BuiltService } from './support/built-service';

/**
 * README.md, Quick start: a newcomer's first visit on a machine with only Node.js: the built service as
 * `npm start` runs it, without Redis (nothing answers at REDIS_URL); sign in to the web app with
 * the banner's login, run a check from its page and see the answer. (.ci/run runs `npm test` in a
 * network namespace where nothing listens, so there it is on the embedded PostgreSQL too.)
 */
class Browser {
  private cookie = '';
  constructor(private readonly base: string) {}

  async go(path: string, form?: Record<string, string>): Promise<Response> {
    const res = await fetch(`${this.base}${path}`, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: this.cookie,
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('vision.sid='));
    if (set) this.cookie = set.split(';')[0];
    return res;
  }

  async page(path: string): Promise<{ html: string; csrf: string }> {
    const res = await this.go(path);
    expect(res.status).toBe(200);
    const html = await res.text();
    return { html, csrf: /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '' };
  }
}

describe('first visit on PostgreSQL alone', () => {
  let service: BuiltService;
  beforeAll(async () => {
    service = await startBuiltService({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
  }, 180_000);
  afterAll(() => service?.stop());

  it("signs in with the banner's login and runs a check from the web page", async () => {
    expect(service.output()).toContain('running on PostgreSQL alone');
    const [, email, password] = /Web login: +(\S+) \/ (\S+)/.exec(service.output()) ?? [];
    expect(email).toBeTruthy();
    const browser = new Browser(service.base);
    const login = await browser.page('/app/login');
    const signIn = await browser.go('/app/login', { _csrf: login.csrf, email, password });
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get('location')).toMatch(/\/app\/$/);
    const form = await browser.page('/app/eligibility/new');
    const sent = await browser.go('/app/eligibility/new', {
      _csrf: form.csrf,
      insurer_code: 'insurer:demo:vision',
      first_name: 'Maria',
      last_name: 'Garcia',
      dob: '1984-06-15',
      zipcode: '78701',
    });
    expect(sent.status).toBe(302);
    const result = sent.headers.get('location') ?? '';
    expect(result).toMatch(/\/app\/eligibility\/[0-9a-f]{32}$/);
    const deadline = Date.now() + 20_000;
    let html = '';
    while (!/badge complete/.test(html) && Date.now() < deadline) {
      html = (await browser.page(new URL(result, service.base).pathname)).html;
      if (!/badge complete/.test(html)) await new Promise((r) => setTimeout(r, 250));
    }
    expect(html).toMatch(/badge complete/);
    expect(html).toContain('Maria');
  }, 60_000);
});
