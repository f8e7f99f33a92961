import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretKeys } from '@/platform/config/encryption-keys';

/**
 * AES-256-GCM for secrets stored at rest (webhook secrets, insurer passwords) under
 * APP_ENCRYPTION_KEY. Format: `v1.<iv>.<tag>.<ciphertext>` (base64url). The associated data binds
 * a ciphertext to its purpose and owner, so a value copied into another row does not decrypt.
 */
export function sealSecret(key: Buffer, plaintext: string, associatedData: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ['v1', iv, tag, ciphertext]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export type { SecretKeys };

/**
 * Opens a sealed value with the current key, or, when that fails and a previous key is set, with
 * the previous key (a value sealed before the rotation). Throws when neither opens it.
 */
export function openSecret(
  keys: Buffer | SecretKeys,
  sealed: string,
  associatedData: string,
): string {
  if (Buffer.isBuffer(keys)) return openWith(keys, sealed, associatedData);
  try {
    return openWith(keys.encryptionKey, sealed, associatedData);
  } catch (e) {
    if (!keys.encryptionKeyPrevious) throw e;
    return openWith(keys.encryptionKeyPrevious, sealed, associatedData);
  }
}

function openWith(key: Buffer, sealed: string, associatedData: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined)
    throw new Error('Unknown secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(ciphertext, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}
