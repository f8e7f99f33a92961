import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { createTestApp, freePort, TestApp } from './support/app';
import { launchBrowser, screenshot } from './support/browser';
import { createAccount, TestAccount } from './support/factories';

/**
 * A vendor's page on another site embeds the service over https (docs/api.md, Embedded
 * sessions): `https://pms.test` frames `https://vision.test`, both on loopback behind TLS with a
 * self-signed certificate, in a Chromium that blocks unpartitioned third-party cookies. The
 * embedded session's cookie is `SameSite=None; Secure; Partitioned`, so the add-patient flow
 * completes inside the frame; a staff sign-in keeps its `SameSite=Lax` cookie.
 */
describe('an embedded session on another site (real browser, two origins over https)', () => {
  let t: TestApp;
  let a: TestAccount;
  let dir: string;
  let vision: https.Server;
  let vendor: https.Server;
  let visionOrigin: string;
  let vendorOrigin: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vision-tls-'));
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=vision.test',
      '-addext', 'subjectAltName=DNS:vision.test,DNS:pms.test',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' }); // prettier-ignore
    const tls = {
      key: readFileSync(join(dir, 'key.pem')),
      cert: readFileSync(join(dir, 'cert.pem')),
    };

    const appPort = await freePort();
    const visionPort = await freePort();
    visionOrigin = `https://vision.test:${visionPort}`;
    t = await createTestApp({
      listen: appPort,
      env: { PORT: String(appPort), PUBLIC_URL: visionOrigin, TRUST_PROXY: 'loopback' },
    });
    // TLS in front of the service, as a load balancer would (X-Forwarded-Proto: https).
    vision = https.createServer(tls, (req, res) => {
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: appPort,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, 'x-forwarded-proto': 'https', 'x-forwarded-for': '127.0.0.1' },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => vision.listen(visionPort, '127.0.0.1', resolve));

    vendor = https.createServer(tls, (req, res) => {
      const src = new URL(req.url ?? '/', 'https://x').searchParams.get('src') ?? '';
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!doctype html><title>PMS</title><h1>Practice software</h1>
        <iframe id="vision" src="${src.replace(/"/g, '&quot;')}" width="1100" height="900"></iframe>`);
    });
    await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
    vendorOrigin = `https://pms.test:${(vendor.address() as AddressInfo).port}`;

    a = await createAccount(t.app, { iframeEnabled: true, frameAncestors: [vendorOrigin] });
    browser = await launchBrowser([
      '--host-resolver-rules=MAP vision.test 127.0.0.1, MAP pms.test 127.0.0.1',
      // Third-party cookies blocked, as browsers do: only a partitioned cookie works in a frame.
      '--test-third-party-cookie-phaseout',
    ]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => vision?.close(resolve));
    await new Promise((resolve) => vendor?.close(resolve));
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('completes the add-patient flow inside the frame of another site', async () => {
    const minted = await request(t.app.getHttpServer())
      .post('/api/auth/v1/iframe-session/')
      .set(a.auth)
      .send({ entry_point: 'add_patient' });
    expect(minted.status).toBe(200);
    const link = minted.body.iframe_url as string;
    expect(link.startsWith(`${visionOrigin}/embed/`)).toBe(true);

    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await page.goto(`${vendorOrigin}/?src=${encodeURIComponent(link)}`);
    const frame = page.frameLocator('#vision');
    await frame.locator('#first_name').waitFor({ timeout: 30_000 });
    await frame.locator('#first_name').fill('Framed');
    await frame.locator('#last_name').fill('Patient');
    await frame.locator('#dob').fill('1990-04-05');
    await frame.locator('form button[type=submit]').first().click();
    await frame.locator('h1').filter({ hasText: 'Framed Patient' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'embed-cross-site');

    const listed = await request(t.app.getHttpServer()).get('/api/auth/v1/patients/').set(a.auth);
    expect(
      listed.body.result.map((p: { first_name: string }) => p.first_name.toLowerCase()),
    ).toEqual(['framed']);

    const cookies = await context.cookies(visionOrigin);
    const sid = cookies.find((c) => c.name === '__Host-vision.sid');
    expect(sid).toMatchObject({ sameSite: 'None', secure: true, httpOnly: true, path: '/' });
    expect((sid as { partitionKey?: string }).partitionKey).toBeTruthy();
    await context.close();
  }, 90_000);

  it('keeps a staff sign-in on its own site SameSite=Lax and unpartitioned', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await page.goto(`${visionOrigin}/app/login`);
    await page.fill('#email', a.email);
    await page.fill('#password', a.password);
    await page.click('button[type=submit]');
    await page.waitForURL(`${visionOrigin}/app/`);
    const sid = (await context.cookies(visionOrigin)).find((c) => c.name === '__Host-vision.sid');
    expect(sid).toMatchObject({ sameSite: 'Lax', secure: true });
    expect((sid as { partitionKey?: string }).partitionKey).toBeFalsy();
    await context.close();
  }, 60_000);
});
