import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { loadConfig } from '@/platform/config/env';
import { freePort, resetState } from './support/app';
import { DEMO, patient } from './support/eligibility';

const STARTUP_MS = 150_000;

function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

let output = '';

async function until<T>(probe: () => T | Promise<T>, what: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * `npm start` as a cluster (docs/configuration.md, ROLE): the supervisor applies migrations, starts
 * WEB_CONCURRENCY processes that serve the API and run the queues (ROLE=all), restarts one that
 * dies, and stops them all on SIGTERM. Runs src/main.ts as a child process (ts-node), against this worker's database.
 */
describe('npm start as a cluster', () => {
  let main: ChildProcess | null = null;
  // Held open for the whole test: other test runs drop test databases nobody is connected to,
  // and between the supervisor's migrations and the processes' first queries nobody might be.
  let holder: Client | null = null;

  afterAll(async () => {
    if (main?.pid && main.exitCode === null && main.signalCode === null) main.kill('SIGKILL');
    await holder?.end();
  });

  it(
    'serves from two processes that also run the queues, survives a crash, and stops cleanly on SIGTERM',
    async () => {
      const config = loadConfig();
      await resetState(config);
      holder = new Client({ connectionString: config.databaseUrl });
      await holder.connect();
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      main = spawn(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'src/main.ts'],
        {
          cwd: join(__dirname, '..'),
          env: {
            ...process.env,
            TS_NODE_PROJECT: 'tsconfig.json',
            PORT: String(port),
            PUBLIC_URL: base,
            WEB_CONCURRENCY: '2',
            ROLE: 'all',
            DEMO_SEED: 'true',
            LOG_LEVEL: 'warn',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      main.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      main.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      const exited = new Promise<number | null>((resolve) => main!.once('exit', resolve));

      await until(() => output.includes('Listening on'), 'the cluster to listen', STARTUP_MS);
      expect(output).toContain('with 2 processes serving the API and running the queues');
      // Every API process seeds on an empty database; the advisory lock lets exactly one do it.
      // Its banner comes last, after every process listens (the route log cannot bury it).
      await until(() => output.includes('Try it:'), 'the demo banner', STARTUP_MS);
      expect(output.match(/Demo account created/g)).toHaveLength(1);
      expect(output.indexOf('Demo account created')).toBeGreaterThan(
        output.indexOf('Listening on'),
      );
      const key = /API key:\s+(vk_\S+)/.exec(output)![1];
      const auth = { Authorization: `Api ${key}` };
      const children = childPids(main.pid!);
      expect(children).toHaveLength(2);

      const http = request(base);
      for (let i = 0; i < 10; i++) {
        expect((await http.get('/api/auth/v1/locations/').set(auth)).status).toBe(200);
      }
      // The search runs in the process that accepted it (its local lane).
      const created = await http
        .post('/api/auth/v1/eligibility/')
        .set(auth)
        .send({ insurer_code: DEMO, patient: patient() });
      expect(created.status).toBe(201);
      const uid = created.body.request_uid as string;
      await until(
        async () =>
          (await http.get(`/api/auth/v2/eligibility/${uid}/`).set(auth)).body.status === 'complete',
        'the search to complete',
        30_000,
      );
      const { rows } = await holder.query(
        'SELECT lease_job FROM eligibility_requests WHERE uid = $1',
        [uid],
      );
      expect(rows[0].lease_job).toMatch(/^search:l[0-9a-f]{8}\.\d+$/);

      // An API process that dies is replaced; the other one serves meanwhile.
      const apiChild = children[0];
      process.kill(apiChild, 'SIGKILL');
      await until(
        () => {
          const now = childPids(main!.pid!);
          return now.length === 2 && !now.includes(apiChild);
        },
        'the replacement process',
        10_000,
      );
      for (let i = 0; i < 10; i++) {
        expect((await http.get('/api/auth/v1/locations/').set(auth)).status).toBe(200);
      }
      const replaced = childPids(main.pid!);

      main.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toContain('All processes stopped.');
      for (const pid of replaced) expect(existsSync(`/proc/${pid}`)).toBe(false);
      expect(output).not.toContain('Start-up failed');
    },
    STARTUP_MS + 120_000,
  );
});
