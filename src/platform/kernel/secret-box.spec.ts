import { randomBytes } from 'node:crypto';
import { openSecret, sealSecret } from './secret-box';

describe('secret box (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('round-trips and never contains the plaintext', () => {
    const sealed = sealSecret(key, 'whsec_top-secret', 'webhook:1');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('top-secret');
    expect(openSecret(key, sealed, 'webhook:1')).toBe('whsec_top-secret');
    expect(sealSecret(key, 'same', 'x')).not.toBe(sealSecret(key, 'same', 'x'));
  });

  it('refuses another key, other associated data and tampering', () => {
    const sealed = sealSecret(key, 'pw', 'insurer:a');
    expect(() => openSecret(randomBytes(32), sealed, 'insurer:a')).toThrow();
    expect(() => openSecret(key, sealed, 'insurer:b')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('xx').toString('base64url');
    expect(() => openSecret(key, parts.join('.'), 'insurer:a')).toThrow();
  });
});

describe('secret box across a key rotation (SECURITY.md, Keys)', () => {
  const previous = randomBytes(32);
  const current = randomBytes(32);

  it('opens a value sealed with the previous key once the current key has replaced it', () => {
    const old = sealSecret(previous, 'whsec_before', 'webhook:1');
    const fresh = sealSecret(current, 'whsec_after', 'webhook:1');
    const keys = { encryptionKey: current, encryptionKeyPrevious: previous };
    expect(openSecret(keys, old, 'webhook:1')).toBe('whsec_before');
    expect(openSecret(keys, fresh, 'webhook:1')).toBe('whsec_after');
    // The previous key still binds its values to their purpose.
    expect(() => openSecret(keys, old, 'webhook:2')).toThrow();
  });

  it('refuses a value of the previous key when no previous key is set, and a third key', () => {
    const old = sealSecret(previous, 'pw', 'insurer:a');
    expect(() =>
      openSecret({ encryptionKey: current, encryptionKeyPrevious: null }, old, 'insurer:a'),
    ).toThrow();
    const stranger = sealSecret(randomBytes(32), 'pw', 'insurer:a');
    expect(() =>
      openSecret(
        { encryptionKey: current, encryptionKeyPrevious: previous },
        stranger,
        'insurer:a',
      ),
    ).toThrow();
  });
});
