import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import request from 'supertest';
import { isApiPath } from '@/platform/http/doors';
import { DEFAULT_PASSWORD_HASH_COST } from '@/platform/config/password-cost';
import { DEFAULT_BODY_LIMITS, type BodyLimits } from '@/platform/http/body/body-limits';
import { AccountsService } from '@/modules/accounts/domain/accounts.service';
import { ApiKeysService } from '@/modules/auth/domain/api-keys.service';
import { listRoutes, type RouteDeclaration } from '@/modules/audit/domain/route-declarations';
import { createTestContext, resetState } from './support/app';
import { loadConfig } from '@/platform/config/env';
import { type BuiltService, memoryOf, MIB, startBuilt, watched } from './support/built-service';
import { rawUpload, type RawAnswer, type RawUpload } from './support/raw-upload';
import { csrfOf } from './support/web-sign-in';

/** The API pods' memory limit, as deploy/api-deployment.yaml sets it. */
const POD_LIMIT_BYTES = (() => {
  const deployment = parse(
    readFileSync(join(__dirname, '..', 'deploy', 'api-deployment.yaml'), 'utf8'),
  );
  const memory = String(deployment.spec.template.spec.containers[0].resources.limits.memory);
  const mi = /^(\d+)Mi$/.exec(memory);
  if (!mi) throw new Error(`the API pod's memory limit ${memory} is not in Mi`);
  return Number(mi[1]) * MIB;
})();
/** What the reviewer sent with no key: over every route's limit but the batch's. */
const FLOOD_BYTES = 16_600_000;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const fill = (path: string) => path.replace(/:[a-z_]+/g, 'x0');
const limitsOf = (r: RouteDeclaration): BodyLimits =>
  (r.body as BodyLimits | undefined) ?? DEFAULT_BODY_LIMITS;

/**
 * The class of faults where one request, upload or sign-in takes a process down (SECURITY.md,
 * third review, H1, H2, M1), for every route the application has: the list comes from the
 * application's own routes (and each route's declared body limits), so a new route is covered
 * without anyone adding it. Against the built service as the image runs it (heap limit
 * included), its RSS sampled and /health/live probed throughout: the process never dies, the probe
 * answers within 1 s, and the peak RSS stays under the pod's limit.
 */
describe('every route under faults: the built service stays up, responsive and within its pod limit', () => {
  let service: BuiltService;
  let routes: RouteDeclaration[];
  let auth: Record<string, string>;
  const users: { email: string; password: string }[] = [];
  const figures: string[] = [];

  beforeAll(async () => {
    await resetState(loadConfig());
    // The routes, a key with every scope and twenty web users at the production hash cost.
    const made = await createTestContext({
      env: { PASSWORD_HASH_COST: String(DEFAULT_PASSWORD_HASH_COST) },
      keepState: true,
    });
    try {
      routes = listRoutes(made.ctx.get(DiscoveryService), made.ctx.get(MetadataScanner));
      const accounts = made.ctx.get(AccountsService);
      // Twenty who sign in at once, and one more who uploads a CSV meanwhile.
      for (let i = 0; i < 21; i++) {
        const user = {
          email: `fault-${i}@practice.test`,
          password: randomBytes(12).toString('hex'),
        };
        const { account } = await accounts.createAccount({ name: `Faults ${i}`, ...user });
        users.push(user);
        if (i === 0) {
          const { key } = await made.ctx.get(ApiKeysService).create(account.id, 'faults');
          auth = { Authorization: `Api ${key}` };
        }
      }
    } finally {
      await made.close();
    }
    const env: NodeJS.ProcessEnv = { RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1000000' };
    delete process.env.PASSWORD_HASH_COST;
    service = await startBuilt(env);
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    if (figures.length > 0) process.stdout.write(`${figures.join('\n')}\n`);
  });

  const bodyRoutes = () => routes.filter((r) => BODY_METHODS.has(r.method));

  /** Runs the uploads one after another under the watch, and checks the three promises. */
  async function underWatch(name: string, uploads: (() => Promise<RawAnswer>)[]) {
    const before = memoryOf(service.child.pid!, 'VmRSS');
    const run = await watched(service, async () => {
      const answers: RawAnswer[] = [];
      // A connection the service dropped (it died) is an answer of status 0, so the figures say
      // which request it was.
      for (const upload of uploads)
        answers.push(
          await upload().catch((e: Error) => ({
            status: 0,
            body: e.message,
            headers: {},
            sentBeforeAnswer: 0,
            total: 0,
            early: false,
          })),
        );
      return answers;
    });
    figures.push(
      `${name}: ${uploads.length} requests, RSS ${(before / MIB).toFixed(0)} → peak ` +
        `${(run.peak / MIB).toFixed(0)} MiB, slowest /health/live ${run.slowestProbeMs} ms`,
    );
    if (!service.alive())
      figures.push(`${name}: the process died:\n${service.output().slice(-1500)}`);
    expect(service.alive()).toBe(true);
    expect(run.slowestProbeMs).toBeLessThan(1_000);
    expect(run.peak).toBeLessThan(POD_LIMIT_BYTES);
    return { answers: run.result, before, peak: run.peak };
  }

  const send = (r: RouteDeclaration, upload: Omit<RawUpload, 'method' | 'path'>) => () =>
    rawUpload(service.base, { method: r.method, path: fill(r.path), ...upload });

  it('lists the routes that read a body, the large ones with their own limits', () => {
    const paths = bodyRoutes().map((r) => `${r.method} ${r.path}`);
    expect(paths.length).toBeGreaterThan(40);
    expect(paths).toContain('POST /api/auth/v1/eligibility/batches/');
    expect(
      limitsOf(routes.find((r) => r.path === '/api/auth/v1/eligibility/batches/')!).limitBytes,
    ).toBe(16 * MIB);
  });

  it('16.6 MB with no key, to every route and to paths no route matches: refused before the body is read', async () => {
    const targets = bodyRoutes().filter((r) => isApiPath(r.path));
    const uploads = targets.map((r) =>
      send(r, { total: FLOOD_BYTES, head: '[', unit: '1,', tail: '1]' }),
    );
    // The web application's forms, signed out (its pages read their own form bodies).
    const pages = bodyRoutes().filter((r) => !isApiPath(r.path));
    for (const r of pages)
      uploads.push(
        send(r, {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          total: FLOOD_BYTES,
          unit: 'a=1&',
        }),
      );
    for (const path of ['/api/auth/v1/nothing-here/', '/nothing-here/', '/api/auth/v9/'])
      uploads.push(() =>
        rawUpload(service.base, {
          method: 'POST',
          path,
          total: FLOOD_BYTES,
          head: '[',
          unit: '1,',
          tail: '1]',
        }),
      );
    // Once to warm the routes up (what any first request loads), then each measured on its own:
    // the RSS before it, and its peak while it is sent and answered.
    await underWatch('no key, 16.6 MB, first round', uploads);
    const growth: number[] = [];
    const measured = uploads.map((upload) => async () => {
      const pid = service.child.pid!;
      const before = memoryOf(pid, 'VmRSS');
      let peak = before;
      let sending = true;
      const sampler = (async () => {
        while (sending) {
          peak = Math.max(peak, memoryOf(pid, 'VmRSS'));
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      try {
        return await upload();
      } finally {
        sending = false;
        await sampler;
        growth.push(peak - before);
      }
    });
    const { answers } = await underWatch('no key, 16.6 MB, each measured', measured);
    figures.push(
      `no key, 16.6 MB: RSS growth per request at most ${(Math.max(...growth) / MIB).toFixed(1)} MiB`,
    );
    answers.forEach((a, i) => {
      const page = i >= targets.length && i < targets.length + pages.length;
      const r = i < targets.length ? targets[i] : page ? pages[i - targets.length] : null;
      const where = r ? `${r.method} ${r.path}` : 'no route';
      // A page answers a signed-out form as its area says (sign-in again, 403 for a missing CSRF
      // token, 413 for a form over its limit): never a 5xx, and never after the whole body.
      const status = page ? (a.status >= 300 && a.status < 500 ? 'refused' : a.status) : a.status;
      expect({ where, status, early: a.early }).toEqual({
        where,
        status: page ? 'refused' : r ? 401 : 404,
        early: true,
      });
    });
    expect(Math.max(...growth)).toBeLessThan(16 * MIB);
  }, 600_000);

  it('with a key: over each route limit refused (413) while sending, by its length or, chunked, at the limit', async () => {
    const targets = bodyRoutes().filter((r) => isApiPath(r.path));
    const uploads = targets.flatMap((r) => {
      // Large enough that loopback's socket buffers cannot take it all before an answer.
      const over = Math.max(limitsOf(r).limitBytes + 8 * MIB, FLOOD_BYTES);
      return [
        send(r, { headers: auth, total: over, head: '{"pad":"', unit: 'x', tail: '"}' }),
        send(r, {
          headers: auth,
          total: over,
          head: '{"pad":"',
          unit: 'x',
          tail: '"}',
          chunked: true,
        }),
      ];
    });
    const { answers } = await underWatch('a key, over the limit', uploads);
    answers.forEach((a, i) => {
      const r = targets[Math.floor(i / 2)];
      expect({ route: `${r.method} ${r.path}`, status: a.status, early: a.early }).toEqual({
        route: `${r.method} ${r.path}`,
        status: 413,
        early: true,
      });
    });
  }, 600_000);

  it('with a key: the largest body each route accepts, and value and nesting bombs within it, are answered (never 5xx)', async () => {
    const targets = bodyRoutes().filter((r) => isApiPath(r.path));
    const uploads = targets.flatMap((r) => {
      const { limitBytes } = limitsOf(r);
      return [
        send(r, { headers: auth, total: limitBytes, head: '{"pad":"', unit: 'x', tail: '"}' }),
        send(r, { headers: auth, total: limitBytes, head: '[', unit: '1,', tail: '1]' }),
        send(r, {
          headers: auth,
          total: Math.min(limitBytes, 4 * MIB),
          head: '',
          unit: '[',
          tail: '',
        }),
      ];
    });
    const { answers } = await underWatch('a key, at the limit', uploads);
    answers.forEach((a, i) => {
      const r = targets[Math.floor(i / 3)];
      expect({ route: `${r.method} ${r.path}`, kind: i % 3, server: a.status >= 500 }).toEqual({
        route: `${r.method} ${r.path}`,
        kind: i % 3,
        server: false,
      });
      // The bombs: refused by their count or their depth, the moment it is passed.
      if (i % 3 > 0) expect(a.status).toBe(400);
    });
  }, 600_000);

  /** A signed-out browser's cookie and the login form's CSRF token. */
  async function loginForm(): Promise<{ cookie: string; csrf: string }> {
    const page = await request(service.base).get('/app/login').expect(200);
    const cookie = (page.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    return { cookie, csrf: csrfOf(page.text) };
  }

  /** A multipart upload of the batch page: its CSRF token, then a CSV of `total` bytes. */
  async function batchPageUpload(total: number, row: string): Promise<() => Promise<RawAnswer>> {
    const { cookie, csrf } = await loginForm();
    const signedIn = await request(service.base)
      .post('/app/login')
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrf, ...users[20] })
      .expect(302);
    const session = (signedIn.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const page = await request(service.base)
      .get('/app/batches/')
      .set('Cookie', session)
      .expect(200);
    const head =
      `--B\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrfOf(page.text)}\r\n` +
      '--B\r\nContent-Disposition: form-data; name="file"; filename="p.csv"\r\n' +
      'Content-Type: text/csv\r\n\r\nfirst_name,last_name,dob,zipcode,member_id,insurer_code\n';
    return () =>
      rawUpload(service.base, {
        method: 'POST',
        path: '/app/batches/',
        headers: { Cookie: session, 'Content-Type': 'multipart/form-data; boundary=B' },
        total,
        head,
        unit: row,
        tail: '\r\n--B--\r\n',
      });
  }

  it('twenty parallel sign-ins with the right passwords all succeed within 10 s during four maximal X12 uploads, a JSON bomb and a CSV row of 8 MB of commas', async () => {
    const forms = await Promise.all(users.slice(0, 20).map(() => loginForm()));
    const wideRow = await batchPageUpload(8 * MIB, ',');
    const batches = routes.find(
      (r) => r.path === '/api/auth/v1/eligibility/batches/' && r.method === 'POST',
    )!;
    const reports = routes.find(
      (r) => r.path === '/api/auth/v1/claim-reports/' && r.method === 'POST',
    )!;
    const started = Date.now();
    const { answers } = await underWatch('20 sign-ins during 6 uploads', [
      async () => {
        const uploads = Array.from({ length: 4 }, () =>
          rawUpload(service.base, {
            method: 'POST',
            path: reports.path,
            headers: { ...auth, 'Content-Type': 'text/plain' },
            total: limitsOf(reports).limitBytes,
            head: 'ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *261201*1200*^*00501*000000001*0*P*:~',
            unit: 'REF*EA*1~',
          }),
        );
        uploads.push(
          rawUpload(service.base, {
            method: 'POST',
            path: batches.path,
            headers: auth,
            total: limitsOf(batches).limitBytes,
            head: '[',
            unit: '1,',
            tail: '1]',
          }),
          wideRow(),
        );
        const signIns = forms.map(({ cookie, csrf }, i) =>
          request(service.base)
            .post('/app/login')
            .set('Cookie', cookie)
            .set('X-Forwarded-For', `198.51.100.${i + 1}`)
            .type('form')
            .send({ _csrf: csrf, ...users[i] })
            .then((res) => ({ status: res.status, at: Date.now() - started })),
        );
        const [done, uploaded] = await Promise.all([Promise.all(signIns), Promise.all(uploads)]);
        // Each refused by its own cap: segments, values, the row wider than its header.
        expect(uploaded.map((u) => u.status)).toEqual([400, 400, 400, 400, 400, 400]);
        expect(uploaded[5].body).toContain('Line 2: the line has more cells than the header');
        expect(done.map((d) => d.status)).toEqual(forms.map(() => 302));
        figures.push(`sign-ins: the last answered after ${Math.max(...done.map((d) => d.at))} ms`);
        expect(Math.max(...done.map((d) => d.at))).toBeLessThan(10_000);
        return uploaded[0];
      },
    ]);
    expect(answers).toHaveLength(1);
    expect(memoryOf(service.child.pid!, 'VmHWM')).toBeLessThan(POD_LIMIT_BYTES);
  }, 300_000);
});
