import { ChildProcess, spawn, SpawnOptions } from 'node:child_process';
import { createWriteStream, readFileSync, WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';

/**
 * Child processes of a bench run. Every child is tracked by pid and ended by pid: on a normal
 * end with SIGTERM, and on any exit of the orchestrator (error, Ctrl-C) with SIGKILL, so a failed
 * run leaves nothing behind.
 */
const children = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function killAllNow(): void {
  for (const child of children) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/** SIGTERM, then SIGKILL after `graceMs` if it is still there. */
export async function stop(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Runs a command to its end; rejects with its output when it fails. */
export function run(
  command: string,
  args: string[],
  options: SpawnOptions & { timeoutMs?: number; input?: string } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = options.input === undefined ? 'ignore' : 'pipe';
    const child = track(spawn(command, args, { ...options, stdio: [stdin, 'pipe', 'pipe'] }));
    if (options.input !== undefined) child.stdin!.end(options.input);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const timer = options.timeoutMs
      ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs)
      : undefined;
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else
        reject(
          new Error(
            `${command} ${args.join(' ')} ended with ${signal ?? `code ${code}`}:\n${(err || out).slice(-4000)}`,
          ),
        );
    });
  });
}

/** Starts a long-running child with its output appended to a log file. */
export function startLogged(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  logPath: string,
): { child: ChildProcess; log: WriteStream } {
  const log = createWriteStream(logPath, { flags: 'a' });
  const child = track(spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] }));
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  return { child, log };
}

/** Runs a TypeScript file of bench/ in its own node process (ts-node, transpile only). */
export function tsNodeArgs(file: string): string[] {
  return ['-r', 'ts-node/register/transpile-only', file];
}

let jobCounter = 0;

/** Runs bench/load-worker.ts with a job and returns its JSON answer. */
export async function runWorker<T>(
  benchDir: string,
  tmpDir: string,
  job: unknown,
  timeoutMs: number,
): Promise<T> {
  await mkdir(tmpDir, { recursive: true });
  const file = join(tmpDir, `job-${process.pid}-${++jobCounter}.json`);
  await writeFile(file, JSON.stringify(job));
  const out = await run(process.execPath, [...tsNodeArgs(join(benchDir, 'load-worker.ts')), file], {
    timeoutMs,
    env: { ...process.env, TS_NODE_PROJECT: join(benchDir, '..', 'tsconfig.json') },
  });
  const last = out.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as T;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Waits until GET `url` answers 200 (any status with `anyStatus`), or fails when `alive()` turns
 * false or time runs out.
 */
export async function waitForHttp(
  url: string,
  timeoutMs: number,
  alive: () => boolean,
  anyStatus = false,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await new Promise<number>((resolve) => {
      const req = http.get(url, { timeout: 1_000 }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(0));
    });
    if (status === 200 || (anyStatus && status > 0)) return;
    if (!alive()) throw new Error(`the process behind ${url} exited before it was ready`);
    if (Date.now() > deadline) throw new Error(`${url} not ready after ${timeoutMs} ms`);
    await sleep(250);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Samples the resident memory (VmRSS) of the processes `pids()` names every `intervalMs` (a
 * cluster: each of its processes), keeping the peak of any one process, overall and in the
 * current phase.
 */
export class RssMonitor {
  peakMb = 0;
  phasePeakMb = 0;
  lastMb = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly pids: () => number[],
    private readonly intervalMs = 200,
  ) {}

  start(): void {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Starts a new phase; returns the peak of the phase that ended. */
  phase(): number {
    this.sample();
    const peak = this.phasePeakMb;
    this.phasePeakMb = this.lastMb;
    return peak;
  }

  private sample(): void {
    let largest = 0;
    for (const pid of this.pids()) {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? NaN);
        if (Number.isFinite(kb)) largest = Math.max(largest, kb / 1024);
      } catch {
        // the process is gone; the orchestrator notices that on its own
      }
    }
    if (largest === 0) return;
    this.lastMb = Math.round(largest * 10) / 10;
    this.peakMb = Math.max(this.peakMb, this.lastMb);
    this.phasePeakMb = Math.max(this.phasePeakMb, this.lastMb);
  }
}
