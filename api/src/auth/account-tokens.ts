import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AccountTokenPurpose, Prisma } from '../generated/prisma/client.ts';
import { domainError } from '../shared/errors.ts';

// The links e-mailed to verify an address or reset a password. The token travels only in the
// e-mail; the table keeps its sha256, so a copy of the database opens nothing. Each is used once.

/** 32 random bytes: 256 bits, 43 characters of base64url. */
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const INVALID_LINK = 'This link is invalid or has expired.';

/**
 * One answer for an unknown, used, expired or mistyped link: which one it was is nobody's business
 * (telling a used link from an unknown one would say the link was real).
 */
export class InvalidLinkError extends domainError(400, 'INVALID_LINK', INVALID_LINK) {}

export function hashAccountToken(token: string) {
  return createHash('sha256').update(token).digest('hex');
}

type TokenDb = Pick<Prisma.TransactionClient, 'accountToken'>;

/** Makes a link's token for `email` of the account; returns the token itself (never stored). */
export async function issueAccountToken(
  db: TokenDb,
  input: { userId: string; purpose: AccountTokenPurpose; email: string; ttlSeconds: number },
) {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  await db.accountToken.create({
    data: {
      userId: input.userId,
      purpose: input.purpose,
      email: input.email,
      tokenHash: hashAccountToken(token),
      expiresAt: new Date(Date.now() + input.ttlSeconds * 1000),
    },
  });
  return token;
}

/**
 * Uses a token up: the row it names, for this purpose, unused and unexpired, is claimed (two
 * requests with one token: one wins). Throws InvalidLinkError for anything else.
 */
export async function consumeAccountToken(db: TokenDb, purpose: AccountTokenPurpose, token: unknown) {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) throw new InvalidLinkError();
  const tokenHash = hashAccountToken(token);
  const row = await db.accountToken.findUnique({ where: { tokenHash } });
  // The index finds the row by its hash; the hashes are compared once more in constant time, so no
  // part of the answer's timing depends on how much of a guess was right.
  const same = row && timingSafeEqual(Buffer.from(row.tokenHash, 'hex'), Buffer.from(tokenHash, 'hex'));
  if (!row || !same || row.purpose !== purpose) throw new InvalidLinkError();
  const claimed = await db.accountToken.updateMany({
    where: { id: row.id, usedAt: null, expiresAt: { gt: new Date() } },
    data: { usedAt: new Date() },
  });
  if (claimed.count !== 1) throw new InvalidLinkError();
  return row;
}

/** Every outstanding link of a purpose stops working (a newer one was used, or the password changed). */
export async function retireAccountTokens(db: TokenDb, userId: string, purpose: AccountTokenPurpose) {
  await db.accountToken.updateMany({ where: { userId, purpose, usedAt: null }, data: { usedAt: new Date() } });
}
