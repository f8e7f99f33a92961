import type { Env } from './env-parts';

/**
 * The keys secrets are opened with (SECURITY.md, Keys): the current one, and during a rotation
 * the previous one, which is never used to seal.
 */
export interface SecretKeys {
  encryptionKey: Buffer;
  encryptionKeyPrevious: Buffer | null;
}

// Development-only fallback. Production refuses to start without a real key.
const DEV_ENCRYPTION_KEY = '0'.repeat(64);

/**
 * SECURITY.md, Keys: APP_ENCRYPTION_KEY seals secrets at rest; APP_ENCRYPTION_KEY_PREVIOUS
 * (optional, the key before a rotation) is only ever used to open what the previous key sealed.
 */
export function loadEncryptionKeys(
  env: Env,
  isProduction: boolean,
  problems: string[],
): SecretKeys {
  let encryptionKey = Buffer.from(DEV_ENCRYPTION_KEY, 'hex');
  const keyRaw = env.APP_ENCRYPTION_KEY?.trim();
  if (keyRaw) {
    if (isKey(keyRaw)) encryptionKey = Buffer.from(keyRaw, 'hex');
    else problems.push('APP_ENCRYPTION_KEY: must be 64 hex characters (32 bytes)');
  } else if (isProduction) {
    problems.push('APP_ENCRYPTION_KEY: required when NODE_ENV=production (64 hex characters)');
  }
  let encryptionKeyPrevious: Buffer | null = null;
  const previousRaw = env.APP_ENCRYPTION_KEY_PREVIOUS?.trim();
  if (previousRaw) {
    if (!isKey(previousRaw))
      problems.push('APP_ENCRYPTION_KEY_PREVIOUS: must be 64 hex characters (32 bytes)');
    else if (!keyRaw)
      problems.push(
        'APP_ENCRYPTION_KEY_PREVIOUS: needs APP_ENCRYPTION_KEY (the key it was rotated to)',
      );
    else encryptionKeyPrevious = Buffer.from(previousRaw, 'hex');
    if (encryptionKeyPrevious?.equals(encryptionKey))
      problems.push('APP_ENCRYPTION_KEY_PREVIOUS: must differ from APP_ENCRYPTION_KEY');
  }
  return { encryptionKey, encryptionKeyPrevious };
}

const isKey = (raw: string) => /^[0-9a-fA-F]{64}$/.test(raw);
