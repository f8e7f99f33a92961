import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, TestApp } from './support/app';
import { createAccount, TestAccount } from './support/factories';
import { pollOutcome } from './support/fhir';
import { expectValidFhir } from './support/fhir-validators';

const run = promisify(execFile);

type Json = any;

/** docs/api.md's FHIR R4 section: its code blocks in order (bundle, curl, answer). */
function documented(): { bundle: string; curl: string; answer: Json } {
  const text = readFileSync(join(__dirname, '..', 'docs', 'api.md'), 'utf8');
  const start = text.indexOf('\n## FHIR R4\n');
  const section = text.slice(start, text.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)\n```/g)].map((m) => m[2]);
  const [bundle, curl, answer] = blocks;
  return { bundle, curl, answer: JSON.parse(answer) };
}

/** What varies from one run to the next: ids, the generated uid and the instant. */
function normalized(resource: Json): Json {
  const id = String(resource.id);
  const n = id.split('-')[0];
  const uid = resource.identifier[0].value;
  const text = JSON.stringify(resource)
    .replaceAll(uid, '<uid>')
    .replaceAll(`"${id}"`, '"<id>"')
    .replaceAll(`Patient/${n}"`, 'Patient/<n>"');
  return { ...JSON.parse(text), created: '<created>' };
}

/**
 * docs/api.md, FHIR R4: the sandbox example, posted with curl exactly as the section writes it
 * (to this test's port), answers what the section shows, and then completes.
 */
describe('docs/api.md, FHIR R4: the sandbox example with curl', () => {
  let t: TestApp;
  let a: TestAccount;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    a = await createAccount(t.app);
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('answers as documented, then completes', async () => {
    const { bundle, curl, answer } = documented();
    const dir = mkdtempSync(join(tmpdir(), 'fhir-docs-'));
    writeFileSync(join(dir, 'bundle.json'), bundle);
    const command = curl.replace('http://localhost:3000', `http://127.0.0.1:${port}`);
    expect(command).not.toBe(curl);
    const { stdout } = await run('sh', ['-c', `${command} --silent --show-error`], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', KEY: a.apiKey },
      timeout: 30_000,
    });
    const got = JSON.parse(stdout);
    expect(normalized(got)).toEqual(normalized(answer));
    expectValidFhir(got);
    const done = await pollOutcome(t.app, a.apiKey, got.id);
    expect(done.outcome).toBe('complete');
    expect(done.insurance[0].inforce).toBe(true);
  });
});
