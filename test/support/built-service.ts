import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@/platform/config/env';
import { freePort, resetState } from './app';

const ROOT = join(__dirname, '..', '..');
export const STARTUP_MS = 120_000;

/** The built service, running as production runs it, and what it has printed so far. */
export interface BuiltService {
  child: ChildProcess;
  base: string;
  output(): string;
  stop(): void;
}

/**
 * Builds the service and starts it as production starts it (`node --max-old-space-size=256
 * dist/src/main.js`, as package.json's `start`; deploy/ gives a pod 384 MiB), on a clean state
 * with the demo account (its credentials are in `output()`).
 */
export async function startBuiltService(): Promise<BuiltService> {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  await resetState(loadConfig());
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--max-old-space-size=256', 'dist/src/main.js'], {
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
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + STARTUP_MS;
  // The demo banner comes after the listening line; its last line is the location.
  while (!output.includes('Listening on') || !output.includes('Location:')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the service did not start:\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    base,
    output: () => output,
    stop: () => {
      if (child.pid && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** Peak resident memory (VmHWM) and current resident memory of a process, in bytes. */
export function memoryOf(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
  return { peak: kb('VmHWM') * 1024, now: kb('VmRSS') * 1024 };
}

/** The peak from here on: start-up (migrations, seeding) and earlier requests have their own. */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}
