import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { BoundedGate } from './bounded-gate';
import { DetailError } from './errors';
import { DEFAULT_PASSWORD_HASH_COST } from '@/platform/config/password-cost';

const scrypt = promisify(scryptCb) as (
  pw: string,
  salt: Buffer,
  len: number,
  opts: object,
) => Promise<Buffer>;
export { DEFAULT_PASSWORD_HASH_COST };
let N = 2 ** DEFAULT_PASSWORD_HASH_COST;
const R = 8;
const P = 1;
const LEN = 32;
/** Room for the cost above (128 * N * r bytes) and older hashes; Node's default is 32 MiB. */
const MAX_MEM = 256 * 1024 * 1024;

/**
 * Every scrypt of this process goes through one gate: each hash holds 128 * N * r bytes (128 MiB
 * at 2^17) while it runs, so unbounded parallel sign-ins (unknown e-mails are hashed too) would
 * grow the process past its memory limit. Two run at once (the memory bound: deploy/README.md,
 * "Memory"), four more wait for a slot (a hash takes about half a second), and the rest are
 * answered 429 at once.
 */
export const HASHES_AT_ONCE = 2;
export const HASHES_WAITING = 4;
const gate = new BoundedGate(HASHES_AT_ONCE, HASHES_WAITING);
/** A full queue drains in about this long (six hashes, two at a time, ~0.5 s each). */
const BUSY_RETRY_AFTER_SECONDS = 2;

/** 429 `{"detail": "..."}` with `Retry-After`: every hashing slot and queue place is taken. */
export class PasswordHashBusy extends DetailError {
  readonly status = 429;
  override readonly headers = { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) };
  readonly retryAfterSeconds = BUSY_RETRY_AFTER_SECONDS;
  constructor() {
    super(`Too many sign-ins at this moment. Try again in ${BUSY_RETRY_AFTER_SECONDS} seconds.`);
  }
}

/**
 * How a hash waits for the gate: `refuse` (requests anyone can send: sign-in, password forms)
 * answers busy past the queue; `wait` (an operator's command, account creation) waits its turn,
 * still inside the two slots.
 */
export type HashWait = 'refuse' | 'wait';

const gated = (pw: string, salt: Buffer, len: number, opts: object, wait: HashWait) =>
  gate.run(
    () => scrypt(pw, salt, len, opts),
    wait === 'refuse' ? () => new PasswordHashBusy() : undefined,
  );

/** Sets the scrypt cost (log2 N) new hashes are made at; hashes at any other cost are rehashed. */
export function setPasswordHashCost(log2N: number): void {
  N = 2 ** log2N;
}

/**
 * scrypt with a random salt; the parameters travel with the hash so they can be raised later.
 * Throws PasswordHashBusy when the gate is full (as verifyPassword does).
 */
export async function hashPassword(password: string, wait: HashWait = 'refuse'): Promise<string> {
  const salt = randomBytes(16);
  const hash = await gated(
    password.normalize('NFKC'),
    salt,
    LEN,
    {
      N,
      r: R,
      p: P,
      maxmem: MAX_MEM,
    },
    wait,
  );
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(
  password: string,
  stored: string,
  wait: HashWait = 'refuse',
): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  const actual = await gated(
    password.normalize('NFKC'),
    salt,
    expected.length,
    {
      N: n,
      r,
      p,
      maxmem: MAX_MEM,
    },
    wait,
  );
  return timingSafeEqual(actual, expected);
}

/**
 * True when the hash was made at another cost than today's (an older, cheaper one): after a
 * successful sign-in, when the password is at hand, it is hashed again (SECURITY.md).
 */
export function needsRehash(stored: string): boolean {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return true;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  return n !== N || r !== R || p !== P;
}
