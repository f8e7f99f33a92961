import { copyFileSync, chmodSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answers } from '@/platform/db/embedded';
import { freePort } from '../support/app';
import { ensureBuilt } from '../support/built-service';
import {
  alive,
  descendants,
  postmasterPid,
  run,
  serviceEnv,
  STARTUP_MS,
  until,
} from '../support/embedded-service';

/**
 * CONTRACT §28, README.md, Quick start: SIGTERM to `npm start` (a process manager's stop) stops
 * the service and its embedded PostgreSQL. npm passes the signal to the shell it runs the script
 * in, which dies of it without passing it on (src/parent-watch.ts). `npm start --ignore-scripts`
 * (no prestart build: dist/ is the one ensureBuilt made, linked), in a folder of its own, so its
 * var/postgres is its own too. Linux: processes are looked up in /proc.
 */
const ROOT = join(__dirname, '..', '..');
/** What a process manager waits before it kills (systemd waits 90 s; the contract asks 10). */
const STOP_MS = 10_000;
let dir = '';
/** The processes of the case running: killed after it when it failed to stop them. */
let started: number[] = [];

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'vision-npm-start-'));
  // As root the server runs as the user postgres, who must reach var/postgres.
  chmodSync(dir, 0o755);
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  for (const linked of ['dist', 'node_modules']) symlinkSync(join(ROOT, linked), join(dir, linked));
}, STARTUP_MS);

afterEach(async () => {
  for (const pid of started.filter(alive)) process.kill(pid, 'SIGKILL');
  await until(() => !started.some(alive), 'the processes left to die', undefined, STOP_MS);
  started = [];
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SIGTERM to npm start', () => {
  it.each(['1', '2'])(
    'stops the service (WEB_CONCURRENCY=%s) and its embedded PostgreSQL within 10 s',
    async (processes) => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const npm = run(['start', '--ignore-scripts'], {
        cwd: dir,
        command: 'npm',
        env: serviceEnv({
          DATABASE_URL: 'embedded',
          REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
          PORT: String(port),
          PUBLIC_URL: base,
          WEB_CONCURRENCY: processes,
        }),
      });
      await until(
        async () => (await fetch(`${base}/health/live`).catch(() => null))?.status === 200,
        'the service to answer',
        npm,
      );
      const server = postmasterPid(join(dir, 'var', 'postgres'))!;
      // npm's shell, the service (and a cluster's processes), the keeper, the server's processes.
      const tree = descendants(npm.child.pid!);
      started = [npm.child.pid!, ...tree];
      expect(tree).toContain(server);
      expect(tree.length).toBeGreaterThan(3);
      const serverPort = Number(/on 127\.0\.0\.1:(\d+), data in/.exec(npm.output())?.[1]);
      expect(await answers(serverPort)).toBe(true);

      const sent = Date.now();
      npm.child.kill('SIGTERM');
      // npm itself exits at once; the others are waited for.
      await until(() => !started.some(alive), 'every process to stop', undefined, STOP_MS).catch(
        () => {
          throw new Error(
            `still running ${STOP_MS} ms after SIGTERM: ${started.filter(alive).join(', ')}`,
          );
        },
      );
      expect(Date.now() - sent).toBeLessThan(STOP_MS);
      expect(await answers(serverPort)).toBe(false);
      // A clean stop: the server removed its postmaster.pid as it exited.
      expect(postmasterPid(join(dir, 'var', 'postgres'))).toBeNull();
    },
    STARTUP_MS,
  );
});
