import { ConfigError, loadConfig } from './env';

const X12 = {
  CLEARINGHOUSE_ELIGIBILITY_URL: 'https://clearinghouse.example/eligibility/v3/raw-x12',
  X12_SUBMITTER_ID: 'VISIONELIG',
  X12_RECEIVER_ID: 'CLEARINGHOUSE',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe('clearinghouse settings (docs/api.md, Real insurers)', () => {
  it('leaves real insurers unreachable when no endpoint is set, with the shipped payer ids', () => {
    expect(loadConfig({}).clearinghouse).toEqual({
      eligibilityUrl: null,
      auth: null,
      submitterId: '',
      receiverId: '',
      usage: 'T',
      payerIds: {
        'insurer:vision:davis_vision': 'QKZWY',
        'insurer:vision:spectera': 'ZNIZJ',
      },
      serviceTypes: {},
      detailServiceTypes: {},
    });
  });

  it('reads an API-key account', () => {
    const config = loadConfig({ ...X12, CLEARINGHOUSE_API_KEY: 'key-123' }).clearinghouse;
    expect(config).toMatchObject({
      eligibilityUrl: X12.CLEARINGHOUSE_ELIGIBILITY_URL,
      auth: { kind: 'api_key', apiKey: 'key-123' },
      submitterId: 'VISIONELIG',
      receiverId: 'CLEARINGHOUSE',
    });
  });

  it('reads OAuth2 client credentials', () => {
    const config = loadConfig({
      ...X12,
      CLEARINGHOUSE_TOKEN_URL: 'https://clearinghouse.example/token',
      CLEARINGHOUSE_CLIENT_ID: 'id',
      CLEARINGHOUSE_CLIENT_SECRET: 'secret',
    }).clearinghouse;
    expect(config.auth).toEqual({
      kind: 'oauth2',
      tokenUrl: 'https://clearinghouse.example/token',
      clientId: 'id',
      clientSecret: 'secret',
    });
  });

  it('overrides, adds and removes payer ids, and reads service types', () => {
    const config = loadConfig({
      INSURER_PAYER_IDS:
        'insurer:vision:davis_vision=DAVIS1, insurer:vision:superior=SUP01,insurer:vision:spectera=',
      INSURER_SERVICE_TYPES: 'insurer:vision:davis_vision=AL^an,insurer:vision:superior=30',
      INSURER_DETAIL_SERVICE_TYPES: 'insurer:vision:davis_vision=AL^AM^AN^AO^CP',
      X12_USAGE: 'P',
    }).clearinghouse;
    expect(config.payerIds).toEqual({
      'insurer:vision:davis_vision': 'DAVIS1',
      'insurer:vision:superior': 'SUP01',
    });
    expect(config.serviceTypes).toEqual({
      'insurer:vision:davis_vision': ['AL', 'AN'],
      'insurer:vision:superior': ['30'],
    });
    expect(config.detailServiceTypes).toEqual({
      'insurer:vision:davis_vision': ['AL', 'AM', 'AN', 'AO', 'CP'],
    });
    expect(config.usage).toBe('P');
  });

  it('defaults to production usage in production', () => {
    const env = {
      NODE_ENV: 'production',
      APP_ENCRYPTION_KEY: 'a'.repeat(64),
      SESSION_SECRET: 's'.repeat(32),
      PUBLIC_URL: 'https://vision.example.test',
    };
    expect(loadConfig(env).clearinghouse.usage).toBe('P');
    expect(
      problems({
        ...env,
        ...X12,
        CLEARINGHOUSE_ELIGIBILITY_URL: 'http://x.example/',
        CLEARINGHOUSE_API_KEY: 'k',
      }),
    ).toEqual(['CLEARINGHOUSE_ELIGIBILITY_URL: must use https: (got "http://x.example/")']);
  });

  it('refuses bad settings with one line each', () => {
    expect(problems({ CLEARINGHOUSE_ELIGIBILITY_URL: 'https://x.example/' })).toEqual([
      'CLEARINGHOUSE_API_KEY: required (or CLEARINGHOUSE_TOKEN_URL/CLIENT_ID/CLIENT_SECRET) when CLEARINGHOUSE_ELIGIBILITY_URL is set',
      'X12_SUBMITTER_ID: required when CLEARINGHOUSE_ELIGIBILITY_URL is set',
      'X12_RECEIVER_ID: required when CLEARINGHOUSE_ELIGIBILITY_URL is set',
    ]);
    expect(
      problems({
        ...X12,
        CLEARINGHOUSE_API_KEY: 'k',
        CLEARINGHOUSE_CLIENT_ID: 'id',
      }),
    ).toEqual([
      'CLEARINGHOUSE_API_KEY: set either it or CLEARINGHOUSE_TOKEN_URL/CLIENT_ID/CLIENT_SECRET, not both',
    ]);
    expect(problems({ ...X12, CLEARINGHOUSE_CLIENT_ID: 'id' })).toEqual([
      'CLEARINGHOUSE_TOKEN_URL, CLEARINGHOUSE_CLIENT_SECRET: OAuth2 client credentials need all three settings',
    ]);
    expect(
      problems({
        CLEARINGHOUSE_ELIGIBILITY_URL: 'not a url',
        X12_SUBMITTER_ID: 'WAY*TOO*LONG*ID*',
        X12_USAGE: 'X',
        INSURER_PAYER_IDS:
          'insurer:demo:vision=X,insurer:vision:nope=Y,insurer:vision:vsp=A*B,junk',
        INSURER_SERVICE_TYPES: 'insurer:vision:vsp=30^ALL',
      }),
    ).toEqual([
      'CLEARINGHOUSE_ELIGIBILITY_URL: must be a URL (got "not a url")',
      'X12_SUBMITTER_ID: 1 to 15 letters, digits or spaces (got "WAY*TOO*LONG*ID*")',
      'X12_USAGE: must be T (test) or P (production) (got "X")',
      'INSURER_PAYER_IDS: insurer:demo:vision is the sandbox, it has no payer',
      'INSURER_PAYER_IDS: unknown insurer code insurer:vision:nope',
      'INSURER_PAYER_IDS: "junk" is not code=value',
      'INSURER_PAYER_IDS: payer id of insurer:vision:vsp must be 1 to 80 letters or digits (got "A*B")',
      'INSURER_SERVICE_TYPES: service types of insurer:vision:vsp must be codes joined by ^ (got "30^ALL")',
    ]);
  });
});
