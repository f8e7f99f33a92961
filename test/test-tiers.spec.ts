import { exec, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { get } from 'node:https';
import { connect, createServer, Socket } from 'node:net';
import { join, relative } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
// Plain JS shared with jest.config.js and global-setup.js.
/* eslint-disable @typescript-eslint/no-require-imports */
const { MARKS, ROOT, TIERS, markOf, tierFiles } = require('./support/tiers') as {
  MARKS: string[];
  ROOT: string;
  TIERS: Record<string, string[]>;
  markOf: (file: string) => string;
  tierFiles: (tier: string) => { unit: string[]; e2e: string[] };
};
const { refuseIo } = require('./support/tier-environment') as {
  refuseIo: (file: string, global: object, refused: (e: Error) => void) => () => void;
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The test tiers of jest.config.js: every spec file under src/ and test/ runs in exactly one
 * tier, chosen by the mark in its name, and a spec that reaches what a tier provides says so.
 */
function specFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : specFiles(path);
    return /\.([a-z0-9]+-)?spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

const all = [...specFiles(join(ROOT, 'src')), ...specFiles(join(ROOT, 'test'))];
const inTier = (tier: string) => {
  const { unit, e2e } = tierFiles(tier);
  const regexes = [...unit, ...e2e].map((r) => new RegExp(r));
  return all.filter((f) => regexes.some((r) => r.test(f)));
};

describe('the test tiers (jest.config.js)', () => {
  it('are the ones jest.config.js runs', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const config = require('../jest.config.js') as { projects: { testRegex: string[] }[] };
    const files = tierFiles(process.env.TEST_TIER ?? '');
    expect(config.projects.map((p) => p.testRegex)).toEqual([files.unit, files.e2e]);
  });

  it('put every spec file in exactly one tier, and the unmarked ones in the unmarked tier too', () => {
    const tiers = Object.keys(TIERS)
      .filter((tier) => tier !== 'unmarked')
      .map(inTier);
    const counted = new Map(all.map((f) => [f, 0]));
    for (const files of tiers) for (const f of files) counted.set(f, counted.get(f)! + 1);
    const wrong = [...counted]
      .filter(([, n]) => n !== 1)
      .map(([f, n]) => `${relative(ROOT, f)}: ${n}`);
    expect(wrong).toEqual([]);
    expect(tiers.every((files) => files.length > 0)).toBe(true);
    const unmarked = all.filter((f) => markOf(f) === '');
    expect(unmarked.length).toBeGreaterThan(50);
    expect(inTier('unmarked')).toEqual(unmarked);
    expect(inTier('')).toEqual(expect.arrayContaining(unmarked));
  });

  it('mark what a spec reaches: PostgreSQL, Chromium, a tool', () => {
    const needs: [RegExp, string[]][] = [
      [
        /support\/(app|module|postgres-source|state|built-service|cli)'/,
        ['pg', 'redis', 'browser', 'tools'],
      ],
      [/support\/browser'/, ['browser', 'tools']],
      [/support\/prometheus'|'\/usr\/bin\/python3'|pdftotext'|\('psql'/, ['tools']],
    ];
    const wrong = all.flatMap((f) => {
      if (f === __filename) return [];
      const text = readFileSync(f, 'utf8');
      const mark = markOf(f);
      return needs
        .filter(([uses, marks]) => uses.test(text) && !marks.includes(mark))
        .map(([uses]) => `${relative(ROOT, f)} (${uses.source})`);
    });
    expect(wrong).toEqual([]);
  });

  it('mark a spec only with a mark of the tiers', () => {
    expect(MARKS.every((mark) => Object.values(TIERS).some((marks) => marks.includes(mark)))).toBe(
      true,
    );
  });
});

describe('the unmarked tier check (test/support/tier-environment.js)', () => {
  const file = 'src/x/y.spec.ts';
  const rule = new RegExp(
    `in ${file.replace(/\./g, '\\.')}, a spec without a tier mark: an unmarked spec needs ` +
      'nothing outside the process, so no network, database or child process',
  );
  let refused: Error[];
  let restore: () => void;
  const context = { fetch: globalThis.fetch };
  // As they are outside the check of these tests (this spec's own, test/support/tier-environment.js).
  const outside = [Socket.prototype.connect, spawn, context.fetch];
  beforeEach(() => {
    refused = [];
    restore = refuseIo(file, context, (e) => refused.push(e));
  });
  afterEach(() => restore());

  it('refuses a socket, TCP or Unix-domain, HTTPS, and a server', () => {
    expect(() => connect(5432, '127.0.0.1')).toThrow(/^A socket to 127\.0\.0\.1:5432 in /);
    expect(() => connect({ path: '/var/run/postgresql/.s.PGSQL.5432' })).toThrow(
      /^A socket to \/var\/run\/postgresql\/\.s\.PGSQL\.5432 in /,
    );
    expect(() => get('https://example.org/')).toThrow(/^A socket to example\.org:443 in /);
    expect(() => createServer().listen(0)).toThrow(/^A server listening in /);
    expect(() => context.fetch('http://127.0.0.1:1/')).toThrow(/^A fetch of http:/);
    expect(refused).toHaveLength(5);
    for (const error of refused) expect(error.message).toMatch(rule);
  });

  it('refuses a child process, with or without a shell, waited for or not', () => {
    expect(() => spawn(process.execPath, ['-e', ''])).toThrow(/^A child process \(spawn /);
    expect(() => exec('true')).toThrow(/^A child process \(exec true\) in /);
    expect(() => execFileSync('git', ['status'])).toThrow(
      /^A child process \(execFileSync git\) in /,
    );
    expect(refused.map((e) => e.message)).toEqual(Array(3).fill(expect.stringMatching(rule)));
  });

  it('refuses PostgreSQL and Redis, and reports the refusal when the caller catches it', async () => {
    const client = new Client({ host: '127.0.0.1', port: 5432, user: 'postgres' });
    await expect(client.connect()).rejects.toThrow(/^A socket to 127\.0\.0\.1:5432 in /);
    const redis = new Redis(6379, '127.0.0.1', { lazyConnect: true, retryStrategy: () => null });
    redis.on('error', () => undefined);
    await expect(redis.connect()).rejects.toThrow(/^A socket to 127\.0\.0\.1:6379 in /);
    expect(refused).toHaveLength(2);
  });

  it('puts everything back when it ends', () => {
    const checked = [Socket.prototype.connect, spawn, context.fetch];
    restore();
    expect([Socket.prototype.connect, spawn, context.fetch]).toEqual(outside);
    expect(outside).not.toEqual(checked);
    restore = refuseIo(file, context, (e) => refused.push(e));
  });
});
