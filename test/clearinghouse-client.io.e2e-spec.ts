import type { ClearinghouseConfig } from '@/platform/config/clearinghouse';
import { ClearinghouseClient } from '@/modules/insurers/domain/clearinghouse/clearinghouse.client';
import type { EligibilityCheck } from '@/modules/insurers/domain/clearinghouse/clearinghouse.types';
import { FakeClearinghouse } from './support/fake-clearinghouse';
import { transaction271 } from './x12/fixtures';

// Service-level tests of the clearinghouse client against a fake clearinghouse on loopback: no
// Nest application, no database.

const API_KEY = 'test-key-7f3a';
const OAUTH = { clientId: 'vision-client', clientSecret: 'vision-secret' };

function config(url: string, overrides: Partial<ClearinghouseConfig> = {}): ClearinghouseConfig {
  return {
    eligibilityUrl: url,
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

function check(overrides: Partial<EligibilityCheck> = {}): EligibilityCheck {
  return {
    insurerCode: 'insurer:vision:davis_vision',
    payerId: 'QKZWY',
    payerName: 'Davis Vision',
    provider: { npi: '1234567893', organizationName: 'Bright Eyes Optometry', taxId: '741234567' },
    patient: { firstName: 'Jane', lastName: 'Doe', dob: '1980-01-15', memberId: 'DV1234567' },
    deadline: Date.now() + 30_000,
    ...overrides,
  };
}

describe('clearinghouse client (fake clearinghouse on loopback)', () => {
  let fake: FakeClearinghouse;
  let client: ClearinghouseClient;

  beforeEach(async () => {
    fake = await FakeClearinghouse.start({ apiKey: API_KEY });
    client = new ClearinghouseClient(config(fake.eligibilityUrl));
  });

  afterEach(async () => {
    await fake.close();
  });

  it('sends a 270 the clearinghouse reads back, and maps the 271 into plans', async () => {
    const { outcome, exchange } = await client.checkEligibility(check());

    expect(fake.calls).toHaveLength(1);
    const [call] = fake.calls;
    expect(call.authorization).toBe(API_KEY);
    expect(call.parseError).toBeNull();
    const inquiry = call.inquiry!;
    expect(inquiry.isa).toMatchObject({
      senderId: 'VISIONELIG',
      receiverId: 'CLEARINGHOUSE',
      usage: 'T',
    });
    expect(inquiry.group).toMatchObject({ functionalId: 'HS', version: '005010X279A1' });
    expect(inquiry).toMatchObject({ structure: '0022', purpose: '13', segmentCount: 14 });
    expect(inquiry.payer).toMatchObject({
      entity: 'PR',
      lastName: 'DAVIS VISION',
      idQualifier: 'PI',
      id: 'QKZWY',
    });
    expect(inquiry.provider).toMatchObject({
      entity: '1P',
      lastName: 'BRIGHT EYES OPTOMETRY',
      idQualifier: 'XX',
      id: '1234567893',
    });
    expect(inquiry.subscriber.name).toMatchObject({
      lastName: 'DOE',
      firstName: 'JANE',
      idQualifier: 'MI',
      id: 'DV1234567',
    });
    expect(inquiry.subscriber.demographics?.dob).toBe('1980-01-15');
    expect(inquiry.subscriber.serviceTypes).toEqual([['30']]);
    expect(inquiry.subscriber.traces).toEqual([
      { type: '1', trace: exchange.traceNumber, originator: '1741234567', secondary: '' },
    ]);
    expect(inquiry.subscriber.dates[0]).toMatchObject({
      qualifier: '291',
      from: exchange.startedAt.slice(0, 10),
    });

    expect(outcome.kind).toBe('found');
    const plans = outcome.kind === 'found' ? outcome.plans : [];
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatchObject({
      status: 'active',
      planName: 'VISION CHOICE PLAN',
      planGroupId: 'G-4455',
    });
    expect(plans[0].persons.map((p) => [p.firstName, p.type])).toEqual([
      ['JANE', 'self'],
      ['TIMMY', 'child'],
    ]);

    expect(exchange).toMatchObject({
      insurerCode: 'insurer:vision:davis_vision',
      url: fake.eligibilityUrl,
      request: call.x12,
      httpStatus: 200,
      aaaCodes: [],
      outcome: 'found',
      error: null,
    });
    expect(exchange.response).toContain(`TRN*2*${exchange.traceNumber}*9VISIONELG~`);
    expect(exchange.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('uses a new trace on every call', async () => {
    const first = await client.checkEligibility(check());
    const second = await client.checkEligibility(check());
    expect(first.exchange.traceNumber).not.toBe(second.exchange.traceNumber);
    expect(fake.calls.map((c) => c.inquiry?.subscriber.traces[0].trace)).toEqual([
      first.exchange.traceNumber,
      second.exchange.traceNumber,
    ]);
  });

  it('sends the service types configured for the insurer, without a member id when none is known', async () => {
    client = new ClearinghouseClient(
      config(fake.eligibilityUrl, {
        serviceTypes: { 'insurer:vision:davis_vision': ['AL', 'AN'] },
      }),
    );
    expect(client.serviceTypesFor('insurer:vision:davis_vision')).toEqual(['AL', 'AN']);
    expect(client.serviceTypesFor('insurer:vision:spectera')).toEqual(['30']);
    await client.checkEligibility(
      check({ patient: { firstName: 'Jane', lastName: 'Doe', dob: '1980-01-15', memberId: null } }),
    );
    const inquiry = fake.calls[0].inquiry!;
    expect(inquiry.subscriber.serviceTypes).toEqual([['AL', 'AN']]);
    expect(inquiry.subscriber.name.id).toBe('');
    expect(inquiry.segmentCount).toBe(14);
  });

  it('not found (AAA 75): not_found with the code recorded', async () => {
    fake.answer({ kind: 'not_found' });
    const { outcome, exchange } = await client.checkEligibility(check());
    expect(outcome).toEqual({
      kind: 'not_found',
      reason: 'the payer answered AAA 75 (subscriber/insured not found) in 2100C',
    });
    expect(exchange).toMatchObject({ aaaCodes: ['75'], outcome: 'not_found', httpStatus: 200 });
  });

  it('AAA 42: unavailable, to be retried', async () => {
    fake.answer({ kind: 'aaa', loop: '2100A', reason: '42', followUp: 'R' });
    const { outcome, exchange } = await client.checkEligibility(check());
    expect(outcome).toMatchObject({ kind: 'unavailable', retryAfterMs: null });
    expect(exchange.aaaCodes).toEqual(['42']);
  });

  it('AAA 43: rejected at once', async () => {
    fake.answer({ kind: 'aaa', loop: '2100B', reason: '43', followUp: 'N' });
    const { outcome, exchange } = await client.checkEligibility(check());
    expect(outcome).toEqual({
      kind: 'rejected',
      reason: 'the payer answered AAA 43 (invalid or missing provider identification) in 2100B',
    });
    expect(exchange).toMatchObject({ aaaCodes: ['43'], outcome: 'rejected' });
  });

  it('AAA 79 with HTTP 400 (payer not configured): rejected', async () => {
    fake.answer({ kind: 'aaa', loop: '2100A', reason: '79', followUp: 'N', status: 400 });
    const { outcome, exchange } = await client.checkEligibility(check());
    expect(outcome.kind).toBe('rejected');
    expect(exchange).toMatchObject({ httpStatus: 400, aaaCodes: ['79'] });
  });

  it('HTTP 503 then 200: unavailable (with Retry-After), then found', async () => {
    fake.answer(
      { kind: 'http', status: 503, body: 'maintenance', retryAfter: '7' },
      { kind: 'found' },
    );
    const first = await client.checkEligibility(check());
    expect(first.outcome).toEqual({
      kind: 'unavailable',
      reason: 'the clearinghouse answered HTTP 503',
      retryAfterMs: 7000,
    });
    expect(first.exchange).toMatchObject({
      httpStatus: 503,
      response: 'maintenance',
      outcome: 'unavailable',
    });
    const second = await client.checkEligibility(check());
    expect(second.outcome.kind).toBe('found');
  });

  it.each([429, 500, 502, 504])('HTTP %i: unavailable', async (status) => {
    fake.answer({ kind: 'http', status });
    const { outcome } = await client.checkEligibility(check());
    expect(outcome).toMatchObject({
      kind: 'unavailable',
      reason: `the clearinghouse answered HTTP ${status}`,
    });
  });

  it('HTTP 401 and 403: rejected, the credentials are wrong', async () => {
    client = new ClearinghouseClient(
      config(fake.eligibilityUrl, { auth: { kind: 'api_key', apiKey: 'wrong' } }),
    );
    const { outcome, exchange } = await client.checkEligibility(check());
    expect(outcome).toEqual({
      kind: 'rejected',
      reason: 'the clearinghouse refused the credentials (HTTP 401)',
    });
    expect(exchange.httpStatus).toBe(401);
    fake.answer({ kind: 'http', status: 403 });
    client = new ClearinghouseClient(config(fake.eligibilityUrl));
    expect((await client.checkEligibility(check())).outcome.kind).toBe('rejected');
  });

  it('a slow clearinghouse: unavailable once the deadline passes', async () => {
    fake.answer({ kind: 'slow', delayMs: 60_000 });
    const { outcome, exchange } = await client.checkEligibility(
      check({ deadline: Date.now() + 300 }),
    );
    expect(outcome).toEqual({
      kind: 'unavailable',
      reason: 'the clearinghouse did not answer before the deadline',
      retryAfterMs: null,
    });
    expect(exchange).toMatchObject({ httpStatus: null, response: null, outcome: 'unavailable' });
  });

  it("the caller's abort signal ends the call", async () => {
    fake.answer({ kind: 'slow', delayMs: 60_000 });
    const controller = new AbortController();
    const pending = client.checkEligibility(check({ signal: controller.signal }));
    await waitFor(() => fake.calls.length === 1);
    controller.abort();
    expect((await pending).outcome).toEqual({
      kind: 'unavailable',
      reason: 'the call to the clearinghouse was aborted',
      retryAfterMs: null,
    });
  });

  it('a deadline already passed: no call', async () => {
    const { outcome } = await client.checkEligibility(check({ deadline: Date.now() - 1 }));
    expect(outcome).toMatchObject({
      kind: 'unavailable',
      reason: 'the deadline passed before the call',
    });
    expect(fake.calls).toHaveLength(0);
  });

  it('no connection: unavailable', async () => {
    const url = fake.eligibilityUrl;
    await fake.close();
    fake = await FakeClearinghouse.start();
    const { outcome } = await new ClearinghouseClient(config(url)).checkEligibility(check());
    expect(outcome).toMatchObject({
      kind: 'unavailable',
      reason: 'no connection to the clearinghouse (ECONNREFUSED)',
    });
  });

  it('a 271 that does not parse: unexpected, with the reader message', async () => {
    fake.answer({ kind: 'x12', build: () => 'ISA*00*oops~' });
    const { outcome, exchange } = await client.checkEligibility(check());
    expect(outcome).toEqual({
      kind: 'unexpected',
      reason:
        'the 271 does not parse: X12: truncated ISA header: it ends inside ISA02 (12 characters, an ISA header has 106)',
    });
    expect(exchange.response).toBe('ISA*00*oops~');
  });

  it('a 271 answering another inquiry (foreign trace): unexpected', async () => {
    fake.answer({
      kind: 'x12',
      build: () =>
        transaction271([
          'BHT*0022*11*X*20260315*1230~',
          'HL*1**20*1~',
          'NM1*PR*2*DAVIS VISION*****PI*QKZWY~',
          'HL*2*1*21*1~',
          'NM1*1P*2*BRIGHT EYES*****XX*1234567893~',
          'HL*3*2*22*0~',
          'TRN*2*SOMEONE-ELSE*9VISIONELG~',
          'NM1*IL*1*ROE*RICHARD~',
          'EB*1*IND*30~',
        ]),
    });
    const { outcome, exchange } = await client.checkEligibility(check());
    expect(outcome).toEqual({
      kind: 'unexpected',
      reason: `the 271 answers another inquiry (trace SOMEONE-ELSE, expected ${exchange.traceNumber})`,
    });
  });

  it('HTTP 200 without an x12 field, or another status: unexpected', async () => {
    fake.answer(
      { kind: 'http', status: 200, body: '{"status":"ok"}' },
      { kind: 'http', status: 404 },
    );
    expect((await client.checkEligibility(check())).outcome).toEqual({
      kind: 'unexpected',
      reason: 'the clearinghouse answered HTTP 200 without an x12 field',
    });
    expect((await client.checkEligibility(check())).outcome).toEqual({
      kind: 'unexpected',
      reason: 'the clearinghouse answered HTTP 404',
    });
  });

  it('an identity the 270 cannot carry: rejected without a call', async () => {
    const { outcome, exchange } = await client.checkEligibility(
      check({ provider: { npi: '123', organizationName: 'X', taxId: null } }),
    );
    expect(outcome).toEqual({
      kind: 'rejected',
      reason: 'the 270 cannot be written: the provider NPI must be 10 digits (got "123")',
    });
    expect(exchange.request).toBe('');
    expect(fake.calls).toHaveLength(0);
  });

  it('without a configured clearinghouse: rejected, and says it is not configured', async () => {
    const bare = new ClearinghouseClient(config(fake.eligibilityUrl, { eligibilityUrl: null }));
    expect(bare.isConfigured()).toBe(false);
    expect(client.isConfigured()).toBe(true);
    expect(client.payerIdFor('insurer:vision:davis_vision')).toBe('QKZWY');
    expect(client.payerIdFor('insurer:vision:vsp')).toBeNull();
    expect((await bare.checkEligibility(check())).outcome).toEqual({
      kind: 'rejected',
      reason: 'no clearinghouse is configured',
    });
  });
});

describe('clearinghouse client with OAuth2 client credentials', () => {
  let fake: FakeClearinghouse;
  let now: number;

  const oauthClient = (secret = OAUTH.clientSecret) =>
    new ClearinghouseClient(
      config(fake.eligibilityUrl, {
        auth: {
          kind: 'oauth2',
          tokenUrl: fake.tokenUrl,
          clientId: OAUTH.clientId,
          clientSecret: secret,
        },
      }),
      { now: () => now },
    );

  beforeEach(async () => {
    now = Date.now();
    fake = await FakeClearinghouse.start({ oauth: { ...OAUTH, lifetimeSeconds: 3600 } });
  });

  afterEach(async () => {
    await fake.close();
  });

  it('fetches the token once and reuses it, also for concurrent calls', async () => {
    const client = oauthClient();
    const results = await Promise.all(
      [1, 2, 3].map(() => client.checkEligibility(check({ deadline: now + 30_000 }))),
    );
    expect(results.map((r) => r.outcome.kind)).toEqual(['found', 'found', 'found']);
    await client.checkEligibility(check({ deadline: now + 30_000 }));
    expect(fake.tokenFetches).toBe(1);
    const headers = new Set(fake.calls.map((c) => c.authorization));
    expect(headers.size).toBe(1);
    expect([...headers][0]).toMatch(/^Bearer [0-9a-f]{32}$/);
  });

  it('fetches a new token when the cached one expires', async () => {
    const client = oauthClient();
    await client.checkEligibility(check({ deadline: now + 30_000 }));
    now += 3600 * 1000;
    const { outcome } = await client.checkEligibility(check({ deadline: now + 30_000 }));
    expect(outcome.kind).toBe('found');
    expect(fake.tokenFetches).toBe(2);
  });

  it('a revoked token: rejected (401), and the next call fetches a new one', async () => {
    const client = oauthClient();
    await client.checkEligibility(check({ deadline: now + 30_000 }));
    fake.revokeTokens();
    const revoked = await client.checkEligibility(check({ deadline: now + 30_000 }));
    expect(revoked.outcome).toMatchObject({ kind: 'rejected' });
    const again = await client.checkEligibility(check({ deadline: now + 30_000 }));
    expect(again.outcome.kind).toBe('found');
    expect(fake.tokenFetches).toBe(2);
  });

  it('client credentials the token endpoint refuses: rejected, no eligibility call', async () => {
    const { outcome } = await oauthClient('wrong').checkEligibility(
      check({ deadline: now + 30_000 }),
    );
    expect(outcome).toEqual({
      kind: 'rejected',
      reason: 'the token endpoint refused the client credentials (HTTP 401)',
    });
    expect(fake.calls).toHaveLength(0);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error('condition not reached');
}
