import { randomBytes, scryptSync } from 'node:crypto';
import {
  HASH_MEMORY_BUDGET,
  HASHES_WAITING,
  hashMemory,
  hashPassword,
  needsRehash,
  PasswordHashBusy,
  setPasswordHashCost,
  verifyPassword,
} from './passwords';
import { DEFAULT_PASSWORD_HASH_COST } from '@/platform/config/password-cost';

/** A hash as the service made them before (N=2^17, r=8, p=1: 128 MiB while it runs). */
function oldCostHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password.normalize('NFKC'), salt, 32, {
    N: 2 ** 17,
    r: 8,
    p: 1,
    maxmem: 256 * 1024 * 1024,
  });
  return `scrypt$131072$8$1$${salt.toString('base64')}$${hash.toString('base64')}`;
}

describe('password hashing (SECURITY.md: OWASP scrypt at 16 MiB)', () => {
  beforeAll(() => setPasswordHashCost(DEFAULT_PASSWORD_HASH_COST));

  it("hashes at OWASP's N=2^14, r=8, p=5 (16 MiB), and verifies", async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '16384', '8', '5']);
    expect(hashMemory(16384, 8)).toBe(16 * 1024 * 1024);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery!', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('still verifies hashes made at the old cost, within the budget, and says they need hashing again', async () => {
    const old = oldCostHash('an older password');
    // The whole per-process budget: an old hash runs alone.
    expect(hashMemory(131072, 8)).toBe(HASH_MEMORY_BUDGET);
    expect(await verifyPassword('an older password', old)).toBe(true);
    expect(await verifyPassword('an older password?', old)).toBe(false);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash('garbage')).toBe(true);
    expect(await verifyPassword('x', 'scrypt$NaN$8$1$AAAA$AAAA')).toBe(false);
  });

  it('lets an old hash run alone: new ones queue behind it, and past the queue are refused', async () => {
    const old = oldCostHash('the old one');
    const fresh = await hashPassword('a new one, long');
    const results = await Promise.allSettled([
      verifyPassword('the old one', old),
      // The old hash holds the whole budget: HASHES_WAITING wait, one more is told to come back.
      ...Array.from({ length: HASHES_WAITING + 1 }, () => verifyPassword('a new one, long', fresh)),
    ]);
    const busy = results.filter((r) => r.status === 'rejected');
    expect(busy).toHaveLength(1);
    expect(busy[0].reason).toBeInstanceOf(PasswordHashBusy);
    expect(results.filter((r) => r.status === 'fulfilled' && r.value)).toHaveLength(
      HASHES_WAITING + 1,
    );
  });
});
