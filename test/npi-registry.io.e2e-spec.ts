import type { AppConfig } from '@/platform/config/env';
import { loadConfig } from '@/platform/config/env';
import { MAX_ANSWER_BYTES, NpiRegistry } from '@/modules/accounts/domain/npi-registry';
import { FakeNpiRegistry } from './support/fake-npi-registry';

const ORGANISATION = '1234567893';
const PERSON = '1245319599';

/** The NPI registry client against registries on loopback that misbehave. */
describe('NPI registry client: no redirects, a bounded answer, https in production', () => {
  const registry = new FakeNpiRegistry().register(PERSON, 'NPI-1');
  const elsewhere = new FakeNpiRegistry().register(ORGANISATION, 'NPI-2');
  let registryUrl: string;
  let elsewhereUrl: string;
  // A new client each time: its cache would answer a repeated NPI without asking.
  const client = () =>
    new NpiRegistry({ npiRegistryUrl: registryUrl, npiRegistryTimeoutMs: 3_000 } as AppConfig);

  beforeAll(async () => {
    registryUrl = await registry.start();
    elsewhereUrl = await elsewhere.start();
  });
  afterEach(() => {
    registry.redirectTo = null;
    registry.padding = 0;
  });
  afterAll(async () => {
    await registry.stop();
    await elsewhere.stop();
  });

  it('does not follow a redirect: the NPI stays unknown and the other host is never asked', async () => {
    registry.redirectTo = elsewhereUrl;
    expect(await client().entityOf(ORGANISATION)).toBe('unknown');
    expect(elsewhere.queries).toEqual([]);
    registry.redirectTo = null;
    expect(await client().entityOf(PERSON)).toBe('individual');
  });

  it('reads at most MAX_ANSWER_BYTES of an answer: a larger one is not trusted', async () => {
    registry.padding = MAX_ANSWER_BYTES;
    expect(await client().entityOf(PERSON)).toBe('unknown');
    // Just under the bound is still read.
    registry.padding = MAX_ANSWER_BYTES - 1_000;
    expect(await client().entityOf(PERSON)).toBe('individual');
  });

  it('refuses an http NPI_REGISTRY_URL in production, with one clear line', () => {
    const production = {
      NODE_ENV: 'production',
      APP_ENCRYPTION_KEY: 'ab'.repeat(32),
      SESSION_SECRET: 'a-production-session-secret',
      PUBLIC_URL: 'https://vision.example.test',
    };
    expect(() =>
      loadConfig({ ...production, NPI_REGISTRY_URL: 'http://npiregistry.example.test/api/' }),
    ).toThrow(/NPI_REGISTRY_URL: must be https:\/\/ when NODE_ENV=production/);
    expect(
      loadConfig({ ...production, NPI_REGISTRY_URL: 'https://npiregistry.example.test/api/' })
        .npiRegistryUrl,
    ).toBe('https://npiregistry.example.test/api/');
    expect(loadConfig({ ...production, NPI_REGISTRY_URL: 'off' }).npiRegistryUrl).toBeNull();
    expect(loadConfig({ NPI_REGISTRY_URL: 'http://127.0.0.1:9/api/' }).npiRegistryUrl).toBe(
      'http://127.0.0.1:9/api/',
    );
  });
});
