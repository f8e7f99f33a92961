import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/app';
import { DEMO, patient } from '../support/eligibility';
import {
  alive,
  api,
  descendants,
  postmasterPid as postmasterIn,
  run as runIn,
  serviceEnv as envWith,
  STARTUP_MS,
  until,
} from '../support/embedded-service';
import { TestReceiver } from '../support/receiver';

/**
 * README.md, Quick start (issue 48): `npm install && npm start` on a machine with Node.js alone.
 * A fresh folder holding what `npm start` builds from (src, package.json, the TypeScript and Nest
 * settings; node_modules linked), or a clean clone (FRESH_CHECKOUT, scripts/test-embedded.sh
 * --clone), is built as `prestart` builds, then started as `start` starts (package.json), with
 * DATABASE_URL=embedded and Redis at a port where nothing answers: it comes
 * up on the embedded PostgreSQL under its own var/postgres, a sandbox search completes and its
 * webhook is delivered, a second start (a cluster this time) finds the same data, and stopping
 * the service, by SIGTERM, SIGINT or even SIGKILL, leaves no PostgreSQL process behind. The CLI does the same
 * on its own. A configured DATABASE_URL that nothing answers stops start-up with one line.
 *
 * In `npm test` (a few minutes: it builds the service and starts PostgreSQL three times), which
 * .ci/run runs where nothing listens and only Node.js is on the PATH. Linux: processes are looked
 * up in /proc.
 */
const ROOT = join(__dirname, '..', '..');
const [node, ...startArgs] = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start.split(' ');

/** What `npm start` builds from (package.json's prestart: nest build). */
const BUILT_FROM = [
  'src',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'nest-cli.json',
  'ormconfig.ts',
];
let dir = '';
let made = false;
let redisUrl = '';

beforeAll(() => {
  expect(node).toBe('node');
  if (process.env.FRESH_CHECKOUT) {
    // scripts/test-embedded.sh --clone: a clean clone, npm install done in it.
    dir = process.env.FRESH_CHECKOUT;
  } else {
    dir = mkdtempSync(join(tmpdir(), 'vision-fresh-'));
    made = true;
    for (const entry of BUILT_FROM)
      cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  }
  // As root the server runs as the user postgres, who must reach var/postgres.
  chmodSync(dir, 0o755);
  execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'ignore' });
}, STARTUP_MS);

beforeEach(async () => {
  redisUrl = `redis://127.0.0.1:${await freePort()}`;
});

afterAll(() => {
  if (made) rmSync(dir, { recursive: true, force: true });
});

const serviceEnv = (extra: Record<string, string>) => envWith({ REDIS_URL: redisUrl, ...extra });
const run = (args: string[], env: NodeJS.ProcessEnv) => runIn(args, { cwd: dir, env });
/** The embedded server's postmaster, from var/postgres/data/postmaster.pid (null: none running). */
const postmasterPid = () => postmasterIn(join(dir, 'var', 'postgres'));

/** Starts the built service as `npm start` runs it; resolves once it listens. */
async function startService(extra: Record<string, string>) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const service = run(
    startArgs,
    serviceEnv({ DATABASE_URL: 'embedded', PORT: String(port), PUBLIC_URL: base, ...extra }),
  );
  await until(() => service.output().includes('Listening on'), 'the service to listen', service);
  return { ...service, base };
}

describe('a fresh machine: npm start on the embedded PostgreSQL, without Redis', () => {
  it(
    'stops start-up with one clear line when a configured DATABASE_URL does not answer, and never falls back',
    async () => {
      const dead = `postgres://postgres@127.0.0.1:${await freePort()}/vision`;
      const service = run(startArgs, serviceEnv({ DATABASE_URL: dead, PORT: '0' }));
      const { code } = await service.exited;
      expect(code).toBe(1);
      const lines = service.output().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Start-up failed: .*ECONNREFUSED 127\.0\.0\.1:\d+$/);
      expect(existsSync(join(dir, 'var', 'postgres'))).toBe(false);
    },
    STARTUP_MS,
  );

  it(
    'serves a search and its webhook, keeps the data for the next start, and leaves no process behind',
    async () => {
      const receiver = await new TestReceiver().start();
      try {
        // The first start: initdb, migrations, the demo account; one process (SIGTERM).
        const first = await startService({ WEB_CONCURRENCY: '1', DEMO_SEED: 'true' });
        const banner = first.output().split('\n');
        expect(banner.filter((l) => l.startsWith('Database: '))).toEqual([
          expect.stringMatching(
            /^Database: embedded PostgreSQL 15\.\d+ on 127\.0\.0\.1:\d+, data in var\/postgres \(DATABASE_URL=embedded\); it stops with the service\.$/,
          ),
        ]);
        expect(banner).toContain(
          `Redis: nothing answers at ${redisUrl.slice('redis://'.length)}; running on PostgreSQL ` +
            'alone until it does (work runs in the process that accepted it, rate limits count per process).',
        );
        const key = await until(
          () => /API key:\s+(vk_\S+)/.exec(first.output())?.[1],
          'the demo banner',
          first,
        );
        const server = postmasterPid()!;
        expect(alive(server)).toBe(true);
        // The keeper, the server and its processes: all the service's own.
        const tree = descendants(first.child.pid!);
        expect(tree).toContain(server);
        const password = readFileSync(join(dir, 'var', 'postgres', 'password'), 'utf8');

        const hook = await api(first.base, key, '/api/auth/v1/webhooks/', { url: receiver.url() });
        expect(hook.status).toBe(201);
        const search = await api(first.base, key, '/api/auth/v1/eligibility/', {
          insurer_code: DEMO,
          patient: patient(),
        });
        expect(search.status).toBe(201);
        const uid = search.body.request_uid as string;
        await until(
          async () =>
            (await api(first.base, key, `/api/auth/v2/eligibility/${uid}/`)).body.status ===
            'complete',
          'the search to complete',
          first,
        );
        const delivered = await until(
          () => receiver.received.find((r) => JSON.parse(r.raw.toString()).request_uid === uid),
          'the webhook',
          first,
        );
        expect(delivered.path).toBe('/hook');
        // Redis's absence is said once by the banner and once per client, never per reconnection.
        expect(first.output()).not.toContain('Unhandled error event');

        first.child.kill('SIGTERM');
        await first.exited;
        // The keeper stops the server once the service is gone; both then exit.
        await until(() => tree.every((p) => !alive(p)), 'the server to stop');
        expect(postmasterPid()).toBeNull();

        // The second start: the same cluster and data (no initdb, no migration, no new demo
        // account; the key and the search still there), as a cluster of two (SIGINT).
        const second = await startService({ WEB_CONCURRENCY: '2', DEMO_SEED: 'true' });
        expect(second.output()).toContain('Database: embedded PostgreSQL');
        expect(second.output()).not.toContain('Applied');
        await until(() => second.output().includes('with 2 processes'), 'the cluster', second);
        expect(second.output()).not.toContain('Demo account created');
        expect(readFileSync(join(dir, 'var', 'postgres', 'password'), 'utf8')).toBe(password);
        const again = await api(second.base, key, `/api/auth/v2/eligibility/${uid}/`);
        expect(again).toMatchObject({ status: 200, body: { status: 'complete' } });
        const secondServer = postmasterPid()!;
        const processes = descendants(second.child.pid!);
        expect(processes).toContain(secondServer);

        second.child.kill('SIGINT');
        expect(await second.exited).toEqual({ code: 0, signal: null });
        expect(second.output()).toContain('All processes stopped.');
        // The supervisor waits for the server: nothing of it is left when `npm start` ends.
        expect(processes.filter(alive)).toEqual([]);
        expect(postmasterPid()).toBeNull();
      } finally {
        await receiver.stop();
      }
    },
    4 * STARTUP_MS,
  );

  it(
    'stops the server when the service is killed outright (kill -9): its keeper sees it go',
    async () => {
      const service = await startService({ WEB_CONCURRENCY: '1' });
      const server = postmasterPid()!;
      const tree = descendants(service.child.pid!);
      expect(tree).toContain(server);
      service.child.kill('SIGKILL');
      expect(await service.exited).toEqual({ code: null, signal: 'SIGKILL' });
      await until(() => tree.every((p) => !alive(p)), 'the server to stop');
      // A clean shutdown: postgres removed its postmaster.pid.
      expect(postmasterPid()).toBeNull();
    },
    STARTUP_MS,
  );

  it(
    'runs a CLI command on the embedded server, its JSON alone on standard output, and stops it',
    async () => {
      let stdout = '';
      const cli = run(
        [
          join('dist', 'src', 'cli.js'),
          'accounts:create',
          '--name',
          'Fresh Optics',
          '--email',
          'owner@fresh.test',
          '--password',
          'long-enough-pw',
        ],
        serviceEnv({ DATABASE_URL: 'embedded' }),
      );
      cli.child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
      expect(await cli.exited).toEqual({ code: 0, signal: null });
      expect(JSON.parse(stdout)).toMatchObject({
        account: { name: 'Fresh Optics', email: 'owner@fresh.test' },
        api_key: expect.stringMatching(/^vk_/),
      });
      expect(stdout.trim().split('\n')).toHaveLength(1);
      expect(cli.output()).toMatch(
        /^Database: embedded PostgreSQL 15\.\d+ on 127\.0\.0\.1:\d+, data in var\/postgres \(DATABASE_URL=embedded\); it stops with this command\.$/m,
      );
      // Stopped before the command ended: postgres removes postmaster.pid as it exits.
      expect(postmasterPid()).toBeNull();
    },
    STARTUP_MS,
  );
});
