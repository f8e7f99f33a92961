import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@/platform/config/env';
import { freePort, resetState } from './app';

const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'src', 'main.js');
const LOCK = join(ROOT, 'dist.building');
export const MIB = 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * What the image runs, built from the current sources once per change: a spec finding dist/ older
 * than src/ builds it, under a lock, so specs of one run in parallel never rebuild (nest build
 * empties dist/) under a service another spec started.
 */
export async function ensureBuilt(): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${LOCK} held for 5 minutes`);
      // A lock left by a run that was killed while building (a build takes well under this).
      const since = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (since > 180_000) rmdirSync(LOCK);
      await sleep(500);
    }
  }
  try {
    let built = 0;
    try {
      built = statSync(MAIN).mtimeMs;
    } catch {
      built = 0;
    }
    if (built < newestSource(join(ROOT, 'src')))
      execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], {
        cwd: ROOT,
        stdio: 'ignore',
      });
  } finally {
    rmdirSync(LOCK);
  }
}

/** The peak (VmHWM) from here on: start-up and earlier requests have their own. */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** `VmRSS` or `VmHWM` (the peak) of a process, in bytes, from /proc. */
export function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!kb) throw new Error(`no ${field} for ${pid}`);
  return Number(kb[1]) * 1024;
}

export interface BuiltService {
  base: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  alive: () => boolean;
  stop: () => Promise<void>;
}

/** The built service as `npm start` runs it (its heap limit included), one process. */
export async function startBuilt(env: NodeJS.ProcessEnv = {}): Promise<BuiltService> {
  await ensureBuilt();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--max-old-space-size=256', MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      ROLE: 'api',
      WEB_CONCURRENCY: '1',
      PORT: String(port),
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Everything it prints, up to 4 MiB (a spec reads the demo banner at the start).
  const keep = (d: Buffer) => {
    if (output.length < 4 * MIB) output += d.toString();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const alive = () => child.exitCode === null && child.signalCode === null;
  const deadline = Date.now() + 90_000;
  while ((await fetch(`${base}/health/live`).catch(() => null))?.status !== 200) {
    if (Date.now() > deadline || !alive())
      throw new Error(`the service did not start:\n${output.slice(-3000)}`);
    await sleep(200);
  }
  return {
    base,
    port,
    child,
    output: () => output,
    alive,
    stop: async () => {
      if (!alive()) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (alive()) child.kill('SIGKILL');
    },
  };
}

export interface Watched<T> {
  result: T;
  /** Highest RSS sampled, in bytes. */
  peak: number;
  /** Slowest /health/live answer, in ms (a probe that failed counts as Infinity). */
  slowestProbeMs: number;
  probes: number;
}

/** Runs `work` while sampling the service's RSS every 10 ms and /health/live every 100 ms. */
export async function watched<T>(
  service: BuiltService,
  work: () => Promise<T>,
): Promise<Watched<T>> {
  const pid = service.child.pid!;
  let peak = 0;
  let slowest = 0;
  let probes = 0;
  let running = true;
  const sampler = (async () => {
    while (running && service.alive()) {
      try {
        peak = Math.max(peak, memoryOf(pid, 'VmRSS'));
      } catch {
        break; // the process is gone (the spec's alive() check says so)
      }
      await sleep(10);
    }
  })();
  const prober = (async () => {
    while (running) {
      const started = Date.now();
      const ok = await fetch(`${service.base}/health/live`, { signal: AbortSignal.timeout(5_000) })
        .then((r) => r.status === 200)
        .catch(() => false);
      const took = Date.now() - started;
      slowest = Math.max(slowest, ok ? took : Infinity);
      probes++;
      await sleep(Math.max(0, 100 - took));
    }
  })();
  try {
    const result = await work();
    return { result, peak, slowestProbeMs: slowest, probes };
  } finally {
    running = false;
    await Promise.all([sampler, prober]);
  }
}

/** How long a built service may take to start (a build, migrations and the demo seed). */
export const STARTUP_MS = 120_000;

/**
 * The built service with everything in one process (`ROLE=all`) on a clean state and the demo
 * account, whose key and web login its banner prints (`output()`).
 */
export async function startBuiltService(env: NodeJS.ProcessEnv = {}): Promise<BuiltService> {
  await resetState(loadConfig());
  const service = await startBuilt({ ROLE: 'all', DEMO_SEED: 'true', LOG_LEVEL: 'info', ...env });
  const deadline = Date.now() + 60_000;
  // The demo banner comes after the listening line; its last line is the location.
  while (!service.output().includes('Location:')) {
    if (!service.alive() || Date.now() > deadline)
      throw new Error(`the service printed no demo banner:\n${service.output().slice(-3000)}`);
    await sleep(100);
  }
  return service;
}
