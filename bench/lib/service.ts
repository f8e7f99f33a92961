import type { ChildProcess } from 'node:child_process';
import type { WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { processTree } from './cpu';
import { freePort, startLogged, stop, tsNodeArgs, waitForHttp } from './proc';

/** A server process the bench started (the service, a cluster's supervisor, a baseline). */
export interface Server {
  child: ChildProcess;
  log: WriteStream;
  url: string;
  alive(): boolean;
  /** The process and its descendants (a cluster's API and queue processes). */
  pids(): number[];
  /** Stops it (SIGTERM, then SIGKILL after `graceMs`); its exit is then not an error. */
  stop(graceMs?: number): Promise<void>;
}

function track(
  child: ChildProcess,
  log: WriteStream,
  url: string,
  onUnexpectedExit: (how: string) => void,
): Server {
  let expected = false;
  child.once('exit', (code, signal) => {
    if (!expected) onUnexpectedExit(signal ?? `code ${code}`);
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    log,
    url,
    alive,
    pids: () => (alive() ? processTree(child.pid!) : []),
    stop: async (graceMs = 5_000) => {
      expected = true;
      await stop(child, graceMs);
      log.end();
    },
  };
}

/**
 * Starts the built service as `npm start` does (`main.js` with its node flags) on a free port,
 * and waits until /health/ready answers 200. `env` says the topology (WEB_CONCURRENCY, ROLE).
 */
export async function startService(opts: {
  dist: string;
  nodeArgs: string[];
  env: (port: number) => NodeJS.ProcessEnv;
  logPath: string;
  onUnexpectedExit: (how: string) => void;
}): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  await rm(opts.logPath, { force: true });
  const { child, log } = startLogged(
    process.execPath,
    [...opts.nodeArgs, join(opts.dist, 'main.js')],
    opts.env(port),
    opts.logPath,
  );
  const server = track(child, log, url, opts.onUnexpectedExit);
  await waitForHttp(`${url}/health/ready`, 90_000, server.alive);
  return server;
}

/**
 * Starts bench/baseline-server.ts (node:http + pg; `env` adds its Redis rate-limit call), or
 * another baseline of bench/ named by `file` (search-baseline.ts).
 */
export async function startBaseline(opts: {
  benchDir: string;
  file?: string;
  root: string;
  env: NodeJS.ProcessEnv;
  logPath: string;
  onUnexpectedExit: (how: string) => void;
}): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { child, log } = startLogged(
    process.execPath,
    tsNodeArgs(join(opts.benchDir, opts.file ?? 'baseline-server.ts')),
    {
      ...process.env,
      ...opts.env,
      PORT: String(port),
      TS_NODE_PROJECT: join(opts.root, 'tsconfig.json'),
    },
    opts.logPath,
  );
  const server = track(child, log, url, opts.onUnexpectedExit);
  // The baseline has no health route: any answer (404) means it listens.
  await waitForHttp(`${url}/`, 30_000, server.alive, true);
  return server;
}
