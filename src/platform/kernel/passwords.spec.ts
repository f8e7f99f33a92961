import { randomBytes, scryptSync } from 'node:crypto';
import { hashPassword, needsRehash, verifyPassword } from './passwords';

/** A hash as the service made them before issue 27 (N=2^14). */
function oldCostHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password.normalize('NFKC'), salt, 32, { N: 16384, r: 8, p: 1 });
  return `scrypt$16384$8$1$${salt.toString('base64')}$${hash.toString('base64')}`;
}

describe('password hashing (issue 27: OWASP scrypt cost)', () => {
  it("hashes at OWASP's cost, N=2^17, r=8, p=1, and verifies", async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '131072', '8', '1']);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery!', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('still verifies hashes made at the old cost, and says they need hashing again', async () => {
    const old = oldCostHash('an older password');
    expect(await verifyPassword('an older password', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash('garbage')).toBe(true);
  });
});
