import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { HASH_MEMORY_BUDGET, HASHES_WAITING } from '@/platform/kernel/passwords';
import { DEFAULT_PASSWORD_HASH_COST } from '@/platform/config/password-cost';
import { loadConfig } from '@/platform/config/env';
import { AccountsService } from '@/modules/accounts/domain/accounts.service';
import { createTestContext, freePort, resetState } from './support/app';
import { ensureBuilt } from './support/built-service';
import { csrfOf } from './support/web-sign-in';

const ROOT = join(__dirname, '..');
const MIB = 1024 * 1024;
/** The production cost (N=2^14, r=8, p=5: 16 MiB a hash), as the image runs it. */
const COST = String(DEFAULT_PASSWORD_HASH_COST);
/** Room for the requests themselves (bodies, sessions, rendering, V8's young generation). */
const MARGIN_BYTES = 64 * MIB;

/** `VmRSS` or `VmHWM` (the peak) of a process, in bytes, from /proc. */
function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!kb) throw new Error(`no ${field} for ${pid}`);
  return Number(kb[1]) * 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * SECURITY.md: scrypt at N=2^17 held 128 MiB per hash and unknown e-mails are hashed too, so
 * parallel unauthenticated sign-ins grew a process past its pod's memory limit. New hashes are
 * made at N=2^14, p=5 (16 MiB), and every hash runs inside a budget of HASH_MEMORY_BUDGET
 * (128 MiB) weighted by its memory. The built service (dist/src/main.js, as the image runs it)
 * hashes at the production cost here, while bursts of sign-ins (unknown e-mails and a known
 * one, each from its own client address) arrive and its RSS is sampled from /proc.
 *
 * The bound: the RSS before the burst, plus the hashing budget (128 MiB), plus 64 MiB.
 */
describe('sign-in bursts hold memory to the hashing budget (built service, scrypt 2^14, p=5)', () => {
  let child: ChildProcess | null = null;
  let output = '';
  let base = '';
  const known = { email: 'burst-known@practice.test', password: 'the right password, long' };

  beforeAll(async () => {
    // The test runs what the image runs: the current sources, built.
    await ensureBuilt();
    const config = loadConfig();
    await resetState(config);
    // The known user's hash made at the production cost, as the service would have made it.
    const made = await createTestContext({ env: { PASSWORD_HASH_COST: COST } });
    try {
      await made.ctx.get(AccountsService).createAccount({ name: 'Burst', ...known });
    } finally {
      await made.close();
    }
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      PASSWORD_HASH_COST: COST,
      ROLE: 'api',
      WEB_CONCURRENCY: '1',
      PORT: String(port),
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    };
    child = spawn(process.execPath, ['--max-old-space-size=256', 'dist/src/main.js'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const deadline = Date.now() + 60_000;
    while (!(await live())) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`the service did not start:\n${output.slice(-3000)}`);
      await sleep(200);
    }
  }, 240_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  async function live(): Promise<boolean> {
    try {
      return (await fetch(`${base}/health/live`)).status === 200;
    } catch {
      return false;
    }
  }

  /** A signed-out browser's cookie and the login form's CSRF token. */
  async function loginForm(): Promise<{ cookie: string; csrf: string }> {
    const page = await request(base).get('/app/login').expect(200);
    const cookie = (page.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    return { cookie, csrf: csrfOf(page.text) };
  }

  /** `n` sign-ins at once, each from its own client address; the last one is the known user's. */
  async function burst(n: number, round: string) {
    const forms = await Promise.all(Array.from({ length: n }, () => loginForm()));
    return Promise.all(
      forms.map(({ cookie, csrf }, i) => {
        const who =
          i === n - 1
            ? known
            : { email: `nobody-${round}-${i}@unknown.test`, password: 'a guess at a password' };
        return request(base)
          .post('/app/login')
          .set('Cookie', cookie)
          .set('X-Forwarded-For', `198.51.100.${i + 1}`)
          .type('form')
          .send({ _csrf: csrf, ...who });
      }),
    );
  }

  /** Runs `work` while sampling the child's RSS and /health/live; the peak and every probe. */
  async function watched<T>(work: () => Promise<T>) {
    const pid = child!.pid!;
    let peak = 0;
    const probes: number[] = [];
    let running = true;
    const sampler = (async () => {
      while (running) {
        peak = Math.max(peak, memoryOf(pid, 'VmRSS'));
        await sleep(10);
      }
    })();
    const prober = (async () => {
      while (running) {
        const started = Date.now();
        const res = await fetch(`${base}/health/live`).catch(() => null);
        probes.push(res?.status ?? 0);
        await sleep(Math.max(0, 100 - (Date.now() - started)));
      }
    })();
    try {
      const result = await work();
      return { result, peak, probes };
    } finally {
      running = false;
      await Promise.all([sampler, prober]);
    }
  }

  it('twelve, then forty parallel sign-ins: RSS within the bound, 429 with Retry-After only past the queue, /health/live answering, and the right password works after', async () => {
    const pid = child!.pid!;
    // One sign-in first, so the bound's base includes what any sign-in loads once.
    const warm = await burst(1, 'warm');
    expect(warm[0].status).toBe(302);
    await sleep(300);
    const before = memoryOf(pid, 'VmRSS');
    const bound = before + HASH_MEMORY_BUDGET + MARGIN_BYTES;

    // Eight hash at once and four wait: every one of the twelve is answered.
    const twelve = await watched(() => burst(12, 'twelve'));
    expect(twelve.result.map((r) => r.status).sort()).toEqual([302, ...Array(11).fill(401)]);
    expect(twelve.peak).toBeLessThan(bound);
    expect(twelve.probes.length).toBeGreaterThan(0);
    expect(twelve.probes.every((s) => s === 200)).toBe(true);

    const forty = await watched(() => burst(40, 'forty'));
    const statuses = forty.result.map((r) => r.status);
    expect(statuses.every((s) => [302, 401, 429].includes(s))).toBe(true);
    const busy = forty.result.filter((r) => r.status === 429);
    // Refused only when the budget is in use and the queue is full: at least 16 are served.
    const atOnce = HASH_MEMORY_BUDGET / (128 * 2 ** DEFAULT_PASSWORD_HASH_COST * 8);
    expect(atOnce).toBe(8);
    expect(busy.length).toBeLessThanOrEqual(40 - atOnce - HASHES_WAITING);
    for (const r of busy) {
      expect(r.headers['retry-after']).toBe('2');
      expect(r.text).toContain('Too many sign-ins at this moment. Try again in 2 seconds.');
    }
    expect(forty.peak).toBeLessThan(bound);
    expect(forty.probes.every((s) => s === 200)).toBe(true);
    // The process's own high-water mark, bursts included, never passed the bound either.
    expect(memoryOf(pid, 'VmHWM')).toBeLessThan(bound);
    process.stdout.write(
      `RSS before ${(before / MIB).toFixed(0)} MiB, peak twelve ${(twelve.peak / MIB).toFixed(0)} MiB ` +
        `(+${((twelve.peak - before) / MIB).toFixed(0)} MiB), peak forty ${(forty.peak / MIB).toFixed(0)} MiB, ` +
        `bound ${(bound / MIB).toFixed(0)} MiB, ${busy.length} of 40 answered 429\n`,
    );

    // Refused unchecked, so not counted: the known user signs in right after.
    await sleep(2_000);
    const after = await burst(1, 'after');
    expect(after[0].status).toBe(302);
    expect(after[0].headers.location).toBe('/app/');
    expect(await live()).toBe(true);
  }, 120_000);
});
