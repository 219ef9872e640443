import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// Secrets the server must read back later (import tokens, two-factor secrets) are kept sealed
// with AES-256-GCM under a key derived from AUTH_SECRET: a copy of the database alone gives
// none of them away, and a changed byte fails to open rather than reading as something else.

/** A 32-byte key for one purpose, derived from the instance secret. */
export function derivedKey(secret: string, salt: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, salt, purpose, 32));
}

export function encryptToken(key: Buffer, plain: string) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
}

/** The plain text, or null when it was sealed under another key (another AUTH_SECRET) or altered. */
export function decryptToken(key: Buffer, stored: string): string | null {
  if (!stored.startsWith('v1.')) return null;
  try {
    const raw = Buffer.from(stored.slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
