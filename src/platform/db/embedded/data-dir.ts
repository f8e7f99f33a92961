import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import type { PostgresBinaries } from './binaries';

/** The superuser the service connects as (password-protected, loopback only). */
export const SUPERUSER = 'postgres';

/** What lives under the embedded server's folder (var/postgres). */
export interface DataDir {
  /** var/postgres, absolute. */
  root: string;
  /** The cluster (PGDATA). */
  data: string;
  /** The superuser's password, made at initdb, mode 0600. */
  password: string;
  /** The server's log of its last start. */
  log: string;
  /** Held (a folder) while a process starts the server, so two starts never race. */
  lock: string;
}

export function dataDir(dir: string): DataDir {
  const root = resolve(dir);
  return {
    root,
    data: join(root, 'data'),
    password: join(root, 'password'),
    log: join(root, 'postgres.log'),
    lock: join(root, 'start.lock'),
  };
}

/** Who runs the server when this process is root (./place.ts); null: this process's user. */
export type ServerUser = { uid: number; gid: number; name: string } | null;

/**
 * Creates the cluster on the first start (initdb: UTF-8, C collation as the usual servers'
 * C.UTF-8 sorts, scram-sha-256 passwords) and answers the superuser's password.
 */
export function initialise(dir: DataDir, bins: PostgresBinaries, user: ServerUser): string {
  if (existsSync(join(dir.data, 'PG_VERSION'))) {
    if (!existsSync(dir.password)) {
      throw new Error(
        `${dir.password} is missing: delete ${dir.root} to start over (its data goes)`,
      );
    }
    return readPassword(dir);
  }
  mkdirSync(dir.data, { recursive: true, mode: 0o700 });
  const password = randomBytes(24).toString('hex');
  writeFileSync(dir.password, `${password}\n`, { mode: 0o600 });
  if (user) {
    chownSync(dir.data, user.uid, user.gid);
    chownSync(dir.password, user.uid, user.gid);
  }
  const result = spawnSync(
    bins.initdb,
    [
      `--pgdata=${dir.data}`,
      `--username=${SUPERUSER}`,
      `--pwfile=${dir.password}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C',
      `--lc-ctype=${utf8Ctype()}`,
      '--lc-messages=C',
    ],
    { encoding: 'utf8', windowsHide: true, ...(user ?? {}) },
  );
  if (result.status !== 0) {
    const why = (result.error?.message ?? result.stderr ?? '').trim().split('\n').pop() ?? '';
    const hint =
      user && /Permission denied/.test(why)
        ? ` (it runs as the user ${user.name}, who must be able to reach ${dir.root})`
        : '';
    throw new Error(`initdb of the embedded PostgreSQL in ${dir.data} failed: ${why}${hint}`);
  }
  return password;
}

export function readPassword(dir: DataDir): string {
  return readFileSync(dir.password, 'utf8').trim();
}

/**
 * Character classes for UTF-8 text (upper() and lower() beyond ASCII), from the locales this
 * machine has; collation stays C in any case.
 */
function utf8Ctype(): string {
  if (process.platform === 'win32') return 'C';
  const listed = spawnSync('locale', ['-a'], { encoding: 'utf8' }).stdout ?? '';
  const have = new Set(listed.split(/\r?\n/).map((l) => l.trim()));
  return ['C.UTF-8', 'C.utf8', 'en_US.UTF-8', 'en_US.utf8'].find((l) => have.has(l)) ?? 'C';
}

/** The running server's process id and port, from its postmaster.pid (null: none recorded). */
export function postmaster(dir: DataDir): { pid: number; port: number } | null {
  let lines: string[];
  try {
    lines = readFileSync(join(dir.data, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && pid > 0 && Number.isInteger(port) ? { pid, port } : null;
}

/**
 * The server recorded in postmaster.pid when it is still running, or null. A postmaster.pid left
 * by a server that did not stop (a crash, a power cut) may name a process id that now belongs to
 * another program: PostgreSQL would then refuse to start ("lock file already exists"), and waiting
 * for that program to answer would hang start-up, so such a file is removed.
 */
export function runningPostmaster(dir: DataDir): { pid: number; port: number } | null {
  const found = postmaster(dir);
  if (!found) return null;
  const running = alive(found.pid) ? isPostgres(found.pid) : false;
  if (running) return found;
  rmSync(join(dir.data, 'postmaster.pid'), { force: true });
  return null;
}

/**
 * Whether process `pid` is a PostgreSQL server: its command on Linux (/proc) and other Unixes
 * (`ps`). Where neither can tell (Windows, a process of another user hidden from `ps`), a live
 * process is taken for the server, as before.
 */
function isPostgres(pid: number): boolean {
  if (process.platform === 'linux') {
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return alive(pid);
    }
  }
  if (process.platform === 'win32') return alive(pid);
  const ps = spawnSync('ps', ['-p', String(pid), '-o', 'comm='], { encoding: 'utf8' });
  if (ps.status !== 0 || ps.error) return alive(pid);
  return /(^|\/)postgres$/.test(ps.stdout.trim());
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `fn` holding the start lock (a folder: creating it is atomic everywhere). A lock whose
 * holder died is taken over; one being created (no pid written yet) is waited for.
 */
export async function withStartLock<T>(dir: DataDir, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(dir.lock);
      writeFileSync(join(dir.lock, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = Number(readOr(join(dir.lock, 'pid'), '0'));
    const stale = holder > 0 ? !alive(holder) : ageMs(dir.lock) > 10_000;
    if (stale) {
      rmSync(dir.lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`another process (pid ${holder}) is starting the embedded PostgreSQL`);
    }
    await sleep(200);
  }
  try {
    return await fn();
  } finally {
    rmSync(dir.lock, { recursive: true, force: true });
  }
}

function readOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return fallback;
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
}
