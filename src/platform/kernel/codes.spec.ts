import { CODE_PATTERN, generateCode, generateUid } from './codes';
import { hashPassword, verifyPassword } from './passwords';

describe('codes', () => {
  it('generates prefixed Crockford base32 codes that differ', () => {
    const codes = new Set(Array.from({ length: 1000 }, () => generateCode('PAT')));
    expect(codes.size).toBe(1000);
    for (const code of codes) expect(code).toMatch(CODE_PATTERN);
    expect([...codes].every((c) => c.startsWith('PAT') && c.length === 11)).toBe(true);
  });

  it('generates 32 lowercase hex uids', () => {
    expect(generateUid()).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('passwords', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored.startsWith('scrypt$')).toBe(true);
    expect(stored).not.toContain('correct horse');
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('wrong horse', stored)).resolves.toBe(false);
    await expect(verifyPassword('x', 'garbage')).resolves.toBe(false);
  });
});
