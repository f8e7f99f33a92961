import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { locateBinaries, type PostgresBinaries } from './binaries';
import {
  alive,
  initialise,
  postmaster,
  readPassword,
  runningPostmaster,
  SUPERUSER,
  withStartLock,
} from './data-dir';
import { KEEPER_SOURCE } from './keeper';
import { makePlace, type Place, placeOf, runnableBinaries } from './place';

/** Where `npm start`, the CLI and `npm test` keep the embedded server (README.md, Quick start). */
export const EMBEDDED_DIR = 'var/postgres';
/** PostgreSQL's usual port: the embedded server takes it when nothing else answers there. */
export const STANDARD_PORT = 5432;

export interface EmbeddedServer {
  /** A URL of one of the server's databases, with the superuser's credentials. */
  url(database: string): string;
  port: number;
  /** The postmaster's process id. */
  pid: number;
  /** `15.18` when started here; the major version (`15`) of a server found running. */
  version: string;
  /** The folder of its files: as given (var/postgres), or another one (`moved`). */
  dir: string;
  /** Why its files are not in the folder given (null: they are). */
  moved: string | null;
  /**
   * Started by this process: stopped by `stop()`, or by its keeper when this process exits.
   * False: a server another process started (a running `npm start`), used as it is.
   */
  owned: boolean;
  /** Stops an owned server and waits until its processes are gone; nothing for another's. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The embedded PostgreSQL of `dir`: the one already running there (another process's), or one
 * started now (initdb on the first start), on 127.0.0.1 only, on port 5432 unless something
 * answers there, else on a free port, never one of `avoid` (the ports the service listens on
 * after it: a port freed a moment ago may be handed out again). As root its files may live
 * elsewhere (./place.ts).
 */
export async function startEmbedded(
  dir: string = EMBEDDED_DIR,
  avoid: readonly number[] = [],
): Promise<EmbeddedServer> {
  const place = placeOf(dir);
  makePlace(place);
  return withStartLock(place.files, async () => {
    const running = await runningIn(dir, place);
    if (running) return running;
    const bins = runnableBinaries(locateBinaries(), place);
    const password = initialise(place.files, bins, place.user);
    for (let attempt = 1; ; attempt++) {
      const port = await choosePort(avoid);
      try {
        return await launch(dir, place, bins, password, port);
      } catch (e) {
        // Another program took the port between the choice and the bind: choose again.
        const raced = /could not bind|could not create listen socket|already in use/i;
        if (attempt >= 3 || !raced.test((e as Error).message)) throw e;
      }
    }
  });
}

/** The embedded server running in `dir` (started by another process), or null. */
export function runningEmbedded(dir: string = EMBEDDED_DIR): Promise<EmbeddedServer | null> {
  return runningIn(dir, placeOf(dir));
}

async function runningIn(dir: string, place: Place): Promise<EmbeddedServer | null> {
  const { files } = place;
  const found = runningPostmaster(files);
  if (!found) return null;
  const password = readPassword(files);
  // A server still starting, or stopping: wait until it answers, or is gone.
  const deadline = Date.now() + 60_000;
  while (alive(found.pid)) {
    if (await accepts(found.port, password)) {
      const major = readFileSync(join(files.data, 'PG_VERSION'), 'utf8').trim();
      return server(shown(dir, place), found, password, major, null);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `the embedded PostgreSQL in ${shown(dir, place).dir} (pid ${found.pid}) does not answer on port ${found.port}`,
      );
    }
    await sleep(200);
  }
  return null;
}

/** True when something accepts TCP connections on 127.0.0.1:`port`. */
export function answers(port: number, host = '127.0.0.1', timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function launch(
  dir: string,
  place: Place,
  bins: PostgresBinaries,
  password: string,
  port: number,
): Promise<EmbeddedServer> {
  const { files, user } = place;
  const options = {
    postgres: bins.postgres,
    pgCtl: bins.pgCtl,
    dataDir: files.data,
    uid: user?.uid ?? null,
    gid: user?.gid ?? null,
    args: [
      '-D',
      files.data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      // TCP only: no socket file to collide with a PostgreSQL of the machine.
      '-c',
      'unix_socket_directories=',
      '-c',
      'lc_messages=C',
    ],
  };
  const log = openSync(files.log, 'w');
  // Its own process group: Ctrl-C in a terminal reaches the service, which stops first.
  const keeper = spawn(process.execPath, ['-e', KEEPER_SOURCE, JSON.stringify(options)], {
    detached: true,
    stdio: ['ignore', log, log, 'ipc'],
    windowsHide: true,
  });
  closeSync(log);
  let exited = false;
  keeper.once('exit', () => (exited = true));
  const deadline = Date.now() + 120_000;
  while (!(await accepts(port, password))) {
    if (exited || Date.now() > deadline) {
      if (keeper.connected) keeper.disconnect();
      const last = readFileSync(files.log, 'utf8').trim().split('\n').slice(-3).join(' / ');
      throw new Error(`the embedded PostgreSQL in ${shown(dir, place).dir} did not start: ${last}`);
    }
    await sleep(100);
  }
  // Neither the keeper nor its channel keeps this process alive.
  keeper.unref();
  keeper.channel?.unref();
  const pid = postmaster(files)?.pid ?? 0;
  return server(shown(dir, place), { pid, port }, password, bins.version, keeper);
}

/** The folder the banner names: the one given, or the other one and why. */
function shown(dir: string, { files, moved }: Place): Pick<EmbeddedServer, 'dir' | 'moved'> {
  return moved ? { dir: files.root, moved: moved.why } : { dir, moved: null };
}

function server(
  { dir, moved }: Pick<EmbeddedServer, 'dir' | 'moved'>,
  { pid, port }: { pid: number; port: number },
  password: string,
  version: string,
  keeper: ChildProcess | null,
): EmbeddedServer {
  const credentials = `${SUPERUSER}:${encodeURIComponent(password)}`;
  return {
    url: (database) => `postgres://${credentials}@127.0.0.1:${port}/${database}`,
    port,
    pid,
    version,
    dir,
    moved,
    owned: keeper !== null,
    stop: async () => {
      if (!keeper || keeper.exitCode !== null || keeper.signalCode !== null) return;
      keeper.ref();
      const gone = new Promise((resolve) => keeper.once('exit', resolve));
      // The keeper stops the server when its channel closes, and exits with it.
      if (keeper.connected) keeper.disconnect();
      await gone;
    },
  };
}

async function accepts(port: number, password: string): Promise<boolean> {
  const client = new Client({
    host: '127.0.0.1',
    port,
    user: SUPERUSER,
    password,
    database: 'postgres',
    connectionTimeoutMillis: 2_000,
  });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The port a new embedded server takes: 5432 when free and not avoided, else a free one. */
export async function choosePort(avoid: readonly number[]): Promise<number> {
  if (
    !avoid.includes(STANDARD_PORT) &&
    !(await answers(STANDARD_PORT)) &&
    (await listenable(STANDARD_PORT)) !== null
  ) {
    return STANDARD_PORT;
  }
  for (let tries = 0; tries < 10; tries++) {
    const free = await listenable(0);
    if (free === null) break;
    if (!avoid.includes(free)) return free;
  }
  throw new Error('no free port on 127.0.0.1 for the embedded PostgreSQL');
}

/** The port a listener on 127.0.0.1:`port` got (0: any free one), or null when it is taken. */
function listenable(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(null));
    probe.listen(port, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : null));
    });
  });
}
