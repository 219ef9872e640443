import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

// An upload URL carries `?token=<expires>.<signature>`. The signature covers the upload id, the
// user it was made for, the largest size allowed and the expiry, so none of them can be changed.

export function uploadSigningKey(secret: string) {
  return Buffer.from(hkdfSync('sha256', secret, 'scoutbase', 'upload-url-v1', 32));
}

interface Claims {
  uploadId: string;
  userId: string;
  maxSize: bigint;
}

function signature(key: Buffer, claims: Claims, expires: number) {
  return createHmac('sha256', key)
    .update(`${claims.uploadId}\n${claims.userId}\n${claims.maxSize}\n${expires}`)
    .digest('base64url');
}

export function signUploadToken(key: Buffer, claims: Claims, expiresAt: Date) {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${expires}.${signature(key, claims, expires)}`;
}

/** True when the token was made by us for exactly these claims and has not expired. */
export function verifyUploadToken(key: Buffer, claims: Claims, token: string | undefined, now = new Date()) {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? '');
  if (!match) return false;
  const expires = Number(match[1]);
  const expected = Buffer.from(signature(key, claims, expires));
  const given = Buffer.from(match[2] as string);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
  return expires * 1000 > now.getTime();
}
