// The test environment of every spec (jest.config.js): Node's, and in a spec without a tier mark
// a check of the unmarked tier's rule, nothing outside the process. While such a file runs, a
// socket (TCP, Unix-domain, UDP; so HTTP, fetch, PostgreSQL and Redis too), a server listening, a
// DNS query, a child process or a worker thread (whose I/O this check would not see) throws, and
// the test fails even when the code under test catches the error. Reading files is allowed.
// Plain JS: Jest loads it before any TypeScript transform is set up.
const childProcess = require('node:child_process');
const dgram = require('node:dgram');
const dns = require('node:dns');
const net = require('node:net');
const { relative } = require('node:path');
const workerThreads = require('node:worker_threads');
const { TestEnvironment } = require('jest-environment-node');
const { ROOT, markOf } = require('./tiers');

const CHILD_PROCESS = [
  'spawn',
  'spawnSync',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
  'fork',
];
const DNS = /^(lookup|resolve|reverse)/;

/** Where a socket's connect() goes: `host:port` or the Unix-domain path. */
function target(args) {
  const [first, second] = Array.isArray(args[0]) ? args[0] : args;
  if (typeof first === 'object' && first !== null) {
    return first.path ?? `${first.host ?? 'localhost'}:${first.port}`;
  }
  return typeof first === 'string' && !/^\d+$/.test(first)
    ? first
    : `${typeof second === 'string' ? second : 'localhost'}:${first}`;
}

/**
 * Makes the I/O an unmarked spec may not do throw, naming `file` (a path from the root), in the
 * process and in the test context `global` (its fetch); hands each refusal to `refused` too.
 * Answers the function that puts everything back.
 */
function refuseIo(file, global, refused) {
  const restore = [];
  const refuse = (owner, key, what) => {
    const original = Object.getOwnPropertyDescriptor(owner, key);
    Object.defineProperty(owner, key, {
      configurable: true,
      enumerable: original?.enumerable ?? false,
      writable: true,
      value: function refusedIo(...args) {
        throw refusal(what(args), refusedIo);
      },
    });
    restore.push(() =>
      original ? Object.defineProperty(owner, key, original) : delete owner[key],
    );
  };
  const refusal = (what, above) => {
    const error = new Error(
      `${what} in ${file}, a spec without a tier mark: an unmarked spec needs nothing outside ` +
        'the process, so no network, database or child process (jest.config.js). Mark it ' +
        '.io., .pg., .redis., .browser. or .tools. for what it needs, or keep it pure.',
    );
    Error.captureStackTrace(error, above);
    refused(error);
    return error;
  };
  refuse(net.Socket.prototype, 'connect', (args) => `A socket to ${target(args)}`);
  refuse(net.Server.prototype, 'listen', () => 'A server listening');
  for (const key of ['bind', 'connect', 'send']) {
    refuse(dgram.Socket.prototype, key, () => 'A UDP socket');
  }
  for (const owner of [
    dns,
    dns.promises,
    dns.Resolver.prototype,
    dns.promises.Resolver.prototype,
  ]) {
    for (const key of Object.getOwnPropertyNames(owner).filter((k) => DNS.test(k))) {
      refuse(owner, key, (args) => `A DNS query (${key} ${args[0]})`);
    }
  }
  for (const key of CHILD_PROCESS) {
    refuse(childProcess, key, (args) => `A child process (${key} ${args[0]})`);
  }
  refuse(workerThreads, 'Worker', () => 'A worker thread');
  // Node's fetch would fail as "fetch failed", the refusal hidden in its cause.
  refuse(global, 'fetch', (args) => `A fetch of ${args[0]}`);
  return () => {
    for (const undo of restore.reverse()) undo();
  };
}

class TierEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.file = relative(ROOT, context.testPath);
    this.unmarked = markOf(context.testPath) === '';
    /** The refusals no failing test has reported yet. */
    this.refused = [];
  }

  async setup() {
    await super.setup();
    if (this.unmarked) this.restore = refuseIo(this.file, this.global, (e) => this.refused.push(e));
  }

  async teardown() {
    this.restore?.();
    await super.teardown();
  }

  /** A refusal swallowed by the code under test still fails the test it happened in. */
  handleTestEvent(event, state) {
    const [first] = this.refused;
    if (!first) return;
    // A test's errors are errors or [error, its async stack] pairs (jest-circus).
    const has = (errors) => errors.some((e) => (Array.isArray(e) ? e[0] : e) === first);
    if (event.name === 'test_done') {
      if (!has(event.test.errors)) event.test.errors.push(first);
    } else if (event.name === 'run_finish') {
      if (!has(state.unhandledErrors)) state.unhandledErrors.push(first);
    } else return;
    this.refused = [];
  }
}

module.exports = TierEnvironment;
module.exports.refuseIo = refuseIo;
