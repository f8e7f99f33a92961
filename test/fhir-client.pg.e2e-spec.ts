import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestApp, TestApp } from './support/app';
import { DEMO } from './support/eligibility';
import { createAccount, TestAccount } from './support/factories';
import { submitBundle, UID_SYSTEM } from './support/fhir';
import { expectValidFhir } from './support/fhir-validators';

const run = promisify(execFile);
const PROGRAM = join(__dirname, 'support', 'fhir-client-program.mjs');

/**
 * docs/api.md, FHIR R4, with a client nobody here wrote: fhir-kit-client (an ES module, run as
 * its own process, test/support/fhir-client-program.mjs) submits a sandbox Bundle with its
 * Bearer token and polls the response to complete over a real socket.
 */
describe('an independent FHIR client (fhir-kit-client)', () => {
  let t: TestApp;
  let a: TestAccount;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
    a = await createAccount(t.app);
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}/fhir/R4`;
  });
  afterAll(() => t.close());

  it('runs $submit, then polls the response to complete, reading what it names', async () => {
    const { stdout } = await run(process.execPath, [PROGRAM], {
      env: {
        PATH: process.env.PATH ?? '',
        FHIR_BASE_URL: baseUrl,
        FHIR_KEY: a.apiKey,
        BUNDLE: JSON.stringify(submitBundle([DEMO], { memberId: 'KIT-1' })),
      },
      timeout: 60_000,
    });
    const got = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(got.submitted).toMatchObject({
      resourceType: 'CoverageEligibilityResponse',
      outcome: 'queued',
    });
    expect(got.seen[0]).toBe('queued');
    expect(got.seen[got.seen.length - 1]).toBe('complete');
    expect(got.response.insurance[0].inforce).toBe(true);
    expect(got.patient).toMatchObject({ resourceType: 'Patient', birthDate: '1984-06-15' });
    expect(got.coverage).toMatchObject({ resourceType: 'Coverage', subscriberId: 'KIT-1' });
    expect(got.search).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 1 });
    expect(got.search.entry[0].resource.identifier).toEqual([
      { system: UID_SYSTEM, value: got.submitted.identifier[0].value },
    ]);
    expect(got.capability.resourceType).toBe('CapabilityStatement');
    for (const resource of [got.submitted, got.response, got.patient, got.coverage, got.search])
      expectValidFhir(resource);
  });
});
