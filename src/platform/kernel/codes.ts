import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Public codes (docs/api.md, Conventions): prefix + 8 uppercase Crockford base32 characters from 40 random
 * bits, so codes are neither counters nor guessable. Callers retry on the (rare) unique clash.
 */
export function generateCode(prefix: 'PAT' | 'CLM' | 'LOC'): string {
  const bytes = randomBytes(5);
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 7; i >= 0; i--) out += CROCKFORD[Number((bits >> BigInt(i * 5)) & 31n)];
  return prefix + out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID's text form: an id that is not one is not found, without asking PostgreSQL (which refuses it). */
export const isUuid = (text: string): boolean => UUID.test(text);

export const CODE_PATTERN = /^[A-Z]{3}[0-9A-HJKMNP-TV-Z]{8}$/;

/** Generated request UIDs: 32 lowercase hex characters (docs/api.md, Eligibility). */
export function generateUid(): string {
  return randomBytes(16).toString('hex');
}

/** Retries `create` when it fails with a unique violation on a generated value. */
export async function withUniqueRetry<T>(create: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await create();
    } catch (e) {
      if (i >= attempts || !isUniqueViolation(e)) throw e;
    }
  }
}

export function isUniqueViolation(e: unknown, constraint?: string): boolean {
  const err = e as {
    code?: string;
    constraint?: string;
    driverError?: { code?: string; constraint?: string };
  };
  const code = err?.code ?? err?.driverError?.code;
  const name = err?.constraint ?? err?.driverError?.constraint;
  return code === '23505' && (constraint === undefined || name === constraint);
}
