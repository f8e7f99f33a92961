import { Controller, Get } from '@nestjs/common';
import request from 'supertest';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { RequireScope } from '@/modules/auth/domain/scopes';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

/** A route that declares a scope outside /api/: only its metadata says it needs a key. */
@Controller('probe-scoped')
class ScopedProbeController {
  static reached = 0;
  @Get()
  @RequireScope('patients:read')
  get() {
    ScopedProbeController.reached += 1;
    return { ok: true };
  }
}

/** Other spellings of API paths: Express matched routes case-insensitively. */
const API_SPELLINGS = [
  '/API/auth/v1/patients/',
  '/Api/auth/v1/patients/',
  '/api/AUTH/v1/patients/',
  '/api/auth/v1/Patients/',
  '/API/auth/v1/eligibility/',
];
// (`/app/PATIENTS/` is a web path: like any unknown page, it asks a signed-out visitor to sign in.)
const WEB_SPELLINGS = ['/APP/', '/App/patients/', '/APP/login', '/EMBED'];

describe('route guards: routing is case-sensitive and guards decide by route metadata', () => {
  let t: TestApp;
  let a: TestAccount;
  beforeAll(async () => {
    t = await createTestApp({ controllers: [ScopedProbeController] });
    a = await createAccount(t.app);
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());

  it('answers another case of an API path 404, with or without a key, and never reaches a handler', async () => {
    for (const path of API_SPELLINGS) {
      for (const method of ['get', 'post'] as const) {
        for (const auth of [{}, a.auth]) {
          const res = await http()[method](path).set(auth).send({ first_name: 'Ana' });
          expect({ path, method, status: res.status }).toEqual({ path, method, status: 404 });
          // docs/api.md, Errors: a path that is no route may say where the routes are.
          expect(res.body).toEqual({
            detail: expect.any(String),
            ...(res.body.hint === undefined ? {} : { hint: expect.any(String) }),
          });
        }
      }
    }
    const list = await http().get('/api/auth/v1/patients/').set(a.auth);
    expect(list.status).toBe(200);
    expect(list.body.result).toEqual([]);
  });

  it('answers another case of a web path 404 instead of serving the page pipeline', async () => {
    for (const path of WEB_SPELLINGS) {
      const res = await http().get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('requires a key on a route that declares a scope whatever its path', async () => {
    ScopedProbeController.reached = 0;
    const none = await http().get('/probe-scoped/');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ detail: expect.any(String), hint: expect.any(String) });
    expect(none.headers['www-authenticate']).toBe('Api realm="api"');
    const wrong = await http().get('/probe-scoped/').set({ Authorization: 'Api vk_nope' });
    expect(wrong.status).toBe(401);
    const { key } = await t.app
      .get(ApiKeysService)
      .create(a.accountId, 'claims only', ['claims:read']);
    const unscoped = await http()
      .get('/probe-scoped/')
      .set({ Authorization: `Api ${key}` });
    expect(unscoped.status).toBe(403);
    expect(ScopedProbeController.reached).toBe(0);
    const held = await http().get('/probe-scoped/').set(a.auth);
    expect(held.status).toBe(200);
    expect(ScopedProbeController.reached).toBe(1);
  });
});
