import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { DemoSeeder } from '@/seed/seed';
import { Body, Controller, Get, Post } from '@nestjs/common';
import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { NotPatientData } from '@/modules/audit/domain/audited';
import { RequireScope } from '@/modules/auth/domain/scopes';
import {
  NestedField,
  NestedListField,
  StringField,
  DateField,
  DecimalField,
} from '@/platform/http/validation/fields';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';

class ProbeAddress {
  @StringField({ required: true, maxLength: 10 })
  city: string;
}

class ProbeService {
  @DecimalField({ required: true })
  cost: string;
}

class ProbeBody {
  @StringField({ required: true, maxLength: 5 })
  name: string;

  @DateField({ required: true })
  dob: string;

  @NestedField(() => ProbeAddress, { required: true })
  address: ProbeAddress;

  @NestedListField(() => ProbeService, { required: true, minItems: 1, maxItems: 3 })
  services: ProbeService[];
}

/** Test-only routes that exercise the production pipe, filter and guards. */
@Controller('api/auth/v1/_probe')
class ProbeController {
  @Post()
  @RequireScope('eligibility:write')
  @NotPatientData()
  echo(@Body() body: ProbeBody) {
    return body;
  }

  @Get('boom')
  @RequireScope('eligibility:read')
  @NotPatientData()
  boom(): never {
    throw new Error('secret internal detail at /srv/app/db.ts:42');
  }
}

describe('foundation: authentication, errors, locations, docs', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;

  beforeAll(async () => {
    t = await createTestApp({ controllers: [ProbeController] });
    a = await createAccount(t.app);
    b = await createAccount(t.app);
  });
  afterAll(() => t.close());

  const http = () => request(t.app.getHttpServer());

  describe('API key authentication (docs/api.md, Authentication)', () => {
    it('answers 401 "not provided" without an Authorization header', async () => {
      const res = await http().get('/api/auth/v1/locations/');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        detail: 'Authentication credentials were not provided.',
        hint: 'Send the header Authorization: Api <key>.',
      });
      expect(res.headers['www-authenticate']).toBe('Api realm="api"');
    });

    it.each(['Bearer abc', 'Token abc', 'Basic dXNlcjpwdw==', 'vk_abc'])(
      'answers 401 "unknown type" with the hint for the scheme in %j',
      async (header) => {
        const res = await http().get('/api/auth/v1/locations/').set('Authorization', header);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({
          detail: 'Unknown authentication token type.',
          hint: 'Send the header Authorization: Api <key>.',
        });
        expect(res.headers['www-authenticate']).toBe('Api realm="api"');
      },
    );

    it.each(['api', 'API', 'aPi'])('matches the scheme %j case-insensitively', async (scheme) => {
      const key = a.auth.Authorization.slice('Api '.length);
      const res = await http()
        .get('/api/auth/v1/locations/')
        .set('Authorization', `${scheme} ${key}`);
      expect(res.status).toBe(200);
    });

    it.each(['Api nope', 'Api ', 'Api vk_' + 'A'.repeat(43), "Api ' OR 1=1 --"])(
      'answers 401 "invalid" for %j',
      async (header) => {
        const res = await http().get('/api/auth/v1/locations/').set('Authorization', header);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({
          detail: 'Invalid authentication token.',
          hint: 'Send the header Authorization: Api <key>.',
        });
        expect(res.headers['www-authenticate']).toBe('Api realm="api"');
      },
    );

    it('accepts a valid key and records its last use', async () => {
      const res = await http().get('/api/auth/v1/locations/').set(a.auth);
      expect(res.status).toBe(200);
      expect(res.body.result).toHaveLength(1);
      const ds = t.app.get(DataSource);
      await new Promise((r) => setTimeout(r, 100));
      const [row] = await ds.query('SELECT last_used_at FROM api_keys WHERE id = $1', [a.apiKeyId]);
      expect(row.last_used_at).not.toBeNull();
    });

    it('refuses a revoked key at once', async () => {
      const c = await createAccount(t.app);
      expect((await http().get('/api/auth/v1/locations/').set(c.auth)).status).toBe(200);
      await t.app.get(ApiKeysService).revoke(c.accountId, c.apiKeyId);
      const res = await http().get('/api/auth/v1/locations/').set(c.auth);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        detail: 'Invalid authentication token.',
        hint: 'Send the header Authorization: Api <key>.',
      });
    });

    it('stores only the SHA-256 of a key', async () => {
      const ds = t.app.get(DataSource);
      const rows = await ds.query('SELECT * FROM api_keys WHERE id = $1', [a.apiKeyId]);
      expect(JSON.stringify(rows)).not.toContain(a.apiKey);
      expect(rows[0].key_hash).toBe(createHash('sha256').update(a.apiKey).digest('hex'));
    });
  });

  describe('error envelope (docs/api.md, Errors)', () => {
    it('reports a nested field error, an array-index error and several errors at once', async () => {
      const res = await http()
        .post('/api/auth/v1/_probe/')
        .set(a.auth)
        .send({
          name: 'far too long',
          dob: '2020-02-30',
          address: { city: '' },
          services: [{ cost: '1.00' }, { cost: 'abc' }],
        });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: {
          name: { $: ['Ensure this field has no more than 5 characters.'] },
          dob: {
            $: [
              'Date has wrong format. Use YYYY-MM-DD.',
              '2020-02-30 is not a date: that month has 29 days.',
            ],
          },
          address: { city: { $: ['This field may not be blank.'] } },
          services: { '1': { cost: { $: ['A valid number is required.'] } } },
        },
      });
    });

    it('distinguishes missing, null and wrongly typed fields', async () => {
      const res = await http()
        .post('/api/auth/v1/_probe/')
        .set(a.auth)
        .send({ name: null, dob: 19900101, address: 'Main St', services: [] });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({
        name: { $: ['This field may not be null.'] },
        dob: { $: ['Date has wrong format. Use YYYY-MM-DD.'] },
        address: { $: ['Invalid data. Expected a dictionary.'] },
        services: { $: ['Ensure this field has at least 1 elements.'] },
      });
      const empty = await http().post('/api/auth/v1/_probe/').set(a.auth).send({});
      expect(empty.body.errors.name).toEqual({ $: ['This field is required.'] });
      expect(Object.keys(empty.body.errors).sort()).toEqual(['address', 'dob', 'name', 'services']);
    });

    it('ignores unknown extra fields', async () => {
      const res = await http()
        .post('/api/auth/v1/_probe/')
        .set(a.auth)
        .send({
          name: 'Ann',
          dob: '1990-01-01',
          address: { city: 'Austin', zz: 1 },
          services: [{ cost: 12.2 }],
          extra: true,
        });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        name: 'Ann',
        dob: '1990-01-01',
        address: { city: 'Austin' },
        services: [{ cost: '12.2' }],
      });
    });

    it('answers malformed JSON with 400', async () => {
      const res = await http()
        .post('/api/auth/v1/locations/')
        .set(a.auth)
        .set('Content-Type', 'application/json')
        .send('{"title": "x",');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: { $: ['Malformed JSON body.'] } });
    });

    it('answers a 2 MiB body with 413', async () => {
      const res = await http()
        .post('/api/auth/v1/locations/')
        .set(a.auth)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ title: 'x'.repeat(2 * 1024 * 1024) }));
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ detail: 'Request body too large.' });
    });

    it('answers an unknown route with 404 detail', async () => {
      const res = await http().get('/api/auth/v1/nothing-here/').set(a.auth);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        detail: 'Not found.',
        hint: 'No route at this path: paths are case-sensitive and end with /; the routes are listed at /docs.',
      });
    });

    it('answers an internal error with a bare 500 and no stack', async () => {
      const res = await http().get('/api/auth/v1/_probe/boom/').set(a.auth);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ detail: 'Internal server error.' });
      expect(res.text).not.toContain('secret internal detail');
      expect(res.text).not.toContain('.ts');
    });

    it('puts an X-Request-Id on every response, keeping a sane caller id', async () => {
      const own = await http()
        .get('/api/auth/v1/locations/')
        .set(a.auth)
        .set('X-Request-Id', 'abc-123');
      expect(own.headers['x-request-id']).toBe('abc-123');
      const generated = await http().get('/nope');
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const hostile = await http().get('/health/live').set('X-Request-Id', '<script>');
      expect(hostile.headers['x-request-id']).not.toBe('<script>');
    });
  });

  describe('locations', () => {
    it('creates a location with a LOC code and lists it, with and without the trailing slash', async () => {
      const created = await http()
        .post('/api/auth/v1/locations/')
        .set(a.auth)
        .send({ title: 'Uptown Vision' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        code: expect.stringMatching(/^LOC[0-9A-HJKMNP-TV-Z]{8}$/),
        title: 'Uptown Vision',
        status: 'enabled',
        is_default: false,
        // docs/api.md, Real insurers: the provider identity, unset until given.
        npi: null,
        organization_name: null,
        tax_id: null,
        // docs/api.md, Errors: the street address the CMS-1500's boxes 32 and 33 print.
        address: null,
        // docs/api.md, Claims: what an 837P needs besides.
        taxonomy_code: '152W00000X',
        rendering_provider: null,
        time_zone: null,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/),
      });
      const list = await http().get('/api/auth/v1/locations').set(a.auth);
      expect(list.status).toBe(200);
      expect(list.body.result.map((l: { code: string }) => l.code)).toEqual([
        a.locationCode,
        created.body.code,
      ]);
    });

    it("never shows account A's locations to account B", async () => {
      await http().post('/api/auth/v1/locations/').set(a.auth).send({ title: 'A only' });
      const list = await http().get('/api/auth/v1/locations/').set(b.auth);
      expect(list.body.result.map((l: { code: string }) => l.code)).toEqual([b.locationCode]);
    });

    it('refuses a blank or missing title', async () => {
      const res = await http().post('/api/auth/v1/locations/').set(a.auth).send({ title: '   ' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: { title: { $: ['This field may not be blank.'] } } });
    });
  });

  describe('docs and health', () => {
    it('serves a valid OpenAPI 3 document with the Api security scheme', async () => {
      const res = await http().get('/docs-json');
      expect(res.status).toBe(200);
      expect(res.body.openapi).toMatch(/^3\./);
      expect(res.body.components.securitySchemes.Api).toMatchObject({
        type: 'apiKey',
        name: 'Authorization',
        in: 'header',
      });
      expect(res.body.paths['/api/auth/v1/locations/']).toBeDefined();
      await expect(SwaggerParser.validate(structuredClone(res.body))).resolves.toBeDefined();
      const ui = await http().get('/docs/');
      expect(ui.status).toBe(200);
      expect(ui.text).toContain('swagger');
    });

    // npm test's tier runs the service without Redis (jest.config.js): ready answers 503 naming
    // it (docs/api.md, Health); test/health.redis.e2e-spec.ts has the answer with Redis.
    it('answers the health probes without authentication, ready naming the missing Redis', async () => {
      expect((await http().get('/health/live')).body).toEqual({ status: 'ok' });
      const ready = await http().get('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({
        status: 'error',
        info: { database: { status: 'up' } },
        error: { redis: { status: 'down' } },
      });
    });
  });
});

describe('demo seed (docs/configuration.md, DEMO_SEED)', () => {
  it('creates the demo account once, on an empty database only, with a key that works', async () => {
    const t = await createTestApp();
    try {
      const seeder = t.app.get(DemoSeeder);
      const [first, second] = await Promise.all([seeder.seedIfEmpty(), seeder.seedIfEmpty()]);
      const demo = first ?? second;
      expect([first, second].filter(Boolean)).toHaveLength(1);
      expect(demo).toMatchObject({
        email: 'demo@vision.localhost',
        apiKey: expect.stringMatching(/^vk_/),
      });
      expect(await seeder.seedIfEmpty()).toBeNull();
      const res = await request(t.app.getHttpServer())
        .get('/api/auth/v1/locations/')
        .set('Authorization', `Api ${demo!.apiKey}`);
      expect(res.status).toBe(200);
      expect(res.body.result[0].code).toBe(demo!.locationCode);
    } finally {
      await t.close();
    }
  });
});
