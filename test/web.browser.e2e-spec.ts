import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AccountsService } from '@/modules/accounts/domain/accounts.service';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { createAccount, TestAccount } from './support/factories';
import { TestReceiver } from './support/receiver';
import { MSG } from '@/platform/kernel/messages';
import { ENTRY_POINTS } from '@/modules/iframe-session/domain/iframe-session.service';

describe('provider web application (real browser)', () => {
  let t: TestApp;
  let a: TestAccount;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const receiver = new TestReceiver();

  beforeAll(async () => {
    await receiver.start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      listen: port,
      env: { PORT: String(port), PUBLIC_URL: base, WEBHOOK_RETRY_SCHEDULE: '0.2,0.2' },
    });
    a = await createAccount(t.app, { iframeEnabled: true });
    browser = await launchBrowser();
    context = await browser.newContext();
    page = await context.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver.stop();
  });

  async function signIn(p: Page, email: string, password: string) {
    await p.goto(`${base}/app/login`);
    await p.fill('#email', email);
    await p.fill('#password', password);
    await p.click('button[type=submit]');
  }

  it('refuses a wrong password, then signs in', async () => {
    await signIn(page, a.email, 'not-the-password');
    await expect(page.locator('.flash.error').textContent()).resolves.toContain(
      'The e-mail or password is not right.',
    );
    expect(page.url()).toContain('/app/login');
    await screenshot(page, 'login-refused');

    await signIn(page, a.email, a.password);
    await page.waitForURL(`${base}/app/`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Recent eligibility checks');
    await expect(page.locator('header.top .who').textContent()).resolves.toContain(a.email);
    const cookies = await context.cookies();
    const sid = cookies.find((c) => c.name === 'vision.sid')!;
    expect(sid.httpOnly).toBe(true);
    await screenshot(page, 'dashboard');
  });

  it('creates an API key in the page that works against the API', async () => {
    await page.goto(`${base}/app/api-keys/`);
    await page.fill('#name', 'Browser key');
    await page.click('form[action="/app/api-keys/"] button[type=submit]');
    const key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^vk_/);
    await screenshot(page, 'api-keys');
    const res = await request(t.app.getHttpServer())
      .get('/api/auth/v1/locations/')
      .set('Authorization', `Api ${key}`);
    expect(res.status).toBe(200);
    expect(res.body.result[0].code).toBe(a.locationCode);
    // Shown once: the list shows only the prefix.
    await page.goto(`${base}/app/api-keys/`);
    expect(await page.content()).not.toContain(key);
  });

  it('runs a sandbox check and shows the plan as a benefit table with in- and out-of-network columns', async () => {
    await page.goto(`${base}/app/eligibility/new`);
    await page.selectOption('#insurer_code', 'insurer:demo:vision');
    await page.fill('#first_name', 'Maria');
    await page.fill('#last_name', 'Garcia dt_exam_used');
    await page.fill('#dob', '1984-06-15');
    await page.fill('#zipcode', '78701');
    await page.click('main form button[type=submit]');
    await page.waitForURL(/\/app\/eligibility\/[0-9a-f]{32}$/);
    const uid = page.url().split('/').pop()!;
    await page.waitForSelector('#status .badge.complete', { timeout: 15_000 });
    await screenshot(page, 'eligibility-result');

    const api = await request(t.app.getHttpServer())
      .get(`/api/auth/v2/eligibility/${uid}/`)
      .set(a.auth);
    const frames = api.body.results[0].persons[0].plan.items
      .find((i: any) => i.benefit_code === 'materials')
      .items.find((i: any) => i.benefit_code === 'materials.frames');
    const innAllowance = frames.allowance.find((e: any) => e.flags?.includes('inn'))
      .value as string;
    const oonAllowance = frames.allowance.find((e: any) => e.flags?.includes('oon'))
      .value as string;
    const row = page.locator('tr[data-benefit="materials.frames"]');
    const cells = await row.locator('td').allTextContents();
    // Benefit | INN copay, allowance, coinsurance, qty | OON copay, allowance, coinsurance, qty
    expect(cells[2].trim()).toBe(`$${innAllowance.slice(0, -2)}`);
    expect(cells[6].trim()).toBe(`$${oonAllowance.slice(0, -2)}`);
    // Nested items are indented; the used exam is marked.
    await expect(
      page.locator('tr[data-benefit="materials.frames"] td.code').getAttribute('class'),
    ).resolves.toContain('d1');
    await expect(page.locator('tr[data-benefit="exam"]').getAttribute('class')).resolves.toContain(
      'used',
    );
    await expect(
      page.locator('tr[data-benefit="materials.frames"]').getAttribute('class'),
    ).resolves.not.toContain('used');
    await page.goto(`${base}/app/`);
    await expect(page.locator('table').textContent()).resolves.toContain(uid);
  });

  it('adds a webhook and shows its delivery after a sandbox check', async () => {
    await page.goto(`${base}/app/webhooks/`);
    await page.fill('#url', receiver.url('/browser'));
    await page.fill('#description', 'From the browser');
    await page.click('form[action="/app/webhooks/"] button[type=submit]');
    const secret = (await page.locator('#new-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    const webhookUrl = page.url();
    const webhookPath = (await page
      .locator('form[action^="/app/webhooks/"][action$="/rotate"]')
      .getAttribute('action'))!.replace('/rotate', '');

    const check = await request(t.app.getHttpServer())
      .post('/api/auth/v1/eligibility/')
      .set(a.auth)
      .send({
        insurer_code: 'insurer:demo:vision',
        patient: { first_name: 'Hook', last_name: 'Test', dob: '1990-01-01', zipcode: '10001' },
      });
    await receiver.waitFor('/browser', 1);
    const deadline = Date.now() + 10_000;
    for (;;) {
      await page.goto(`${base}${webhookPath}`);
      const text = await page.locator('#deliveries').textContent();
      if (text?.includes(check.body.request_uid) && text.includes('succeeded')) break;
      if (Date.now() > deadline) throw new Error(`delivery not shown: ${text}`);
      await page.waitForTimeout(200);
    }
    expect(webhookUrl).toContain('/app/webhooks');
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, 'webhook-deliveries');
  });

  it('adds a patient and finds it by search', async () => {
    await page.goto(`${base}/app/patients/new`);
    await page.fill('#first_name', 'Evelyn');
    await page.fill('#last_name', 'Okonkwo-Smith');
    await page.fill('#dob', '1975-03-09');
    await page.click('main form button[type=submit]');
    await page.waitForURL(/\/app\/patients\/PAT[0-9A-Z]{8}\/$/);
    const code = page.url().split('/').slice(-2)[0];
    await expect(page.locator('.flash.ok').textContent()).resolves.toContain(code);
    await screenshot(page, 'patient');
    await page.goto(`${base}/app/patients/`);
    await page.fill('#search', 'okonkwo');
    await page.click('form[action="/app/patients/"] button[type=submit]');
    expect(await page.locator('#patients tbody tr').count()).toBe(1);
    await expect(page.locator('#patients tbody').textContent()).resolves.toContain(code);
    await screenshot(page, 'patients');
  });

  it('asks for the portal logins a person uses for the insurers checked by hand (docs/api.md, Insurers and assisted verification), not for the sandbox', async () => {
    // The sandbox needs no sign-in and the X12 connector signs in to the clearinghouse itself;
    // the insurers a person checks on their portals (VSP, EyeMed and its network, Superior) do.
    await page.goto(`${base}/app/passwords/`);
    const cards = await page
      .locator('.card[data-insurer]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-insurer')));
    expect(cards).toEqual(expect.arrayContaining(['insurer:vision:vsp', 'insurer:vision:eye_med']));
    expect(cards).not.toContain('insurer:demo:vision');
    expect(await page.locator('#none-needed').count()).toBe(0);
    await screenshot(page, 'passwords');
  });

  it('enables and disables insurers; a disabled insurer ends searches as insurer_problem', async () => {
    await page.goto(`${base}/app/insurers/`);
    expect(await page.locator('#insurers tbody tr').count()).toBe(9);
    await page.locator('[data-insurer="insurer:demo:vision"] button').click();
    await expect(
      page.locator('[data-insurer="insurer:demo:vision"] .badge').textContent(),
    ).resolves.toBe('disabled');
    await screenshot(page, 'insurers');
    const res = await request(t.app.getHttpServer())
      .post('/api/auth/v1/eligibility/')
      .set(a.auth)
      .send({
        insurer_code: 'insurer:demo:vision',
        patient: { first_name: 'Off', last_name: 'Line', dob: '1990-01-01', zipcode: '10001' },
      });
    const deadline = Date.now() + 10_000;
    let body: any;
    do {
      body = (
        await request(t.app.getHttpServer())
          .get(`/api/auth/v1/eligibility/${res.body.request_uid}/`)
          .set(a.auth)
      ).body;
    } while (
      body.status === 'processing' &&
      Date.now() < deadline &&
      (await new Promise((r) => setTimeout(r, 100))) === undefined
    );
    expect(body).toMatchObject({ status: 'error', error_code: 'insurer_problem' });
    await page.locator('[data-insurer="insurer:demo:vision"] button').click();
    await expect(
      page.locator('[data-insurer="insurer:demo:vision"] .badge').textContent(),
    ).resolves.toBe('enabled');
  });

  it('refuses a form posted without its CSRF token', async () => {
    await page.goto(`${base}/app/locations/`);
    // Runs in the page (a string, since this project's TypeScript has no DOM types).
    await page.evaluate(
      "document.querySelectorAll('input[name=_csrf]').forEach((e) => e.remove())",
    );
    await page.fill('#title', 'Forged');
    await page.click('form[action="/app/locations/"] button[type=submit]');
    await expect(page.locator('h1').textContent()).resolves.toBe('This form has expired');
    await page.goto(`${base}/app/locations/`);
    expect(await page.content()).not.toContain('Forged');
    // The same form with its token works.
    await page.fill('#title', 'Uptown');
    await page.click('form[action="/app/locations/"] button[type=submit]');
    await expect(page.locator('table').textContent()).resolves.toContain('Uptown');
    await screenshot(page, 'locations');
  });

  describe('embedded sessions (docs/api.md, Embedded sessions)', () => {
    let parent: http.Server;
    let parentOrigin: string;
    let framedSrc = '';

    beforeAll(async () => {
      parent = http.createServer((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end(
          `<!doctype html><title>PMS</title><h1>Practice software</h1><iframe id="embedded" src="${framedSrc}" width="1000" height="700"></iframe>`,
        );
      });
      await new Promise<void>((r) => parent.listen(0, '127.0.0.1', r));
      parentOrigin = `http://127.0.0.1:${(parent.address() as AddressInfo).port}`;
      await t.app
        .get(AccountsService)
        .updateAccount(a.accountId, { frameAncestors: [parentOrigin] });
    });
    afterAll(() => new Promise<void>((r) => parent.close(() => r())));

    async function iframeUrl(account: TestAccount, entryPoint = 'add_patient') {
      return request(t.app.getHttpServer())
        .post('/api/auth/v1/iframe-session/')
        .set(account.auth)
        .send({ entry_point: entryPoint });
    }

    it('lands signed in on add_patient inside a frame of another origin, once', async () => {
      const res = await iframeUrl(a);
      expect(res.status).toBe(200);
      expect(res.body.iframe_url).toMatch(
        new RegExp(`^${base}/embed/\\?token=[0-9a-f]{64}&entry_point=add_patient$`),
      );
      framedSrc = res.body.iframe_url;

      const fresh = await browser.newContext();
      try {
        const p = await fresh.newPage();
        await p.goto(`${parentOrigin}/`);
        const frame = p.frameLocator('#embedded');
        await expect(frame.locator('h1').textContent({ timeout: 10_000 })).resolves.toBe(
          'Add patient',
        );
        expect(await frame.locator('header.top').count()).toBe(0); // embedded mode: no top navigation
        await screenshot(p, 'embedded-add-patient');
        // The frame's session works for the next page too.
        await frame.locator('#first_name').fill('Framed');
        await frame.locator('#last_name').fill('Patient');
        await frame.locator('#dob').fill('2001-02-03');
        await frame.locator('button[type=submit]').click();
        await expect(
          frame.locator('.flash.ok').textContent({ timeout: 10_000 }),
        ).resolves.toContain('PAT');

        // The same URL a second time is refused.
        const again = await fresh.newPage();
        const second = await again.goto(framedSrc);
        expect(second!.status()).toBe(403);
        await expect(again.locator('h1').textContent()).resolves.toBe('This link has expired');
      } finally {
        await fresh.close();
      }
    });

    it('refuses an expired token, and answers 403 to an account without iframe access', async () => {
      const res = await iframeUrl(a, 'passwords');
      await t.app
        .get(DataSource)
        .query(
          `UPDATE iframe_tokens SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`,
        );
      const fresh = await browser.newContext();
      try {
        const p = await fresh.newPage();
        const answer = await p.goto(res.body.iframe_url);
        expect(answer!.status()).toBe(403);
        await expect(p.locator('h1').textContent()).resolves.toBe('This link has expired');
      } finally {
        await fresh.close();
      }
      const other = await createAccount(t.app, { iframeEnabled: false });
      const refused = await iframeUrl(other);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ detail: 'Iframe is not activated for the current user.' });
      const invalid = await iframeUrl(a, 'home');
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({
        errors: {
          entry_point: { $: ['"home" is not a valid choice.', MSG.allowedChoices(ENTRY_POINTS)] },
        },
      });
      const [row] = await t.app
        .get(DataSource)
        .query('SELECT token_hash FROM iframe_tokens LIMIT 1');
      expect(res.body.iframe_url).not.toContain(row.token_hash);
    });

    it('opens the insurers and passwords entry points', async () => {
      for (const [entry, heading] of [
        ['insurers', 'Insurers'],
        ['passwords', 'Insurer passwords'],
      ]) {
        const res = await iframeUrl(a, entry);
        const fresh = await browser.newContext();
        try {
          const p = await fresh.newPage();
          await p.goto(res.body.iframe_url);
          await expect(p.locator('h1').textContent()).resolves.toBe(heading);
          expect(await p.locator('header.top').count()).toBe(0);
        } finally {
          await fresh.close();
        }
      }
    });
  });
});
