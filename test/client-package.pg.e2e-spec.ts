import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createAccount } from './support/factories';
import { CLIENT_PACKAGE_PROGRAM } from './support/client-package-program';
import { createTestApp, freePort, TestApp } from './support/app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const PACKAGE_DIR = join(ROOT, 'clients', 'typescript');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const README = join(PACKAGE_DIR, 'README.md');
const COMPILER_OPTIONS = {
  strict: true,
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types: ['node'],
};

/**
 * The README's TypeScript blocks as one program: the first (the imports and the client) as it
 * is, every other in a function of its own; the block that needs Express is left out.
 */
function readmeProgram(readme: string): string {
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  if (blocks.length < 8) throw new Error(`only ${blocks.length} TypeScript blocks in the README`);
  return [
    blocks[0],
    ...blocks
      .slice(1)
      .filter((b) => !b.includes("from 'express'"))
      .map((b, i) => `export async function flow${i}(): Promise<void> {\n${b}}\n`),
  ].join('\n');
}

/**
 * The client package's dependencies and theirs, each packed from this repository's node_modules
 * into `dir`, so the throwaway projects install offline: on a machine with Node.js alone the
 * tests run without a network (README.md, Tests), and npm's cache, filled from
 * package-lock.json, holds the tarballs but not the registry documents a range is resolved on.
 */
async function packDependencies(dir: string): Promise<string[]> {
  await mkdir(dir);
  const seen = new Set<string>();
  const queue = Object.keys(
    JSON.parse(await readFile(join(PACKAGE_DIR, 'package.json'), 'utf8')).dependencies,
  );
  const tarballs: string[] = [];
  while (queue.length > 0) {
    const name = queue.shift() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const folder = join(ROOT, 'node_modules', name);
    const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'));
    queue.push(...Object.keys(manifest.dependencies ?? {}));
    const { stdout } = await run(
      NPM,
      ['pack', '--json', '--ignore-scripts', '--pack-destination', dir, folder],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    tarballs.push(join(dir, (JSON.parse(stdout) as { filename: string }[])[0].filename));
  }
  return tarballs;
}

/**
 * The client package as an integrator gets it (docs/api.md; clients/typescript/README.md):
 * `npm pack`, the tarball installed into a throwaway CommonJS project and a throwaway ES module
 * project, each compiling a program with `tsc --strict` and running it against the service on
 * loopback: a sandbox check with its webhook, verified and refused when altered, a paged
 * listing, a field error, and retries. Everything runs in child processes so the app (in this
 * process) keeps answering.
 */
describe('the client package (clients/typescript), packed and installed', () => {
  let t: TestApp;
  let baseUrl: string;
  let work: string;
  let tarball: string;
  /** The package's dependencies, packed from this repository's node_modules (see below). */
  let dependencies: string[];
  let packed: { size: number; files: { path: string }[] };

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    t = await createTestApp({ listen: port, env: { PUBLIC_URL: baseUrl } });
    work = await mkdtemp(join(tmpdir(), 'vision-client-package-'));
    // `npm pack` builds the package first (its prepack: tsc twice, CommonJS and ES modules).
    const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', work], {
      cwd: PACKAGE_DIR,
      maxBuffer: 16 * 1024 * 1024,
    });
    packed = (
      JSON.parse(stdout) as { filename: string; size: number; files: { path: string }[] }[]
    )[0];
    tarball = join(work, (JSON.parse(stdout) as { filename: string }[])[0].filename);
    dependencies = await packDependencies(join(work, 'dependencies'));
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('packs under 50 kB with openapi-fetch and standardwebhooks as its only dependencies', async () => {
    expect((await stat(tarball)).size).toBe(packed.size);
    expect(packed.size).toBeLessThan(50 * 1024);
    const manifest = JSON.parse(await readFile(join(PACKAGE_DIR, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      'openapi-fetch',
      'standardwebhooks',
    ]);
    expect(manifest.peerDependencies).toBeUndefined();
    expect(manifest.engines).toEqual({ node: '>=18' });
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'CHANGELOG.md',
        'dist/cjs/index.js',
        'dist/esm/index.js',
        'dist/cjs/webhooks.js',
        'dist/esm/webhooks.js',
        'dist/schema.d.ts',
      ]),
    );
    // The generated types are shipped once (they are most of the package's size).
    expect(files.filter((f) => f.endsWith('schema.d.ts') && f !== 'dist/schema.d.ts')).toEqual([
      'dist/cjs/schema.d.ts',
      'dist/esm/schema.d.ts',
    ]);
  });

  /** A throwaway project of `type` with the tarball installed, the program compiled; its output. */
  async function runProject(type: 'commonjs' | 'module', env: Record<string, string>) {
    const dir = join(work, type);
    await mkdir(dir);
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: `throwaway-${type}`, private: true, type }),
    );
    await run(
      NPM,
      [
        'install',
        '--offline',
        '--no-audit',
        '--no-fund',
        '--no-package-lock',
        tarball,
        ...dependencies,
      ],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
    );
    // After the install (which would prune them): Node's types from the repository, for tsc.
    await mkdir(join(dir, 'node_modules', '@types'), { recursive: true });
    await symlink(
      join(ROOT, 'node_modules', '@types', 'node'),
      join(dir, 'node_modules', '@types', 'node'),
    );
    const installed = JSON.parse(
      await readFile(
        join(dir, 'node_modules', '@vision-eligibility', 'client', 'package.json'),
        'utf8',
      ),
    );
    await writeFile(join(dir, 'main.ts'), CLIENT_PACKAGE_PROGRAM);
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { ...COMPILER_OPTIONS, noUnusedLocals: true, outDir: 'out' },
        files: ['main.ts'],
      }),
    );
    const compiled = await run(process.execPath, [TSC, '-p', dir]).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout }),
    );
    expect(compiled.stdout).toBe('');
    const emitted = await readFile(join(dir, 'out', 'main.js'), 'utf8');
    if (type === 'module') {
      // The README's flows compile too (each in a function; the Express receiver left out).
      await writeFile(join(dir, 'readme.ts'), readmeProgram(await readFile(README, 'utf8')));
      await writeFile(
        join(dir, 'tsconfig.readme.json'),
        JSON.stringify({
          compilerOptions: { ...COMPILER_OPTIONS, noEmit: true },
          files: ['readme.ts'],
        }),
      );
      const readme = await run(process.execPath, [
        TSC,
        '-p',
        join(dir, 'tsconfig.readme.json'),
      ]).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
      expect(readme.stdout).toBe('');
    }
    const { stdout } = await run(process.execPath, [join(dir, 'out', 'main.js')], {
      env: { ...process.env, BASE_URL: baseUrl, ...env },
      timeout: 120_000,
    });
    return { out: JSON.parse(stdout), emitted, installed };
  }

  it.each([
    ['commonjs', 'own'],
    ['module', 'generated'],
  ] as const)(
    'works from a %s project: a check and its webhook (%s secret), paging, field errors, retries',
    async (type, secretKind) => {
      const a = await createAccount(t.app);
      const { out, emitted, installed } = await runProject(type, {
        API_KEY: a.apiKey,
        SECRET_KIND: secretKind,
      });
      expect(installed.version).toBe('0.1.0');
      // The program really is of its module system.
      if (type === 'module')
        expect(emitted).toMatch(/^import .* from '@vision-eligibility\/client';$/m);
      else expect(emitted).toMatch(/require\("@vision-eligibility\/client"\)/);
      expect(out.search).toEqual({
        status: 'complete',
        plans: expect.any(Number),
        v1Status: 'complete',
      });
      expect(out.search.plans).toBeGreaterThan(0);
      expect(out.webhook).toEqual({
        type: 'eligibility.finished',
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        sameAsGet: true,
        secretKind: secretKind === 'own' ? 'raw' : 'whsec',
        tamperedBody: true,
        wrongSecret: true,
        resignedNow: true,
        oldTimestamp: true,
        headersObject: true,
      });
      // A forged X-Event-Type changes nothing: the type is the signed body's (the two
      // eligibility labels name one document, "the current result": docs/api.md, Webhooks).
      expect(out.forged).toEqual({
        resultAsClaim: 'eligibility.finished',
        resultAsUpdated: 'eligibility.updated',
        resultUnlabelled: 'eligibility.finished',
        claimAsResult: 'claim.status_changed',
        batchAsClaim: 'eligibility.batch_finished',
        remittanceAsBatch: 'remittance.received',
        newTaskAsOverdue: 'verification_task.created',
        unknownBody: true,
      });
      expect(out.paging.created).toHaveLength(3);
      expect([...out.paging.listed].sort()).toEqual([...out.paging.created].sort());
      expect(out.paging.firstNextCursor).toEqual(expect.any(String));
      expect(out.error).toEqual({
        status: 400,
        fields: { 'patient.dob': ['Date has wrong format. Use YYYY-MM-DD.'] },
        requestId: expect.any(String),
      });
      expect(out.retried).toEqual({ calls: 2, locations: 1 });
      expect(out.throttled).toEqual({
        status: 429,
        retryAfter: 120,
        detail: 'Request was throttled. Expected available in 120 seconds.',
        calls: 1,
      });
    },
    240_000,
  );
});
