import { ConfigError, loadConfig } from './env';

const KEY = 'ab'.repeat(32);
const PREVIOUS = 'cd'.repeat(32);

describe('APP_ENCRYPTION_KEY_PREVIOUS (SECURITY.md, Keys)', () => {
  it('is unset by default and taken as 32 bytes beside the current key', () => {
    expect(loadConfig({ APP_ENCRYPTION_KEY: KEY }).encryptionKeyPrevious).toBeNull();
    const config = loadConfig({ APP_ENCRYPTION_KEY: KEY, APP_ENCRYPTION_KEY_PREVIOUS: PREVIOUS });
    expect(config.encryptionKey.toString('hex')).toBe(KEY);
    expect(config.encryptionKeyPrevious?.toString('hex')).toBe(PREVIOUS);
  });

  it.each([
    [{ APP_ENCRYPTION_KEY: KEY, APP_ENCRYPTION_KEY_PREVIOUS: 'abc' }, /64 hex characters/],
    [{ APP_ENCRYPTION_KEY: KEY, APP_ENCRYPTION_KEY_PREVIOUS: KEY }, /must differ/],
    [{ APP_ENCRYPTION_KEY_PREVIOUS: PREVIOUS }, /needs APP_ENCRYPTION_KEY/],
  ])('refuses to start with a bad previous key (%j)', (env, line) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(line);
  });
});
