import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  chownSync,
  rmSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What the fault suite runs on: its own PostgreSQL cluster and its own redis-server, on spare
 * loopback ports in a temporary folder, so stopping them never touches the machine's shared
 * services; and the built service itself (dist/src/main.js) as child processes.
 */

export const ROOT = join(__dirname, '..', '..');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function sparePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it is truthy or the deadline passes (then throws naming `what`). */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs: number,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(
        `${what}: not within ${timeoutMs} ms${last instanceof Error ? ` (${last.message})` : ''}`,
      );
    await sleep(everyMs);
  }
}

function postgresBin(name: string): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).sort((x, y) => Number(y) - Number(x)) : [];
  for (const v of versions) {
    const path = join(base, v, 'bin', name);
    if (existsSync(path)) return path;
  }
  return name; // on PATH
}

/** initdb refuses to run as root: run the cluster as the postgres user then. */
function asPostgresUser(cmd: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0
    ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]]
    : [cmd, args];
}

export class PgCluster {
  readonly dir: string;
  port = 0;

  constructor(readonly workDir: string) {
    this.dir = join(workDir, 'pg');
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async init(): Promise<void> {
    this.port = await sparePort();
    if (process.getuid?.() === 0) chownSync(this.workDir, uidOf('postgres'), gidOf('postgres'));
    const [cmd, args] = asPostgresUser(postgresBin('initdb'), [
      '-D',
      this.dir,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
    ]);
    execFileSync(cmd, args, { stdio: 'ignore' });
    await this.start();
  }

  async start(): Promise<void> {
    // fsync off: the suite kills processes, never the machine, so written data survives anyway.
    const [cmd, args] = asPostgresUser(postgresBin('pg_ctl'), [
      '-D',
      this.dir,
      '-l',
      join(this.workDir, 'pg.log'),
      '-w',
      '-o',
      `-p ${this.port} -k ${this.workDir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`,
      'start',
    ]);
    execFileSync(cmd, args, { stdio: 'ignore' });
  }

  /** `immediate` is a crash of the server (recovery on the next start); `fast` a clean stop. */
  stop(mode: 'fast' | 'immediate' = 'fast'): void {
    const [cmd, args] = asPostgresUser(postgresBin('pg_ctl'), [
      '-D',
      this.dir,
      '-m',
      mode,
      '-w',
      'stop',
    ]);
    try {
      execFileSync(cmd, args, { stdio: 'ignore' });
    } catch {
      // already stopped
    }
  }
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user]).toString().trim());
}
function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user]).toString().trim());
}

export class RedisServer {
  port = 0;
  private child: ChildProcess | null = null;

  constructor(private readonly workDir: string) {}

  url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (!this.port) this.port = await sparePort();
    // No persistence: a restart loses every job, the harshest case for the queues.
    this.child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.workDir,
      ],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    await waitFor('redis-server to answer', () => this.ping(), 10_000, 50);
  }

  ping(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = net.connect(this.port, '127.0.0.1');
      socket.setTimeout(500);
      socket.on('connect', () => socket.write('PING\r\n'));
      socket.on('data', (d) => {
        resolve(d.toString().startsWith('+PONG'));
        socket.destroy();
      });
      socket.on('error', () => resolve(false));
      socket.on('timeout', () => {
        resolve(false);
        socket.destroy();
      });
    });
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    this.child = null;
  }
}

export interface ServiceOptions {
  name: string;
  role: 'all' | 'api' | 'worker';
  env: Record<string, string>;
}

/** One process of the built service. */
export class ServiceProcess {
  child: ChildProcess | null = null;
  port = 0;
  starts = 0;

  constructor(
    readonly options: ServiceOptions,
    private readonly logDir: string,
  ) {}

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (!this.port) this.port = await sparePort();
    this.starts++;
    const log = createWriteStream(join(this.logDir, `${this.options.name}.${this.starts}.log`));
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'main.js')], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        ...this.options.env,
        ROLE: this.options.role,
        PORT: String(this.port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let output = '';
    const ready = this.options.role === 'worker' ? 'Worker started' : 'Listening on';
    const started = new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d.toString();
        if (output.includes(ready)) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.once('exit', (code) =>
        reject(new Error(`${this.options.name} exited (${code}): ${output.slice(-2000)}`)),
      );
    });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    await Promise.race([
      started,
      sleep(60_000).then(() => {
        throw new Error(`${this.options.name} did not start in 60 s: ${output.slice(-2000)}`);
      }),
    ]);
  }

  /** kill -9: no shutdown hooks, jobs and leases left as they were. */
  async kill9(): Promise<void> {
    await this.signal('SIGKILL');
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null && child.signalCode === null) await this.signal('SIGKILL');
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  }
}

export interface Delivery {
  deliveryId: string;
  requestUid: string;
  body: string;
  at: number;
}

/**
 * The webhook receiver: records every delivery (X-Delivery-Id, the result's request_uid, the raw
 * body). `reply` decides the answer per delivery id and attempt; it can be stopped and started
 * on the same port (a receiver that is down refuses connections).
 */
export class Receiver {
  readonly deliveries: Delivery[] = [];
  readonly attemptsById = new Map<string, number>();
  reply: (deliveryId: string, attempt: number) => number = () => 200;
  port = 0;
  private server: http.Server | null = null;

  async start(): Promise<void> {
    if (!this.port) this.port = await sparePort();
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const deliveryId = String(req.headers['x-delivery-id'] ?? '');
        const attempt = (this.attemptsById.get(deliveryId) ?? 0) + 1;
        this.attemptsById.set(deliveryId, attempt);
        const status = this.reply(deliveryId, attempt);
        if (status >= 200 && status < 300) {
          let requestUid = '';
          try {
            requestUid = (JSON.parse(body) as { request_uid: string }).request_uid;
          } catch {
            // recorded with an empty uid: shows up as not delivered
          }
          this.deliveries.push({ deliveryId, requestUid, body, at: Date.now() });
        }
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  uidsDelivered(): Set<string> {
    return new Set(this.deliveries.map((d) => d.requestUid));
  }
}

export function makeWorkDir(): string {
  return mkdtempSync(join(tmpdir(), 'vision-faults-'));
}

export function removeWorkDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
