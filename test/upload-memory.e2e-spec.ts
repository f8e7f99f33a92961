import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@/platform/config/env';
import { freePort, resetState } from './support/app';
import { big835, ISA } from './x12/big-reports';

const ROOT = join(__dirname, '..');
const STARTUP_MS = 120_000;
const MB = 1_000_000;
/**
 * Under a pod's 384 MiB (deploy/) with room to spare. Measured: the built service idles near
 * 160 MB and peaks near 290 MB reading the 4.7 MB 835 below; before the limits, 10 MB of
 * segments took the heap and the process died.
 */
const RSS_BOUND = 340 * 1024 * 1024;

/** Peak resident memory (VmHWM) and current resident memory of a process, in bytes. */
function memoryOf(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
  return { peak: kb('VmHWM') * 1024, now: kb('VmRSS') * 1024 };
}

/**
 * Issue 40, "one upload takes the process down": the BUILT service, started as production starts
 * it (`node --max-old-space-size=256 dist/src/main.js`, as package.json's `start`; deploy/ gives
 * a pod 384 MiB), is sent hostile and huge claim reports. Each gets a 4xx or is read within the
 * limits, the process keeps answering, its peak memory stays bounded, and its logs carry no
 * report text.
 */
describe('claim report uploads against the built service (issue 40)', () => {
  let child: ChildProcess | null = null;
  let output = '';
  let base = '';
  let auth: Record<string, string> = {};

  beforeAll(async () => {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
    await resetState(loadConfig());
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--max-old-space-size=256', 'dist/src/main.js'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        PUBLIC_URL: base,
        WEB_CONCURRENCY: '1',
        ROLE: 'all',
        DEMO_SEED: 'true',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const deadline = Date.now() + STARTUP_MS;
    while (!output.includes('Listening on')) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the service did not start:\n${output.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    auth = { Authorization: `Api ${/API key:\s+(vk_\S+)/.exec(output)![1]}` };
  }, STARTUP_MS + 60_000);

  afterAll(() => {
    if (child?.pid && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  async function upload(body: string, type: 'text/plain' | 'application/json') {
    // Peak memory from here on: start-up (migrations, seeding) has a peak of its own.
    writeFileSync(`/proc/${child!.pid}/clear_refs`, '5');
    const res = await fetch(`${base}/api/auth/v1/claim-reports/`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': type },
      body,
    }).catch((e: unknown) => ({ status: 0, text: async () => String(e) }));
    return { status: res.status, body: await res.text() };
  }

  async function stillServing(): Promise<void> {
    const live = await fetch(`${base}/health/live`).catch(() => null);
    expect(child!.exitCode).toBeNull();
    expect(live?.status).toBe(200);
    expect(memoryOf(child!.pid!).peak).toBeLessThan(RSS_BOUND);
  }

  // A header, then segment after segment of nothing: every segment was an object before any check.
  const flood = (bytes: number) => ISA + 'AB~'.repeat(Math.ceil((bytes - ISA.length) / 3));

  it.each([
    ['text/plain', (s: string) => s],
    ['application/json', (s: string) => JSON.stringify({ x12: s })],
  ] as const)(
    'answers 10 MB of segments sent as %s with 413 and keeps serving',
    async (type, wrap) => {
      const res = await upload(wrap(flood(10 * MB)), type);
      expect(res).toEqual({
        status: 413,
        body: JSON.stringify({ detail: 'Request body too large.' }),
      });
      await stillServing();
    },
    60_000,
  );

  it('refuses a body under the size limit with too many segments, before reading them', async () => {
    const res = await upload(flood(5 * MB - 1000), 'text/plain');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      errors: {
        x12: {
          $: [
            'X12: the interchange has more than 100,000 segments, the most one interchange may have; split it',
          ],
        },
      },
    });
    await stillServing();
  }, 60_000);

  it('refuses one segment of a million and a half elements within the memory bound', async () => {
    const res = await upload(`${ISA}GS${'*ab'.repeat(1_500_000)}~`, 'text/plain');
    expect(res.status).toBe(400);
    await stillServing();
  }, 60_000);

  it('reads an 835 just under both limits within the memory bound', async () => {
    const text = big835(99_990, 'UPLOADMEMORY1');
    expect(text.length).toBeGreaterThan(4.5 * MB);
    const res = await upload(text, 'text/plain');
    expect(res.status).toBe(202);
    expect(JSON.parse(res.body)).toMatchObject({
      type: '835',
      claims_unmatched: expect.any(Number),
    });
    await stillServing();
  }, 120_000);

  it('never writes report text to the logs', () => {
    // The 835s name patients (NM1*QC); the flood is report text too.
    expect(output).not.toContain('PATIENTLAST');
    expect(output).not.toContain('AB~AB');
  });
});
