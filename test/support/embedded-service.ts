import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The built service started as a user starts it, in a folder of its own, on the embedded
 * PostgreSQL (README.md, Quick start), and what the specs of test/embedded look at: its
 * processes in /proc (Linux) and the server's postmaster.pid.
 */
export const STARTUP_MS = 180_000;

/** The service's environment: the shell's, less the test run's settings, plus `extra`. */
export function serviceEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(DATABASE_|REDIS_|TEST_|MAIL_|DEMO_|PUBLIC_URL$|PORT$|WEB_CONCURRENCY$)/.test(name))
      delete env[name];
  }
  return { ...env, NODE_ENV: 'development', LOG_LEVEL: 'warn', ...extra };
}

export interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `command` (node itself by default) with `args`, in `cwd`; everything it prints is kept. */
export function run(
  args: string[],
  {
    cwd,
    env,
    command = process.execPath,
  }: { cwd: string; env: NodeJS.ProcessEnv; command?: string },
): Running {
  let output = '';
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** Polls `probe` every 100 ms until it gives a value; fails when `running` exits first. */
export async function until<T>(
  probe: () => T | Promise<T>,
  what: string,
  running?: Running,
  timeoutMs = STARTUP_MS,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline || running?.child.exitCode != null)
      throw new Error(`waiting for ${what}:\n${running?.output() ?? ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function status(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
}

/** A process that exists and is not a zombie (one nobody reaped yet has stopped all the same). */
export const alive = (pid: number) =>
  existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(status(pid));

/** The real uid a process runs as. */
export const uidOf = (pid: number) => Number(/^Uid:\s+(\d+)/m.exec(status(pid))?.[1]);

/** A process's children and theirs, from /proc. */
export function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** The postmaster of the embedded server whose files are in `root` (null: none running). */
export function postmasterPid(root: string): number | null {
  const file = join(root, 'data', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null;
}

/** A request with the API key `key`: GET, or POST with `body`. */
export async function api(base: string, key: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Api ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
