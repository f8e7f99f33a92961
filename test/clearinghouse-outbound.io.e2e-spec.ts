import type { ClaimsConfig } from '@/platform/config/claims';
import type { ClearinghouseConfig } from '@/platform/config/clearinghouse';
import { loadConfig } from '@/platform/config/env';
import { ClaimsClearinghouseClient } from '@/modules/insurers/domain/clearinghouse/claims-clearinghouse.client';
import { ClearinghouseClient } from '@/modules/insurers/domain/clearinghouse/clearinghouse.client';
import { FakeClearinghouse, ScriptedEndpoint } from './support/fake-clearinghouse';

// SECURITY.md: the clearinghouse clients never follow a redirect (a 307/308 would resend the
// whole 837P or the client secret wherever it points, plain http included), read at most a
// capped answer, and production refuses http:// clearinghouse URLs. Against loopback servers;
// no Nest application, no database.

const API_KEY = 'test-key-7f3a';
const CLAIM_837P = 'ISA*00*          *00*          *ZZ*VISIONELIG~ST*837*0001~CLM*MARKER-837P~';

function config(overrides: Partial<ClearinghouseConfig> = {}): ClearinghouseConfig {
  return {
    eligibilityUrl: null,
    auth: { kind: 'api_key', apiKey: API_KEY },
    submitterId: 'VISIONELIG',
    receiverId: 'CLEARINGHOUSE',
    usage: 'T',
    payerIds: { 'insurer:vision:davis_vision': 'QKZWY' },
    serviceTypes: {},
    detailServiceTypes: {},
    ...overrides,
  };
}

function claimsConfig(overrides: Partial<ClaimsConfig> = {}): ClaimsConfig {
  return {
    claimsUrl: null,
    claimStatusUrl: null,
    statusIntervalMs: 60_000,
    submitRetryBaseMs: 1_000,
    submitMaxAttempts: 3,
    reportsUrl: null,
    reportsIntervalMs: 60_000,
    reportsMaxPerDay: 100,
    statusInsurers: [],
    statusMaxChecks: 3,
    ...overrides,
  };
}

const check = () => ({
  insurerCode: 'insurer:vision:davis_vision',
  payerId: 'QKZWY',
  payerName: 'Davis Vision',
  provider: { npi: '1234567893', organizationName: 'Bright Eyes Optometry', taxId: '741234567' },
  patient: { firstName: 'Jane', lastName: 'Doe', dob: '1980-01-15', memberId: 'DV1234567' },
  deadline: Date.now() + 30_000,
});

describe('clearinghouse clients: redirects and answer sizes (SECURITY.md)', () => {
  const opened: { close(): Promise<void> }[] = [];
  const open = <T extends { close(): Promise<void> }>(server: T): T => {
    opened.push(server);
    return server;
  };
  let target: ScriptedEndpoint;

  beforeEach(async () => {
    // Where a redirect points: anything it receives was resent.
    target = open(await ScriptedEndpoint.start((res) => res.writeHead(200).end('{}')));
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });

  it.each([302, 307, 308])(
    'does not follow a %s from the claims endpoint: the 837P is sent once, never resent',
    async (status) => {
      const moved = open(await ScriptedEndpoint.redirecting(status, target.url));
      const client = new ClaimsClearinghouseClient(
        config(),
        claimsConfig({ claimsUrl: moved.url }),
      );

      const outcome = await client.submit(CLAIM_837P, 10_000, 'claim-key-1');

      expect(outcome).toEqual({
        kind: 'refused',
        reason: expect.stringContaining('redirect, which is never followed'),
      });
      expect(moved.received).toHaveLength(1);
      expect(moved.received[0].body).toContain('MARKER-837P');
      expect(target.received).toEqual([]);
    },
  );

  it('does not follow a redirect of the eligibility endpoint, nor of a report poll', async () => {
    const real = open(await FakeClearinghouse.start({ apiKey: API_KEY }));
    const moved = open(await ScriptedEndpoint.redirecting(307, real.eligibilityUrl));
    const client = new ClearinghouseClient(config({ eligibilityUrl: moved.url }));

    const { outcome } = await client.checkEligibility(check());

    expect(outcome).toEqual({
      kind: 'unexpected',
      reason: expect.stringContaining('never followed'),
    });
    expect(real.calls).toEqual([]);

    const polled = open(await ScriptedEndpoint.redirecting(302, target.url));
    const claims = new ClaimsClearinghouseClient(config(), claimsConfig({ reportsUrl: polled.url }));
    await expect(claims.deleteReport('r1', 10_000)).rejects.toThrow(/never followed/);
    expect(target.received).toEqual([]);
  });

  it('sends the OAuth client secret to the token endpoint only, not where it redirects', async () => {
    const moved = open(await ScriptedEndpoint.redirecting(307, target.url));
    const real = open(await FakeClearinghouse.start({ apiKey: API_KEY }));
    const client = new ClearinghouseClient(
      config({
        eligibilityUrl: real.eligibilityUrl,
        auth: { kind: 'oauth2', tokenUrl: moved.url, clientId: 'c', clientSecret: 'top-secret' },
      }),
    );

    const { outcome } = await client.checkEligibility(check());

    expect(outcome.kind).toBe('unexpected');
    expect(moved.received).toHaveLength(1);
    expect(target.received).toEqual([]);
    expect(real.calls).toEqual([]);
  });

  it('refuses an answer past the cap without reading it all (an answer that never ends)', async () => {
    const endless = open(await ScriptedEndpoint.endless());
    const client = new ClearinghouseClient(config({ eligibilityUrl: endless.url }));
    const claims = new ClaimsClearinghouseClient(
      config(),
      claimsConfig({ claimsUrl: endless.url, claimStatusUrl: endless.url }),
    );

    const started = Date.now();
    const { outcome } = await client.checkEligibility(check());
    expect(outcome).toEqual({
      kind: 'unexpected',
      reason: expect.stringContaining('larger than 8388608 bytes'),
    });
    await expect(claims.submit(CLAIM_837P, 20_000, 'claim-key-2')).resolves.toEqual({
      kind: 'refused',
      reason: expect.stringContaining('larger than'),
    });
    await expect(claims.checkStatus('ST*276~', 20_000)).resolves.toEqual({
      kind: 'failed',
      reason: expect.stringContaining('larger than'),
    });
    // Cut off at the cap, long before the 30 s deadline an unbounded read would run into.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('refuses http:// clearinghouse URLs in production, one line each', () => {
    const production = {
      NODE_ENV: 'production',
      APP_ENCRYPTION_KEY: 'ab'.repeat(32),
      SESSION_SECRET: 'a-production-session-secret',
      PUBLIC_URL: 'https://vision.example.test',
      CLEARINGHOUSE_TOKEN_URL: 'http://ch.example.test/token',
      CLEARINGHOUSE_CLIENT_ID: 'c',
      CLEARINGHOUSE_CLIENT_SECRET: 's',
      CLEARINGHOUSE_ELIGIBILITY_URL: 'http://ch.example.test/eligibility',
      CLEARINGHOUSE_CLAIMS_URL: 'http://ch.example.test/claims',
      CLEARINGHOUSE_CLAIM_STATUS_URL: 'http://ch.example.test/status',
      CLEARINGHOUSE_REPORTS_URL: 'http://ch.example.test/reports',
      X12_SUBMITTER_ID: 'VISIONELIG',
      X12_RECEIVER_ID: 'CLEARINGHOUSE',
    };
    let problems: string[] = [];
    try {
      loadConfig(production);
    } catch (e) {
      problems = (e as { problems: string[] }).problems;
    }
    for (const name of [
      'CLEARINGHOUSE_TOKEN_URL',
      'CLEARINGHOUSE_ELIGIBILITY_URL',
      'CLEARINGHOUSE_CLAIMS_URL',
      'CLEARINGHOUSE_CLAIM_STATUS_URL',
      'CLEARINGHOUSE_REPORTS_URL',
    ]) {
      expect(problems).toContainEqual(expect.stringMatching(new RegExp(`^${name}: must use https:`)));
    }
    const https = Object.fromEntries(
      Object.entries(production).map(([k, v]) => [k, v.replace('http://', 'https://')]),
    );
    expect(loadConfig(https).clearinghouse.eligibilityUrl).toBe(
      'https://ch.example.test/eligibility',
    );
  });
});
