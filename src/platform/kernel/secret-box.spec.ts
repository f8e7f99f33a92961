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
