import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createAccount, TestAccount } from './support/factories';
import { CLIENT_PROGRAM } from './support/openapi-client-program';
import { TestReceiver } from './support/receiver';
import { createTestApp, freePort, TestApp } from './support/app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

/**
 * What a client developer does: generate types from /docs-json with openapi-typescript, write a
 * client with openapi-fetch from SERVICE-SPEC.md, compile it with `tsc --strict`, run it.
 * Everything runs in child processes so the app (in this process) keeps answering.
 */
describe('a typed client generated from /docs-json', () => {
  let t: TestApp;
  let a: TestAccount;
  let dir: string;
  let baseUrl: string;
  const receiver = new TestReceiver();

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    t = await createTestApp({ listen: port, env: { PUBLIC_URL: baseUrl } });
    a = await createAccount(t.app);
    await receiver.start();
    // Inside the project, so that `openapi-fetch` and `@types/node` resolve from node_modules.
    dir = await mkdtemp(join(ROOT, 'node_modules', '.cache-openapi-client-'));
  });
  afterAll(async () => {
    await receiver.stop();
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('compiles with tsc --strict and runs the SERVICE-SPEC workflow against the service', async () => {
    const cli = join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
    await run(process.execPath, [cli, `${baseUrl}/docs-json`, '--output', join(dir, 'api.ts')], {
      cwd: dir,
    });
    await writeFile(join(dir, 'client.ts'), CLIENT_PROGRAM);
    await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'commonjs' }));
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noUnusedLocals: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
          skipLibCheck: true,
          outDir: 'out',
        },
        files: ['client.ts', 'api.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const compiled = await run(process.execPath, [tsc, '-p', dir]).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout, failed: true }),
    );
    expect(compiled.stdout).toBe('');

    const { stdout } = await run(process.execPath, [join(dir, 'out', 'client.js')], {
      env: {
        ...process.env,
        BASE_URL: baseUrl,
        API_KEY: a.apiKey,
        WEBHOOK_URL: receiver.url('/client-hook'),
      },
      timeout: 60_000,
    });
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({
      webhook: { secretShownOnce: true },
      patient: {
        code: expect.stringMatching(/^PAT[0-9A-Z]{8}$/),
        middleName: null,
        patientLine2: null,
      },
      search: {
        status: 'complete',
        errorCode: null,
        resultId: expect.any(Number),
        memberId: expect.any(String),
      },
      details: { status: 'complete', persons: 1 },
      link: { linked: 1 },
      claim: {
        code: expect.stringMatching(/^CLM[0-9A-Z]{8}$/),
        // Created `ready` (docs/api.md, Claim lifecycle); the claims worker may already have sent it when it is read.
        status: 'ready',
        fetchedStatus: expect.stringMatching(/^(ready|submitted)$/),
        claimLine2: null,
        quantities: [1, 2],
        costs: ['12.2200', '44.2100'],
      },
      deliveries: { succeeded: 2, statusCode: 200 },
    });
    expect(out.tree.items).toBeGreaterThan(5);
    expect(out.tree.depth).toBeGreaterThanOrEqual(3);
    expect(out.link.url).toContain(out.patient.code);
    expect(out.claim.fetchedCode).toBe(out.claim.code);
    expect(receiver.forPath('/client-hook')).toHaveLength(2);
  });
});
