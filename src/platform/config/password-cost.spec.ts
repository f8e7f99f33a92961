import { ConfigError, loadConfig } from './env';

const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://vision.example.com',
  APP_ENCRYPTION_KEY: 'ab'.repeat(32),
  SESSION_SECRET: 'a-production-session-secret',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/vision',
  REDIS_URL: 'redis://127.0.0.1:6379',
};

describe('PASSWORD_HASH_COST (SECURITY.md: scrypt at OWASP cost)', () => {
  it("defaults to OWASP's 2^14 (p=5) and takes a lower cost outside production only", () => {
    expect(loadConfig({ ...PRODUCTION }).passwordHashCost).toBe(14);
    expect(loadConfig({ PASSWORD_HASH_COST: '12' }).passwordHashCost).toBe(12);
    expect(() => loadConfig({ ...PRODUCTION, PASSWORD_HASH_COST: '12' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...PRODUCTION, PASSWORD_HASH_COST: '12' })).toThrow(
      /PASSWORD_HASH_COST/,
    );
    expect(loadConfig({ ...PRODUCTION, PASSWORD_HASH_COST: '17' }).passwordHashCost).toBe(17);
    // 128 * 2^18 * 8 bytes is more than the hashing budget: such a hash could never be made.
    expect(() => loadConfig({ ...PRODUCTION, PASSWORD_HASH_COST: '18' })).toThrow(
      /PASSWORD_HASH_COST/,
    );
  });
});
